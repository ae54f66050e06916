package netcode

import (
	"fmt"
	"log/slog"
	"net/netip"
	"runtime/debug"
	"time"

	"ttytanks/game"
	"ttytanks/netcode/transport"
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

// Server is the authoritative game server core: a host of rooms, each
// one match. It does no IO and reads no clock: Receive takes a datagram,
// Tick steps one tick of every room, Advance runs the ticks due by a time;
// each returns the datagrams to send (valid until the next call), and
// Deadline says when Advance must next be called. It is a composition of
// parts, each in its own files (doc.go has the map): admission (cookies,
// rate limits, tokens, bans), the connection table (key exchange,
// opening and sealing, moves and path checks), the room table
// (placement, the room list), and the rooms, each with its seat table,
// input buffers and match. Not safe for concurrent use; the driver
// serialises calls.
type Server struct {
	cfg   ServerConfig
	rules roomRules
	// defaults are the settings of the rooms the server opens on its
	// own; host is what its rooms see of it.
	defaults roomConfig
	host     *roomHost
	log      *slog.Logger
	rng      game.RNG
	adm      admission
	conns    connTable
	rooms    roomTable
	clk      serverClock
	tl       tally
	drain    drainState
	ticks    tickHistogram // the driver's tick durations, bucketed
	next     time.Time     // Advance's schedule: the next tick's time
	out      outbox
	desk     clearDesk  // the clear datagrams' answers
	fleet    fleetDesk  // the fleet's other servers, where Requests are redirected
	ladder   ladderDesk // the ladder's jobs out, the names being claimed
	drops    [numDropReasons]uint64
	// traffic counts what Receive saw.
	traffic traffic
	// busy watches the ticks' durations and the clock's slips.
	busy load
	// gone holds the figures of the last players who left.
	gone []PlayerStats
	// stepBuf holds the rooms of one tick, so a room that closes while
	// they step does not disturb the iteration; idleBuf the rooms to
	// close.
	stepBuf, idleBuf []*room
}

// traffic counts the datagrams Receive saw: every one is accepted or
// dropped with a reason.
type traffic struct {
	bytesIn, datagramsIn uint64
	accepted, dropped    uint64
}

// NewServer returns a server with its first rooms open.
func NewServer(cfg ServerConfig) (*Server, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{cfg: cfg, log: log, rng: game.RNG{State: cfg.Seed}, adm: newAdmission(cfg.Secret, cfg.Entropy, cfg.Trusted, cfg.Origin),
		rooms: newRoomTable(), clk: serverClock{tick: cfg.StartTick}, busy: newLoad(log), conns: newConnTable(cfg.Key),
		rules: roomRules{newBot: cfg.NewBot, maxSpectators: cfg.MaxSpectators, idle: cfg.Idle, spectatorDelay: cfg.SpectatorDelay,
			startWait: cfg.StartWait, rematchWait: cfg.RematchWait, resultsFor: cfg.ResultsFor, chat: !cfg.NoChat}}
	s.defaults = roomConfig{Players: cfg.Players, Bots: cfg.Bots, MazeW: cfg.MazeW, MazeH: cfg.MazeH,
		StateEvery: cfg.StateEvery, Rounds: cfg.Rounds, Ranked: cfg.Ladder && cfg.Bots == 0}
	s.out = newOutbox(64<<10, s.conns.seal)
	s.ladder = newLadderDesk(cfg.Ladder)
	s.host = &roomHost{out: &s.out, clk: &s.clk, tl: &s.tl, adm: &s.adm, rooms: &s.rooms, gone: &s.gone, drops: s.drop, log: log,
		drain: &s.drain, chat: newChatGuard(), record: s.recordMatch}
	s.desk = clearDesk{adm: &s.adm, conns: &s.conns, rooms: &s.rooms, fleet: &s.fleet, out: &s.out, tl: &s.tl, drop: s.drop}
	for i := 0; i < cfg.Rooms; i++ {
		s.openRoom(roomName(i), s.defaults, false, true, netip.Addr{}, time.Time{})
	}
	return s, nil
}

// openRoom opens a room and its lobby: a permanent one never closes for
// idleness and reopens after a fault. The caller has checked the name is
// free and there is space.
func (s *Server) openRoom(name string, cfg roomConfig, private, permanent bool, owner netip.Addr, now time.Time) *room {
	code := ""
	if private {
		code = s.rooms.newCode(s.adm.random)
	}
	var rec Recorder
	if s.cfg.NewRecorder != nil {
		rec = s.cfg.NewRecorder(name)
	}
	r := newRoom(s.host, s.rules, roomSpec{name: name, code: code, cfg: cfg, permanent: permanent, rec: rec, owner: owner}, s.rng.Next()|1, now)
	s.rooms.add(r)
	r.openLobby()
	return r
}

// Match returns the match ID of the first room.
func (s *Server) Match() uint32 {
	if r := s.rooms.first(); r != nil {
		return r.game().matchID()
	}
	return 0
}

// Running reports whether the first room's match has begun: counting
// down to its first tick or being played.
func (s *Server) Running() bool {
	r := s.rooms.first()
	return r != nil && r.game().live()
}

// World returns the authoritative world of the first room's match, or nil
// in its lobby. It must not be modified.
func (s *Server) World() *game.World {
	if r := s.rooms.first(); r != nil {
		return r.game().current()
	}
	return nil
}

// RoomMatch returns the match ID of the named room (0: no such room).
func (s *Server) RoomMatch(name string) uint32 {
	if r := s.rooms.byName(name); r != nil {
		return r.game().matchID()
	}
	return 0
}

// Receive handles one datagram from addr.
func (s *Server) Receive(now time.Time, from netip.AddrPort, b []byte) []transport.Datagram {
	s.out.reset()
	s.traffic.datagramsIn++
	s.traffic.bytesIn += uint64(len(b))
	dropped := s.traffic.dropped
	if !s.guard(func() { s.receive(now, from, b) }) {
		s.drop(DropFault)
	} else if s.traffic.dropped == dropped {
		s.traffic.accepted++
	}
	return s.out.datagrams()
}

// receive parses the front of a datagram once: a sealed one goes to its
// connection (sealed.go), a clear one is a handshake or room list request
// (handshake.go).
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
		s.desk.onBadHeader(now, from, b, err)
		return
	}
	s.desk.onClear(now, from, h, b[proto.HeaderLen:])
}

