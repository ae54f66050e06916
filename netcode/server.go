package netcode

import (
	"crypto/ed25519"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/netip"
	"runtime/debug"
	"time"

	"ttytanks/game"
	"ttytanks/proto"
)

// Silence thresholds for network peers: after LostAfter without a
// datagram a player shows as "connection lost" to everyone (its tank idles
// on neutral input); after FreeAfter its seat is freed.
const (
	LostAfter = 3 * time.Second
	FreeAfter = 20 * time.Second
)

// HoldTicks is how many ticks the server repeats a player's last input when
// the input for a tick is missing; after that it uses the neutral input.
const HoldTicks = 6

// MaxInputAhead is how far ahead of the server's tick an input may be; an
// Input datagram whose newest tick is further ahead is dropped.
const MaxInputAhead = 120

// startResendTicks is how often Start is resent: while a match fills, and
// to each player until its first Input shows the Start arrived (UDP may
// lose it); countdownResendTicks is the faster rate while a match counts
// down to its first tick, when a late Start costs inputs.
const (
	startResendTicks     = 15
	countdownResendTicks = 5
)

// Match start lead: when the last seat is taken, the server announces a
// start tick this far ahead of its clock, so that Start reaches every
// player and their first inputs come back before the first step: the
// slowest player's handshake round trip plus startLeadMargin, within
// [startLeadMin, startLeadMax] ticks.
const (
	startLeadMin    = 6
	startLeadMargin = 6
	startLeadMax    = 90
)

// InputSource decides a player's input from the world; bots implement it
// (game/bot.Bot does).
type InputSource interface {
	Input(s *game.Snapshot, m *game.Maze, slot int) game.Input
}

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
	// StateEvery sends a State every so many ticks (default 2) and an Ack
	// on the others.
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
	// results stay up when nobody votes (default 60 s). Then the players
	// who did not vote go back to the lobby.
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
	// Trusted lists address ranges exempt from the per-address caps and
	// the handshake rate limit: a LAN party behind one NAT, a load test
	// from one machine.
	Trusted []netip.Prefix
}

// DefaultSeatsPerAddr is the default of the per-address caps: a household
// behind one NAT.
const DefaultSeatsPerAddr = 4

// Server is the authoritative game server core: a host of rooms, each
// one match. It does no IO and reads no clock: Receive takes a datagram,
// Tick steps one tick of every room, Advance runs the ticks due by a time;
// each returns the datagrams to send (valid until the next call), and
// Deadline says when Advance must next be called. It is a composition of
// parts, each in its own file: admission (cookies, rate limits, tokens),
// the rooms (placement, the room list), and in each room the seat table
// (the seat state machine), one input buffer per seat, and the match
// (world, schedule, step, broadcast). Not safe for concurrent use; the
// driver serialises calls.
type Server struct {
	cfg    ServerConfig
	log    *slog.Logger
	rng    game.RNG
	adm    admission
	sec    secure
	rooms  roomTable
	clock  game.Tick // the tick the server steps next
	tickAt time.Time // when that step is due
	next   time.Time // Advance's schedule: the next tick's time
	ticks  uint64    // Tick calls, for resend timers
	out    outbox
	drops  [numDropReasons]uint64
	stats  serverCounters
	// tickDur holds the driver's tick durations.
	tickDur *window
	// departed holds the figures of the last players who left.
	departed []PlayerStats
	rotBuf   []*seat
	// stepBuf holds the rooms of one tick, so a room that closes while
	// they step does not disturb the iteration.
	stepBuf []*room
}

type serverCounters struct {
	real, held, neutral  uint64
	bytesIn, datagramsIn uint64
	accepted, dropped    uint64
	reconnects, timeouts uint64
	faults               uint64
}

