package cli

import (
	"fmt"
	"net"
	"net/netip"
	"time"

	"github.com/spf13/pflag"

	"ttytanks/game"
	"ttytanks/game/bot"
	"ttytanks/netcode"
	"ttytanks/netcode/transport"
)

// serverFlags are the flags that configure an authoritative server
// (serve's; play sets them itself).
type serverFlags struct {
	addr         string
	trust        []string
	seatsPerAddr int
	players      int
	bots         int
	maze         mazeSize
	stateEvery   int
	rooms        int
	maxRooms     int
	rounds       int
	specDelay    time.Duration
	startWait    time.Duration
	botLevel     bot.Level
	sim          simFlags
	// idle frees a seat without intent after it (0: never); kickHold keeps
	// a kicked player's prefix out; the budgets of rooms opened on demand.
	idle, kickHold                       time.Duration
	roomsPerAddr, botsPerAddr, maxBotsIn int
	// chat relays the players' chat lines.
	chat bool
}

func (f *serverFlags) register(fs *pflag.FlagSet) {
	f.maze = mazeSize{game.DefaultMazeW, game.DefaultMazeH}
	fs.StringVar(&f.addr, "addr", ":7777", "UDP address to listen on")
	fs.IntVar(&f.players, "players", 2, "seats in a new room, bots included (1-8); its match starts when all are taken")
	fs.IntVar(&f.bots, "bots", 0, "seats of a new room the server fills with bots")
	fs.IntVar(&f.rooms, "rooms", 1, "public rooms to open at start and keep open (named a, b, c, …)")
	fs.IntVar(&f.maxRooms, "max-rooms", 64, "most rooms open at once; more open on demand and close when empty for a minute")
	fs.IntVar(&f.rounds, "rounds", 5, "round wins that win the match (0: rounds go on forever)")
	fs.DurationVar(&f.startWait, "start-wait", 5*time.Second, "start a room's match this long after two players are in it, without waiting for every seat (0: only when full)")
	fs.DurationVar(&f.specDelay, "spectator-delay", 2*time.Second, "how far behind the match spectators watch (0-10s)")
	fs.Var(&f.maze, "maze", mazeUsage)
	fs.IntVar(&f.stateEvery, "state-every", 2, "send each player a State every N ticks (1-60): a delta against the newest State it holds when that is shorter, else the whole snapshot; between States, an Ack every second tick (none at 2)")
	fs.StringArrayVar(&f.trust, "trust", nil, "exempt this address range (CIDR, like 192.168.1.0/24) from the per-address limits; its players are rated against each other on the ladder though they share an address; repeatable")
	fs.IntVar(&f.seatsPerAddr, "seats-per-addr", netcode.DefaultSeatsPerAddr, "most seats (and, apart, spectator places) the players of one IP address (an IPv6 /64) may hold")
	fs.DurationVar(&f.idle, "idle", netcode.DefaultIdle, "free a seat whose player has not moved, fired or voted for this long, waiting in a room included (0: never; serve --play: never unless given)")
	fs.DurationVar(&f.kickHold, "kick-hold", netcode.DefaultKickHold, "keep a kicked player's address (an IPv6 /64) from joining for this long")
	fs.IntVar(&f.roomsPerAddr, "rooms-per-addr", 4, "most rooms the players of one address may have open at once (rooms they asked for)")
	fs.IntVar(&f.botsPerAddr, "bots-per-addr", 8, "most bot seats in the rooms one address asked for")
	fs.BoolVar(&f.chat, "chat", true, "relay the players' chat lines to their rooms (--chat=false: no chat; a line's sayer is told so)")
	fs.IntVar(&f.maxBotsIn, "max-bots", 128, "most bots in all the rooms players asked for: past it, and while the ticks run long, no new room opens")
	f.botLevel = bot.Normal
	registerBotLevel(fs, &f.botLevel, "how well the server's bots play")
	f.sim.register(fs)
}