// Tick runs one server tick at now in every room: expiry of silent peers,
// Start resends, and in a running match one step (one input per seat: the
// player's, the last one held for at most HoldTicks, or neutral) and each
// peer's Ack, or State every StateEvery ticks. It never runs extra steps
// to catch anyone up.
func (s *Server) Tick(now time.Time) []transport.Datagram {
	s.out.reset()
	s.tick(now)
	return s.out.datagrams()
}

// Advance runs every tick due by now on the server's own 60 Hz schedule,
// which starts at the first call: normally one, a few in a row after a
// stall, and beyond MaxCatchUpTicks the schedule restarts from now. It
// returns the datagrams of all of them.
func (s *Server) Advance(now time.Time) []transport.Datagram {
	s.out.reset()
	if s.next.IsZero() {
		s.next = now
	}
	for n := 0; !now.Before(s.next); n++ {
		if n == MaxCatchUpTicks {
			// Far behind (a stall, an overload): the schedule restarts
			// from now, and the ticks it skips are counted and logged.
			s.busy.slipped(int(now.Sub(s.next) / TickDuration))
			s.next = now
			break
		}
		s.tick(s.next) // the scheduled time: input deadlines follow the schedule
		s.next = s.next.Add(TickDuration)
	}
	s.ladder.sweep(now)
	return s.out.datagrams()
}

// Deadline returns when Advance must next be called: the next scheduled
// tick (the zero time before the first call).
func (s *Server) Deadline() time.Time { return s.next }

// tick steps every room, each in its own guard: a fault in one ends that
// room alone.
func (s *Server) tick(now time.Time) {
	s.clk.begin(now)
	s.stepBuf = s.rooms.appendAll(s.stepBuf[:0])
	for _, r := range s.stepBuf {
		began := s.cfg.Clock.Now()
		if s.inRoom(r, func() { r.step(now) }) {
			r.stepped(s.cfg.Clock.Now().Sub(began))
		}
	}
	clear(s.stepBuf)
	s.guard(func() { s.closeIdle(now) })
	if s.clk.every(connSweepEvery) {
		s.conns.sweep(now, s.rooms.holds)
	}
	s.clk.end()
}