// NewServer returns a server with its first rooms open.
func NewServer(cfg ServerConfig) (*Server, error) {
	if cfg.Players < 1 || cfg.Players > game.MaxPlayers {
		return nil, fmt.Errorf("netcode: %d players, want 1..%d", cfg.Players, game.MaxPlayers)
	}
	if cfg.Bots < 0 || cfg.Bots > cfg.Players {
		return nil, fmt.Errorf("netcode: %d bots for %d seats", cfg.Bots, cfg.Players)
	}
	if cfg.NewBot == nil {
		if cfg.Bots > 0 {
			return nil, errors.New("netcode: bots requested without a bot policy")
		}
	}
	if cfg.MazeW == 0 && cfg.MazeH == 0 {
		cfg.MazeW, cfg.MazeH = game.DefaultMazeW, game.DefaultMazeH
	}
	if _, err := game.NewWorld(game.Config{Slots: cfg.Players, MazeW: cfg.MazeW, MazeH: cfg.MazeH}); err != nil {
		return nil, err
	}
	if cfg.StateEvery == 0 {
		cfg.StateEvery = 2
	}
	if cfg.StateEvery < 1 || cfg.StateEvery > 60 {
		return nil, fmt.Errorf("netcode: state-every %d, want 1..60", cfg.StateEvery)
	}
	if cfg.Rounds < 0 || cfg.Rounds > 255 {
		return nil, fmt.Errorf("netcode: %d rounds to win, want 0..255", cfg.Rounds)
	}
	if cfg.MaxRooms == 0 {
		cfg.MaxRooms = 64
	}
	if cfg.Rooms == 0 {
		cfg.Rooms = 1
	}
	if cfg.Rooms < 0 || cfg.MaxRooms < 1 || cfg.Rooms > cfg.MaxRooms || cfg.MaxRooms > maxRooms {
		return nil, fmt.Errorf("netcode: %d rooms of at most %d, want 1 ≤ rooms ≤ max ≤ %d", cfg.Rooms, cfg.MaxRooms, maxRooms)
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
		return nil, fmt.Errorf("netcode: spectator delay %v, want 0..%v", cfg.SpectatorDelay, maxSpectatorDelay)
	}
	if cfg.MaxSpectators == 0 {
		cfg.MaxSpectators = 16
	}
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
			return nil, fmt.Errorf("netcode: entropy: %w", err)
		}
		cfg.Seed = binary.LittleEndian.Uint64(b[:]) | 1
	}
	if cfg.Secret == nil {
		cfg.Secret = make([]byte, 32)
		if _, err := io.ReadFull(cfg.Entropy, cfg.Secret); err != nil {
			return nil, fmt.Errorf("netcode: entropy: %w", err)
		}
	}
	if cfg.Key == nil {
		var seed [ed25519.SeedSize]byte
		if _, err := io.ReadFull(cfg.Entropy, seed[:]); err != nil {
			return nil, fmt.Errorf("netcode: entropy: %w", err)
		}
		cfg.Key = ed25519.NewKeyFromSeed(seed[:])
	} else if len(cfg.Key) != ed25519.PrivateKeySize {
		return nil, fmt.Errorf("netcode: server key of %d bytes, want %d", len(cfg.Key), ed25519.PrivateKeySize)
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{cfg: cfg, log: log, rng: game.RNG{State: cfg.Seed}, adm: newAdmission(cfg.Secret, cfg.Entropy, cfg.Trusted),
		rooms: newRoomTable(), clock: cfg.StartTick, tickDur: newWindow(600), sec: newSecure(cfg.Key)}
	s.out = newOutbox(64 << 10)
	s.out.sealWith(s.sealOut)
	for i := 0; i < cfg.Rooms; i++ {
		r := s.openRoom(roomName(i), s.defaultRoom(), false, time.Time{})
		r.permanent = true
	}
	return s, nil
}

// defaultRoom returns the settings of a room the server opens on its own.
func (s *Server) defaultRoom() roomConfig {
	return roomConfig{Players: s.cfg.Players, Bots: s.cfg.Bots, MazeW: s.cfg.MazeW, MazeH: s.cfg.MazeH,
		StateEvery: s.cfg.StateEvery, Rounds: s.cfg.Rounds}
}

// Match returns the match ID of the first room.
func (s *Server) Match() uint32 {
	if r := s.rooms.first(); r != nil {
		return r.match.matchID()
	}
	return 0
}

// Running reports whether the first room's match has begun: counting
// down to its first tick or being played.
func (s *Server) Running() bool {
	r := s.rooms.first()
	return r != nil && r.match.live()
}

