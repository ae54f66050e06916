package netcode

import (
	"crypto/ed25519"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/netip"
	"time"
	"ttytanks/internal/skill"

	"ttytanks/game"
)

// ServerConfig configures a Server. Players, Bots, MazeW, MazeH,
// StateEvery and Rounds are the defaults of new rooms.
type ServerConfig struct {
	// Players is the number of seats of a room; a match starts when all
	// are taken (bots included). 1..game.MaxPlayers.
	Players int
	// Bots fills the last Bots seats with server-side bots made by NewBot.
	Bots   int
	NewBot func(slot int, seed uint64) InputSource
	// MazeW, MazeH is the maze size (0: the default).
	MazeW, MazeH int
	// StateEvery sends a State every so many ticks (default 2) and,
	// between States, an Ack every second tick (none at the default).
	StateEvery int
	// Rounds is the match's win condition: the first to win that many
	// rounds wins it (0: rounds go on).
	Rounds int
	// Rooms is the number of public rooms opened at start and kept open
	// (default 1; named a, b, c, …). MaxRooms bounds the rooms open at
	// once (default 64): more open on demand and close when they have
	// been empty for RoomIdle (default one minute).
	Rooms, MaxRooms int
	RoomIdle        time.Duration
	// StartWait, if positive, starts a room's match before every seat is
	// taken: once two seats are (one by a network player) for StartWait;
	// later players take the free seats and play from the next round. Zero
	// starts a match only when the room is full.
	StartWait time.Duration
	// SpectatorDelay is how far behind the match spectators watch (0:
	// live), so a spectator cannot call positions to a player.
	SpectatorDelay time.Duration
	// RematchWait is how long after the first rematch vote the rematch
	// starts with those who voted (default 15 s); ResultsFor how long the
	// results stay up when nobody votes (default 60 s; negative: until
	// every player has voted or left, as ttytanks play's results wait for
	// r or q). Then the players who did not vote go back to the lobby.
	RematchWait, ResultsFor time.Duration
	// Seed seeds the worlds and match IDs; 0 draws one from Entropy.
	Seed uint64
	// Secret keys the handshake cookies; nil draws one from Entropy.
	Secret []byte
	// StartTick is the server clock's first tick.
	StartTick game.Tick
	// MaxSpectators bounds the spectators of a room (default 16).
	MaxSpectators int
	// Entropy supplies the random bytes of seeds, secrets and reconnect
	// tokens (nil: crypto/rand).
	Entropy io.Reader
	// Clock times each room's step, for its tick figures (nil: the wall
	// clock). It does not drive the server: time comes in as now.
	Clock Clock
	// Logger receives the reports of faults (nil: discarded).
	Logger *slog.Logger
	// NewRecorder, if set, gives each room as it opens the Recorder told
	// its matches' starts, inputs, hashes and seat changes. When the room
	// closes, its Recorder is closed if it is an io.Closer.
	NewRecorder func(room string) Recorder
	// MaxSeatsPerAddr bounds the seats the peers of one source IP (an
	// IPv6 /64) may hold (default DefaultSeatsPerAddr), MaxSpectatorsPerAddr
	// their spectator places (default the same), so one address cannot
	// shut others out. Loopback is not exempt; Trusted ranges are.
	MaxSeatsPerAddr, MaxSpectatorsPerAddr int
	// Origin, if set, tells the address an in-memory peer (an SSH player,
	// at a MemPrefix address) really comes from, so the per-address limits
	// — seats, room opens, join-code tries — count SSH players by their
	// SSH client's address. It must be safe to call from the server's
	// loop; ok false falls back to the in-memory address.
	Origin func(mem netip.AddrPort) (ip netip.Addr, ok bool)
	// Key is the server's long-term Ed25519 key: it signs every
	// handshake, so clients know the server by its public half. nil makes
	// one from Entropy, good for the server's life (an embedded server, a
	// test).
	Key ed25519.PrivateKey
	// Idle frees a seat whose player has shown no intent (a non-neutral
	// input: a move, a shot, a vote) for this long, with a Leave that says
	// so (default DefaultIdle; negative: never). Waiting in a room counts;
	// keep-alives are no intent, and bots none of this.
	Idle time.Duration
	// Ladder says the server keeps a ladder (PROTOCOL.md §4.15): its
	// rooms without bots are ranked, keyed players' names are claimed
	// before they are seated, guests play under "~name", and LadderQuery
	// is answered. The driver runs the ladder's jobs (TakeLadderJobs,
	// LadderDone) against a ladder.Board.
	Ladder bool
	// Skill is the rule a quick match seats by rating on a server with a
	// ladder (the zero Rule: skill.DefaultRule).
	Skill skill.Rule
	// NoChat turns the rooms' chat off: lines are dropped, and their
	// sayers told chat is off.
	NoChat bool
	// KickHold keeps a kicked player's prefix (its IPv4 address, its IPv6
	// /64) from taking a place for this long (default DefaultKickHold).
	KickHold time.Duration
	// MaxRoomsPerAddr bounds the rooms opened on demand for one prefix
	// that are open at once (default 4); MaxBotsPerAddr the bot seats in
	// them (default 8): bots are paid for by who asks for them. MaxBots
	// bounds the bots of all rooms opened on demand (default 128), so no
	// number of addresses makes the server step more than it carries; a
	// negative bot budget allows none.
	MaxRoomsPerAddr, MaxBotsPerAddr, MaxBots int
	// Trusted lists address ranges exempt from the per-address caps and
	// the handshake rate limit: a LAN party behind one NAT, a load test
	// from one machine.
	Trusted []netip.Prefix
}