// closeIdle closes the rooms opened on demand that have had no network
// peer for RoomIdle.
func (s *Server) closeIdle(now time.Time) {
	s.idleBuf = s.rooms.idle(now, s.cfg.RoomIdle, s.idleBuf[:0])
	for _, r := range s.idleBuf {
		name := r.opened().name
		s.inRoom(r, r.sendOffWatchers)
		s.rooms.remove(r) // first: it unroutes the match id the close clears
		if err := r.close(); err != nil {
			s.log.Error("closing a room's recorder", "room", name, "err", err)
		}
		s.log.Info("room closed", "room", name)
	}
	clear(s.idleBuf)
}

// guard runs f and recovers a panic in it outside any room: the stack
// goes to the log and the server goes on. It reports whether f returned
// normally.
func (s *Server) guard(f func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			s.tl.fault()
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

// fault ends r after a panic in it: the stack goes to the log, every peer
// gets a Leave saying "server error", and the room closes; a permanent
// room reopens empty under its name.
func (s *Server) fault(r *room, p any, stack []byte) {
	s.tl.fault()
	name := r.opened().name
	s.log.Error("room stopped after a server error", "room", name, "match", r.game().matchID(), "panic", fmt.Sprint(p), "stack", string(stack))
	// Whatever the failed step produced for this room is not to be
	// trusted; what it produced for other rooms is already out of the
	// way only if it came first, so the Leaves go out on top.
	r.abort()
	s.rooms.remove(r) // first: it unroutes the match id the close clears
	func() {
		defer func() { _ = recover() }()
		if err := r.close(); err != nil {
			s.log.Error("closing a room's recorder", "room", name, "err", err)
		}
	}()
	if o := r.opened(); o.permanent && !o.lobby {
		// Should opening fail too, the server stays up with one room
		// fewer rather than fault again.
		func() {
			defer func() {
				if p := recover(); p != nil {
					s.log.Error("room failed to reopen after a server error", "room", name, "panic", fmt.Sprint(p))
				}
			}()
			s.openRoom(name, o.cfg, o.private(), true, netip.Addr{}, time.Time{})
		}()
	}
}

// Kick ends the session of the player in slot of the named room with a
// Leave saying so and frees the seat; the player's prefix (the address
// its place counts against: an IPv4 address, an IPv6 /64, an SSH
// player's client's) takes no place for KickHold from now. It returns
// the Leave to send (none if no network player held the seat).
func (s *Server) Kick(now time.Time, roomName string, slot int) []transport.Datagram {
	s.out.reset()
	if r := s.rooms.byName(roomName); r != nil {
		s.inRoom(r, func() {
			if origin, ok := r.kick(slot); ok {
				s.adm.hold(origin, now.Add(s.cfg.KickHold))
			}
		})
	}
	return s.out.datagrams()
}

// Mute mutes (on) or unmutes the player in slot of the named room: its
// chat lines reach nobody (the player is told so when it speaks). It
// reports false when no network player holds that seat.
func (s *Server) Mute(roomName string, slot int, on bool) bool {
	ok := false
	var origin netip.Addr
	if r := s.rooms.byName(roomName); r != nil {
		s.inRoom(r, func() { origin, ok = r.mute(slot, on) })
	}
	if ok && origin.IsValid() {
		// The player's prefix too: another place (a spectator's, the
		// lobby's, the seat taken again) does not shed the mute.
		s.host.chat.mute(origin, on)
	}
	return ok
}

// Ban refuses every Hello and Join from addr's prefix (an IPv4 address,
// an IPv6 /64) for the server's life, and from the SSH players whose
// origin is in it (ServerConfig.Origin), and kicks the players and
// spectators of every room whose address or origin is in it; it returns
// their Leaves to send.
func (s *Server) Ban(addr netip.Addr) []transport.Datagram {
	s.out.reset()
	key := limitKey(addr)
	s.adm.ban(key)
	s.log.Info("address banned", "prefix", key.String())
	s.rooms.each(func(r *room) {
		s.inRoom(r, func() { r.ban(key) })
	})
	return s.out.datagrams()
}

// Shutdown returns a Leave for every network peer, for a clean exit.
func (s *Server) Shutdown() []transport.Datagram {
	s.out.reset()
	s.rooms.each(func(r *room) { r.shutdown() })
	return s.out.datagrams()
}

// drop counts a dropped datagram.
func (s *Server) drop(r DropReason) {
	s.drops[r]++
	s.traffic.dropped++
}

// ObserveTickDuration records how long the driver's last Tick took.
func (s *Server) ObserveTickDuration(d time.Duration) {
	s.busy.observe(d)
	s.ticks.observe(d)
}