// World returns the authoritative world of the first room's match, or nil
// in its lobby. It must not be modified.
func (s *Server) World() *game.World {
	if r := s.rooms.first(); r != nil {
		return r.match.current()
	}
	return nil
}

// RoomWorld returns the authoritative world of the named room's match
// (nil: no such room, or it waits for players). It must not be modified.
func (s *Server) RoomWorld(name string) *game.World {
	if r := s.rooms.byName(name); r != nil {
		return r.match.current()
	}
	return nil
}

// RoomMatch returns the match ID of the named room (0: no such room).
func (s *Server) RoomMatch(name string) uint32 {
	if r := s.rooms.byName(name); r != nil {
		return r.match.matchID()
	}
	return 0
}

// Receive handles one datagram from addr.
func (s *Server) Receive(now time.Time, from netip.AddrPort, b []byte) []Datagram {
	s.out.reset()
	s.stats.datagramsIn++
	s.stats.bytesIn += uint64(len(b))
	dropped := s.stats.dropped
	if !s.guard(func() { s.receive(now, from, b) }) {
		s.drop(DropFault)
	} else if s.stats.dropped == dropped {
		s.stats.accepted++
	}
	return s.out.datagrams()
}

func (s *Server) receive(now time.Time, from netip.AddrPort, b []byte) {
	if sh, ok := proto.ParseSealedHeader(b); ok {
		if len(b) > proto.MaxDatagram {
			s.drop(DropOversize)
			return
		}
		s.onSealed(now, from, sh, b)
		return
	}
	h, err := proto.ParseHeader(b)
	if err != nil {
		s.drop(dropReasonFor(err))
		if errors.Is(err, proto.ErrVersion) && len(b) >= proto.HeaderLen+1 && s.adm.allow(from, now) {
			// Tell the client, within the size it sent (no amplification).
			s.rejectClear(from, sessionOf(b), proto.RejectVersion)
		}
		return
	}
	if h.Session == 0 {
		s.drop(DropMalformed) // session ids are never zero
		return
	}
	switch h.Type {
	case proto.TypeHello, proto.TypeJoin, proto.TypeListRooms:
		if s.adm.isBanned(from.Addr()) {
			s.drop(DropBanned)
			return
		}
		// Unauthenticated requests: rate-limited per source before any
		// crypto work, in a table of fixed size.
		if !s.adm.allow(from, now) {
			s.drop(DropRateLimited)
			return
		}
		switch h.Type {
		case proto.TypeHello:
			s.onHello(now, from, h, b)
		case proto.TypeJoin:
			s.onJoin(now, from, h, b)
		default:
			s.onListRooms(now, from, h, b)
		}
	default:
		if h.Type.Sealed() {
			s.drop(DropClear) // a session's packet must come sealed
			return
		}
		s.drop(DropUnexpected)
	}
}

// sessionOf reads the session field of a header that failed to parse for
// its version, so a Reject can name it.
func sessionOf(b []byte) uint64 {
	if len(b) < 12 {
		return 0
	}
	return binary.BigEndian.Uint64(b[4:12])
}

func (s *Server) onHello(now time.Time, from netip.AddrPort, h proto.Header, b []byte) {
	if _, err := proto.ParseHelloBody(h, b); err != nil {
		s.drop(dropReasonFor(err))
		return
	}
	s.out.put(from, &proto.Challenge{Header: proto.Header{Session: h.Session}, Cookie: s.adm.cookie(from, h.Session, now)})
}