// DefaultSeatsPerAddr is the default of the per-address caps: a household
// behind one NAT.
const DefaultSeatsPerAddr = 4

// Defaults of ServerConfig's Idle and KickHold.
const (
	DefaultIdle     = 2 * time.Minute
	DefaultKickHold = 5 * time.Minute
)

// withDefaults checks cfg and fills in the defaults of what it leaves
// zero.
func (cfg ServerConfig) withDefaults() (ServerConfig, error) {
	if cfg.Skill == (skill.Rule{}) {
		cfg.Skill = skill.DefaultRule
	}
	if cfg.Players < 1 || cfg.Players > game.MaxPlayers {
		return cfg, fmt.Errorf("netcode: %d players, want 1..%d", cfg.Players, game.MaxPlayers)
	}
	if cfg.Bots < 0 || cfg.Bots > cfg.Players {
		return cfg, fmt.Errorf("netcode: %d bots for %d seats", cfg.Bots, cfg.Players)
	}
	if cfg.NewBot == nil {
		if cfg.Bots > 0 {
			return cfg, errors.New("netcode: bots requested without a bot policy")
		}
	}
	if cfg.MazeW == 0 && cfg.MazeH == 0 {
		cfg.MazeW, cfg.MazeH = game.DefaultMazeW, game.DefaultMazeH
	}
	if _, err := game.NewWorld(game.Config{Slots: cfg.Players, MazeW: cfg.MazeW, MazeH: cfg.MazeH}); err != nil {
		return cfg, err
	}
	if cfg.StateEvery == 0 {
		cfg.StateEvery = 2
	}
	if cfg.StateEvery < 1 || cfg.StateEvery > 60 {
		return cfg, fmt.Errorf("netcode: state-every %d, want 1..60", cfg.StateEvery)
	}
	if cfg.Rounds < 0 || cfg.Rounds > 255 {
		return cfg, fmt.Errorf("netcode: %d rounds to win, want 0..255", cfg.Rounds)
	}
	if cfg.MaxRooms == 0 {
		cfg.MaxRooms = 64
	}
	if cfg.Rooms == 0 {
		cfg.Rooms = 1
	}
	if cfg.Rooms < 0 || cfg.MaxRooms < 1 || cfg.Rooms > cfg.MaxRooms || cfg.MaxRooms > maxRooms {
		return cfg, fmt.Errorf("netcode: %d rooms of at most %d, want 1 ≤ rooms ≤ max ≤ %d", cfg.Rooms, cfg.MaxRooms, maxRooms)
	}
	if cfg.RoomIdle == 0 {
		cfg.RoomIdle = time.Minute
	}
	if cfg.RematchWait == 0 {
		cfg.RematchWait = 15 * time.Second
	}
	if cfg.ResultsFor == 0 {
		cfg.ResultsFor = time.Minute
	}
	if cfg.SpectatorDelay < 0 || cfg.SpectatorDelay > maxSpectatorDelay {
		return cfg, fmt.Errorf("netcode: spectator delay %v, want 0..%v", cfg.SpectatorDelay, maxSpectatorDelay)
	}
	if cfg.MaxSpectators == 0 {
		cfg.MaxSpectators = 16
	}
	if cfg.Idle == 0 {
		cfg.Idle = DefaultIdle
	}
	if cfg.KickHold == 0 {
		cfg.KickHold = DefaultKickHold
	}
	if cfg.MaxRoomsPerAddr == 0 {
		cfg.MaxRoomsPerAddr = 4
	}
	if cfg.MaxBotsPerAddr == 0 {
		cfg.MaxBotsPerAddr = 8
	}
	if cfg.MaxBots == 0 {
		cfg.MaxBots = 128
	}
	if cfg.MaxRoomsPerAddr < 0 {
		return cfg, fmt.Errorf("netcode: %d rooms per address", cfg.MaxRoomsPerAddr)
	}
	cfg.MaxBotsPerAddr, cfg.MaxBots = max(cfg.MaxBotsPerAddr, 0), max(cfg.MaxBots, 0) // negative: none
	if cfg.MaxSeatsPerAddr == 0 {
		cfg.MaxSeatsPerAddr = DefaultSeatsPerAddr
	}
	if cfg.MaxSpectatorsPerAddr == 0 {
		cfg.MaxSpectatorsPerAddr = DefaultSeatsPerAddr
	}
	if cfg.Entropy == nil {
		cfg.Entropy = systemEntropy()
	}
	if cfg.Clock == nil {
		cfg.Clock = wallClock{}
	}
	if cfg.Seed == 0 {
		var b [8]byte
		if _, err := io.ReadFull(cfg.Entropy, b[:]); err != nil {
			return cfg, fmt.Errorf("netcode: entropy: %w", err)
		}
		cfg.Seed = binary.LittleEndian.Uint64(b[:]) | 1
	}
	if cfg.Secret == nil {
		cfg.Secret = make([]byte, 32)
		if _, err := io.ReadFull(cfg.Entropy, cfg.Secret); err != nil {
			return cfg, fmt.Errorf("netcode: entropy: %w", err)
		}
	}
	if cfg.Key == nil {
		var seed [ed25519.SeedSize]byte
		if _, err := io.ReadFull(cfg.Entropy, seed[:]); err != nil {
			return cfg, fmt.Errorf("netcode: entropy: %w", err)
		}
		cfg.Key = ed25519.NewKeyFromSeed(seed[:])
	} else if len(cfg.Key) != ed25519.PrivateKeySize {
		return cfg, fmt.Errorf("netcode: server key of %d bytes, want %d", len(cfg.Key), ed25519.PrivateKeySize)
	}
	return cfg, nil
}