// check returns the first usage error in the flags, or nil.
func (f *serverFlags) check() error {
	if _, err := net.ResolveUDPAddr("udp", f.addr); err != nil {
		return fmt.Errorf("--addr %q is not a UDP address like :7777 or 127.0.0.1:7777", f.addr)
	}
	if f.players < 1 || f.players > game.MaxPlayers {
		return fmt.Errorf("--players must be 1..%d", game.MaxPlayers)
	}
	if f.bots < 0 || f.bots > f.players {
		return fmt.Errorf("--bots must be 0..--players (%d)", f.players)
	}
	if f.stateEvery < 1 || f.stateEvery > 60 {
		return fmt.Errorf("--state-every must be 1..60")
	}
	if f.maxRooms < 1 || f.maxRooms > 1024 {
		return fmt.Errorf("--max-rooms must be 1..1024")
	}
	if f.rooms < 1 || f.rooms > f.maxRooms {
		return fmt.Errorf("--rooms must be 1..--max-rooms (%d)", f.maxRooms)
	}
	if f.rounds < 0 || f.rounds > 255 {
		return fmt.Errorf("--rounds must be 0..255")
	}
	if f.startWait < 0 {
		return fmt.Errorf("--start-wait must not be negative")
	}
	if f.specDelay < 0 || f.specDelay > 10*time.Second {
		return fmt.Errorf("--spectator-delay must be 0s..10s")
	}
	if f.seatsPerAddr < 1 {
		return fmt.Errorf("--seats-per-addr must be at least 1")
	}
	if f.idle < 0 || f.kickHold < 0 {
		return fmt.Errorf("--idle and --kick-hold must not be negative")
	}
	if f.roomsPerAddr < 1 || f.botsPerAddr < 0 || f.maxBotsIn < 0 {
		return fmt.Errorf("--rooms-per-addr must be at least 1, --bots-per-addr and --max-bots at least 0")
	}
	for _, c := range f.trust {
		if _, err := netip.ParsePrefix(c); err != nil {
			return fmt.Errorf("--trust %q is not an address range like 192.168.1.0/24", c)
		}
	}
	if (f.maze.w/2)*(f.maze.h/2) < f.players*2 {
		return fmt.Errorf("--maze %s is too small for %d players", f.maze.String(), f.players)
	}
	return f.sim.check()
}

// config is the server's configuration the flags describe.
func (f *serverFlags) config() netcode.ServerConfig {
	cfg := netcode.ServerConfig{Players: f.players, Bots: f.bots, MazeW: f.maze.w, MazeH: f.maze.h,
		StateEvery: f.stateEvery, NewBot: newBot(f.botLevel), MaxSeatsPerAddr: f.seatsPerAddr,
		MaxSpectatorsPerAddr: f.seatsPerAddr, Rooms: f.rooms, MaxRooms: f.maxRooms, Rounds: f.rounds,
		SpectatorDelay: f.specDelay, StartWait: f.startWait, Idle: -1, KickHold: f.kickHold,
		MaxRoomsPerAddr: f.roomsPerAddr, MaxBotsPerAddr: f.botsPerAddr, MaxBots: f.maxBotsIn, NoChat: !f.chat}
	if f.idle > 0 {
		cfg.Idle = f.idle
	}
	if f.botsPerAddr == 0 {
		cfg.MaxBotsPerAddr = -1
	}
	if f.maxBotsIn == 0 {
		cfg.MaxBots = -1
	}
	for _, c := range f.trust {
		cfg.Trusted = append(cfg.Trusted, netip.MustParsePrefix(c)) // checked by check
	}
	return cfg
}

// newBot makes the server's bots, at level l.
func newBot(l bot.Level) func(slot int, seed uint64) netcode.InputSource {
	return func(slot int, seed uint64) netcode.InputSource { return bot.NewLevel(seed, l) }
}

// listen opens the server's socket, with the simulator around it if asked.
func (f *serverFlags) listen() (transport.Transport, *transport.UDP, error) {
	u, err := transport.ListenUDP(f.addr)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot listen on %s: %w", f.addr, err)
	}
	return f.sim.wrap(u), u, nil
}