// admit places the session of a Request that came on a connection
// (session is its id, from its address, rtt its handshake's round trip,
// key its resume key): a repeated Request gets the same answer again, a
// reconnect takes its place back, a newcomer gets a place or a Reject.
func (s *Server) admit(now time.Time, from netip.AddrPort, session uint64, rtt time.Duration, key [proto.KeyLen]byte, j *proto.Request) {
	// A repeated Request (our Start was lost) gets the same answer again.
	if r, st, sp := s.rooms.bySession(from, session); r != nil {
		s.inRoom(r, func() { s.rejoin(r, st, sp, now) })
		return
	}
	// A reconnect: the token of a place we still hold, from a connection
	// that proved (onRequest) it holds the session the token was issued
	// to. It takes the place over, score and all.
	if j.Token != (proto.Token{}) {
		if r, st, sp := s.rooms.byToken(&j.Token, j.Spectate, now); r != nil {
			s.inRoom(r, func() { s.resume(r, st, sp, from, session, rtt, key, now) })
			return
		}
	}
	// A new session from the very address and port of a peer we hold:
	// that peer's socket is gone (a port is one socket's at a time), so
	// its place is freed for the newcomer.
	s.supersede(from, session, now)
	if !s.adm.isTrusted(from.Addr()) {
		seats, specs := s.rooms.countFrom(s.origin(from), s.origin)
		if (j.Spectate && specs >= s.cfg.MaxSpectatorsPerAddr) || (!j.Spectate && seats >= s.cfg.MaxSeatsPerAddr) {
			s.drop(DropAddrLimit)
			s.reject(from, session, proto.RejectAddrLimit)
			return
		}
	}
	r, why := s.place(j, from, now)
	if r == nil {
		s.reject(from, session, why)
		return
	}
	l := link{addr: from, session: session, name: proto.SanitizeName(j.Name), heard: now, rtt: rtt, resume: key, origin: s.origin(from)}
	s.inRoom(r, func() { s.seat(r, l, j.Spectate, now) })
}

// origin returns the address whose per-address limits a peer at addr
// counts against (limitKey of its IP, or of its SSH client's).
func (s *Server) origin(addr netip.AddrPort) netip.Addr {
	ip := addr.Addr().Unmap()
	if s.cfg.Origin != nil && MemPrefix.Contains(ip) {
		if o, ok := s.cfg.Origin(addr); ok {
			return limitKey(o)
		}
	}
	return limitKey(ip)
}

// supersede frees the places held at exactly from by other sessions than
// session, in every room.
func (s *Server) supersede(from netip.AddrPort, session uint64, now time.Time) {
	s.rooms.each(func(r *room) {
		s.inRoom(r, func() { s.supersedeIn(r, from, session, now) })
	})
}

// reject answers a session's Request with a (sealed) Reject.
func (s *Server) reject(to netip.AddrPort, session uint64, r proto.RejectReason) {
	s.out.put(to, &proto.Reject{Header: proto.Header{Session: session}, Reason: r})
}

// rejectClear answers a Join, a ListRooms, or a datagram of another
// version, with a Reject in the clear: there is no connection to seal it
// for.
func (s *Server) rejectClear(to netip.AddrPort, session uint64, r proto.RejectReason) {
	s.out.putClear(to, &proto.Reject{Header: proto.Header{Session: session}, Reason: r})
}

func (s *Server) onInput(now time.Time, from netip.AddrPort, h proto.Header, b []byte) {
	in, err := proto.ParseInputBody(h, b)
	if err != nil {
		s.drop(dropReasonFor(err))
		return
	}
	// The match id routes the datagram to its room: one map lookup.
	r := s.rooms.byMatch(in.Match)
	if r == nil {
		s.drop(DropWrongMatch)
		return
	}
	s.inRoom(r, func() { s.input(r, now, from, &in) })
}

func (s *Server) onLeave(now time.Time, from netip.AddrPort, h proto.Header, b []byte) {
	l, err := proto.ParseLeaveBody(h, b)
	if err != nil {
		s.drop(dropReasonFor(err))
		return
	}
	if l.Reason != proto.LeaveQuit {
		s.drop(DropUnexpected) // a client only ever quits
		return
	}
	if r := s.rooms.byMatch(l.Match); r != nil {
		handled := false
		s.inRoom(r, func() { handled = s.leave(r, now, from, &l) })
		if handled {
			return
		}
	}
	// The acknowledgement of an earlier Leave was lost: say it again
	// (the same size as the Leave: no amplification).
	d, ok := s.adm.leftRecently(from, l.Session, now)
	if !ok || d.match != l.Match || d.player != l.Player {
		s.drop(DropUnknownPlayer)
		return
	}
	s.out.put(from, &proto.Leave{Header: proto.Header{Session: l.Session, Match: d.match, Player: d.player}, Reason: proto.LeaveQuit})
}

// Tick runs one server tick at now in every room: expiry of silent peers,
// Start resends, and in a running match one step (one input per seat: the
// player's, the last one held for at most HoldTicks, or neutral) and each
// peer's Ack, or State every StateEvery ticks. It never runs extra steps
// to catch anyone up.
func (s *Server) Tick(now time.Time) []Datagram {
	s.out.reset()
	s.tick(now)
	return s.out.datagrams()
}

// Advance runs every tick due by now on the server's own 60 Hz schedule,
// which starts at the first call: normally one, a few in a row after a
// stall, and beyond MaxCatchUpTicks the schedule restarts from now. It
// returns the datagrams of all of them.
func (s *Server) Advance(now time.Time) []Datagram {
	s.out.reset()
	if s.next.IsZero() {
		s.next = now
	}
	for n := 0; !now.Before(s.next); n++ {
		if n == MaxCatchUpTicks {
			s.next = now
			break
		}
		s.tick(s.next) // the scheduled time: input deadlines follow the schedule
		s.next = s.next.Add(TickDuration)
	}
	return s.out.datagrams()
}

// Deadline returns when Advance must next be called: the next scheduled
// tick (the zero time before the first call).
func (s *Server) Deadline() time.Time { return s.next }

// tick steps every room, each in its own guard: a fault in one ends that
// room alone.
func (s *Server) tick(now time.Time) {
	s.tickAt = now.Add(TickDuration)
	s.ticks++
	s.stepBuf = s.rooms.appendAll(s.stepBuf[:0])
	for _, r := range s.stepBuf {
		began := s.cfg.Clock.Now()
		if s.inRoom(r, func() { s.step(r, now) }) {
			r.stepDur.add(float64(s.cfg.Clock.Now().Sub(began)))
		}
	}
	clear(s.stepBuf)
	s.guard(func() { s.closeIdle(now) })
	if s.ticks%connSweepEvery == 0 {
		s.sweepConns(now)
	}
	s.clock++
}

// guard runs f and recovers a panic in it outside any room: the stack
// goes to the log and the server goes on. It reports whether f returned
// normally.
func (s *Server) guard(f func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			s.stats.faults++
			s.log.Error("server error", "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			ok = false
		}
	}()
	f()
	return true
}

// inRoom runs f, and recovers a panic in it at the room's boundary: the
// stack goes to the log, every peer of the room gets a Leave saying
// "server error", and the room closes (a room the server keeps open
// reopens empty). The server and the other rooms go on. It reports
// whether f returned normally.
func (s *Server) inRoom(r *room, f func()) (ok bool) {
	defer func() {
		if p := recover(); p != nil {
			s.fault(r, p, debug.Stack())
			ok = false
		}
	}()
	f()
	return true
}

// Kick ends the session of the player in slot of the named room with a
// Leave saying so and frees the seat; it returns the Leave to send (none
// if no network player held the seat).
func (s *Server) Kick(roomName string, slot int) []Datagram {
	s.out.reset()
	if r := s.rooms.byName(roomName); r != nil {
		s.inRoom(r, func() { s.kick(r, slot) })
	}
	return s.out.datagrams()
}

// Ban refuses every Hello and Join from addr for the server's life and
// kicks its players and spectators in every room; it returns their
// Leaves to send.
func (s *Server) Ban(addr netip.Addr) []Datagram {
	s.out.reset()
	addr = addr.Unmap()
	s.adm.ban(addr)
	s.rooms.each(func(r *room) {
		s.inRoom(r, func() { s.banIn(r, addr) })
	})
	return s.out.datagrams()
}

// Shutdown returns a Leave for every network peer, for a clean exit.
func (s *Server) Shutdown() []Datagram {
	s.out.reset()
	s.rooms.each(func(r *room) {
		r.seats.each(func(l *link, slot int) { s.sayLeave(r, l, slot, proto.LeaveShutdown) })
	})
	return s.out.datagrams()
}

// ObserveTickDuration records how long the driver's last Tick took.
func (s *Server) ObserveTickDuration(d time.Duration) { s.tickDur.add(float64(d)) }

func (s *Server) drop(r DropReason) {
	s.drops[r]++
	s.stats.dropped++
}
