package netcode

import (
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

// ServerConfig configures a Server.
type ServerConfig struct {
	// Players is the number of seats; a match starts when all are taken
	// (bots included). 1..game.MaxPlayers.
	Players int
	// Bots fills the last Bots seats with server-side bots made by NewBot.
	Bots   int
	NewBot func(slot int, seed uint64) InputSource
	// MazeW, MazeH is the maze size (0: the default).
	MazeW, MazeH int
	// StateEvery sends a State every so many ticks (default 2) and an Ack
	// on the others.
	StateEvery int
	// Seed seeds the worlds and match IDs; 0 draws one from Entropy.
	Seed uint64
	// Secret keys the handshake cookies; nil draws one from Entropy.
	Secret []byte
	// StartTick is the server clock's first tick.
	StartTick game.Tick
	// MaxSpectators bounds spectator sessions (default 16).
	MaxSpectators int
	// Entropy supplies the random bytes of seeds, secrets and reconnect
	// tokens (nil: crypto/rand).
	Entropy io.Reader
	// Logger receives the reports of faults (nil: discarded).
	Logger *slog.Logger
	// Recorder, if set, is told every match's start, inputs, hashes and
	// seat changes (see Recorder).
	Recorder Recorder
	// MaxSeatsPerAddr bounds the seats the peers of one source IP may hold
	// (default DefaultSeatsPerAddr), MaxSpectatorsPerAddr their spectator
	// places (default the same), so one address cannot shut others out.
	// Loopback is not exempt; Trusted ranges and the in-memory SSH players
	// (MemPrefix, admitted by the SSH front end) are.
	MaxSeatsPerAddr, MaxSpectatorsPerAddr int
	// Trusted lists address ranges exempt from the per-address caps and
	// the handshake rate limit: a LAN party behind one NAT, a load test
	// from one machine.
	Trusted []netip.Prefix
}

// DefaultSeatsPerAddr is the default of the per-address caps: a household
// behind one NAT.
const DefaultSeatsPerAddr = 4

// Server is the authoritative game server core. It does no IO and reads
// no clock: Receive takes a datagram, Tick steps one tick, Advance runs the
// ticks due by a time; each returns the datagrams to send (valid until the
// next call), and Deadline says when Advance must next be called. It is a
// composition of parts, each in its own file: admission (cookies, rate
// limits, tokens), the seat table (the seat state machine), one input
// buffer per seat, and the match (world, schedule, step, broadcast).
// Not safe for concurrent use; the driver serialises calls.
type Server struct {
	cfg    ServerConfig
	log    *slog.Logger
	rng    game.RNG
	adm    admission
	seats  seatTable
	match  match
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
}

type serverCounters struct {
	real, held, neutral  uint64
	bytesIn, datagramsIn uint64
	accepted, dropped    uint64
	reconnects, timeouts uint64
	faults               uint64
}

// NewServer returns a server waiting for players.
func NewServer(cfg ServerConfig) (*Server, error) {
	if cfg.Players < 1 || cfg.Players > game.MaxPlayers {
		return nil, fmt.Errorf("netcode: %d players, want 1..%d", cfg.Players, game.MaxPlayers)
	}
	if cfg.Bots < 0 || cfg.Bots > cfg.Players {
		return nil, fmt.Errorf("netcode: %d bots for %d seats", cfg.Bots, cfg.Players)
	}
	if cfg.Bots > 0 && cfg.NewBot == nil {
		return nil, errors.New("netcode: bots requested without a bot policy")
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
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{cfg: cfg, log: log, rng: game.RNG{State: cfg.Seed}, adm: newAdmission(cfg.Secret, cfg.Entropy, cfg.Trusted),
		seats: newSeatTable(cfg.Players, cfg.MaxSpectators), clock: cfg.StartTick, tickDur: newWindow(600)}
	s.out = newOutbox(64 << 10)
	s.match.recordTo(cfg.Recorder)
	s.openLobby()
	return s, nil
}

// openLobby opens a new match: a new id, bots in their seats, and, when
// the bots fill every seat, a start at once (for spectators).
func (s *Server) openLobby() {
	s.match.reset(uint32(s.rng.Next()) | 1)
	for i := s.cfg.Players - s.cfg.Bots; i < s.cfg.Players; i++ {
		s.seats.placeBot(i, fmt.Sprintf("bot%d", i+1), s.cfg.NewBot(i, s.rng.Next()))
	}
	if s.seats.free() == 0 {
		s.schedule()
	}
}

// schedule starts the countdown of a match whose seats are all taken: the
// world is built at a start tick far enough ahead for every player's first
// inputs to arrive in time, and everyone gets the Start.
func (s *Server) schedule() {
	lead := startLeadMin
	for i := 0; i < s.cfg.Players; i++ {
		if st := s.seats.at(i); st.human() {
			lead = max(lead, int((st.rtt+TickDuration-1)/TickDuration)+startLeadMargin)
		}
	}
	lead = min(lead, startLeadMax)
	names := make([]string, s.cfg.Players)
	for i := range names {
		names[i] = s.seats.at(i).name
	}
	s.match.begin(&s.cfg, s.rng.Next()|1, s.clock.Add(int32(lead)), names)
	for i := 0; i < s.cfg.Players; i++ {
		s.seats.at(i).in.restart()
	}
	s.seats.each(func(l *link, slot int) {
		l.started = false
		s.sendStart(l, slot)
	})
}

// Match returns the current match ID.
func (s *Server) Match() uint32 { return s.match.matchID() }

// Running reports whether a match has begun: counting down to its first
// tick or being played.
func (s *Server) Running() bool { return s.match.live() }

// World returns the authoritative world of the match, or nil in the
// lobby. It must not be modified.
func (s *Server) World() *game.World { return s.match.current() }

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
	h, err := proto.ParseHeader(b)
	if err != nil {
		s.drop(dropReasonFor(err))
		if errors.Is(err, proto.ErrVersion) && len(b) >= proto.HeaderLen+1 && s.adm.allow(from, now) {
			// Tell the client, within the size it sent (no amplification).
			s.out.put(from, &proto.Reject{Header: proto.Header{Session: sessionOf(b)}, Reason: proto.RejectVersion})
		}
		return
	}
	if h.Session == 0 {
		s.drop(DropMalformed) // session ids are never zero
		return
	}
	switch h.Type {
	case proto.TypeHello, proto.TypeJoin:
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
		if h.Type == proto.TypeHello {
			s.onHello(now, from, h, b)
		} else {
			s.onJoin(now, from, h, b)
		}
	case proto.TypeInput:
		s.onInput(now, from, h, b)
	case proto.TypeLeave:
		s.onLeave(now, from, h, b)
	default:
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

func (s *Server) onJoin(now time.Time, from netip.AddrPort, h proto.Header, b []byte) {
	j, err := proto.ParseJoinBody(h, b)
	if err != nil {
		s.drop(dropReasonFor(err))
		return
	}
	rtt, err := s.adm.verify(j.Cookie, from, j.Session, now)
	if err != nil {
		s.drop(DropBadCookie)
		s.reject(from, j.Session, proto.RejectBadCookie)
		return
	}
	// A repeated Join (our Start was lost) gets the same answer again.
	if st, sp := s.seats.bySession(from, j.Session); st != nil {
		if st.state == seatLost {
			s.stats.reconnects++ // back from the same address
		}
		s.seats.hear(st, now)
		st.started = false // it starts over: full traffic until its next Input
		s.sendStart(&st.link, st.slot)
		return
	} else if sp != nil {
		sp.heard = now
		s.sendStart(&sp.link, -1)
		return
	}
	// A reconnect: the token of a seat we still hold, from an address that
	// has just passed the challenge. It takes the seat over, score and all.
	if j.Token != (proto.Token{}) && !j.Spectate {
		if st := s.seats.byToken(&j.Token, now); st != nil {
			s.seats.resume(st, from, j.Session, rtt, s.adm.token(), now)
			s.stats.reconnects++
			s.sendStart(&st.link, st.slot)
			return
		}
	}
	if j.Token != (proto.Token{}) && j.Spectate {
		if sp := s.seats.spectatorByToken(&j.Token); sp != nil {
			s.seats.resumeSpectator(sp, from, j.Session, s.adm.token(), now)
			s.sendStart(&sp.link, -1)
			return
		}
	}
	// A new session from the very address and port of a peer we hold:
	// that peer's socket is gone (a port is one socket's at a time), so
	// its place is freed for the newcomer.
	s.supersede(from, now)
	if !s.adm.isTrusted(from.Addr()) {
		seats, specs := s.seats.countFrom(from.Addr())
		if (j.Spectate && specs >= s.cfg.MaxSpectatorsPerAddr) || (!j.Spectate && seats >= s.cfg.MaxSeatsPerAddr) {
			s.drop(DropAddrLimit)
			s.reject(from, j.Session, proto.RejectAddrLimit)
			return
		}
	}
	name := proto.SanitizeName(j.Name)
	l := link{addr: from, session: j.Session, name: name, heard: now, rtt: rtt}
	if j.Spectate {
		if l.name == "" {
			l.name = "spectator"
		}
		l.token = s.adm.token()
		sp := s.seats.addSpectator(l)
		if sp == nil {
			s.reject(from, j.Session, proto.RejectFull)
			return
		}
		s.sendStart(&sp.link, -1)
		return
	}
	st := s.seats.take(l, s.adm.token())
	if st == nil {
		s.reject(from, j.Session, proto.RejectFull)
		return
	}
	if st.name == "" {
		st.name = fmt.Sprintf("player%d", st.slot+1)
	}
	if s.match.live() {
		s.match.seat(st.slot, st.name, true) // plays from the next round
	} else if s.seats.free() == 0 {
		s.schedule() // sends every peer the Start
		return
	}
	s.sendStart(&st.link, st.slot)
}

// supersede frees the places held at exactly from (by other sessions).
func (s *Server) supersede(from netip.AddrPort, now time.Time) {
	for i := 0; i < s.cfg.Players; i++ {
		if st := s.seats.at(i); st.human() && st.addr == from {
			s.adm.departed(from, st.session, s.match.matchID(), uint8(i), now)
			s.release(st)
		}
	}
	s.seats.dropSpectatorsAt(from)
}

// reject answers a Join with a Reject, which has no session on our side:
// its sequence number is 0.
func (s *Server) reject(to netip.AddrPort, session uint64, r proto.RejectReason) {
	s.out.put(to, &proto.Reject{Header: proto.Header{Session: session}, Reason: r})
}

// sendStart sends a peer the Start of the current match; slot is its seat
// or -1 for a spectator.
func (s *Server) sendStart(l *link, slot int) {
	m := &s.match
	st := proto.Start{Header: proto.Header{Session: l.session, Match: m.matchID(), Seq: l.next()},
		Slots: uint8(s.cfg.Players), Need: uint8(s.seats.free()), MazeW: uint8(s.cfg.MazeW),
		MazeH: uint8(s.cfg.MazeH), StateEvery: uint8(s.cfg.StateEvery), StartTick: s.clock, ServerTick: s.clock}
	st.Slot = proto.SpectatorSlot
	if slot >= 0 {
		st.Slot = uint8(slot)
	}
	st.Token = l.token
	st.Player = st.Slot
	if m.live() {
		st.StartTick, st.WorldSeed = m.origin()
		st.Need = 0
	}
	for i := 0; i < s.cfg.Players; i++ {
		q := s.seats.at(i)
		if q.state == seatFree {
			continue
		}
		st.Roster[i] = proto.Seat{Name: q.name, Connected: q.state != seatLost}
		st.Roster[i].Score = m.score(i)
	}
	s.out.put(l.addr, &st)
}

func (s *Server) onInput(now time.Time, from netip.AddrPort, h proto.Header, b []byte) {
	in, err := proto.ParseInputBody(h, b)
	if err != nil {
		s.drop(dropReasonFor(err))
		return
	}
	if in.Player == proto.SpectatorSlot {
		// A spectator's keep-alive: it carries no input that matters.
		_, sp := s.seats.bySession(from, in.Session)
		if sp == nil || in.Match != s.match.matchID() {
			s.drop(DropUnknownPlayer)
			return
		}
		if !sp.keptAlive(now, in.Seq, in.ClientTime) {
			s.drop(DropDuplicate)
		}
		return
	}
	if int(in.Player) >= s.cfg.Players || !s.seats.at(int(in.Player)).human() {
		s.drop(DropUnknownPlayer)
		return
	}
	st := s.seats.at(int(in.Player))
	switch {
	case st.addr != from:
		s.drop(DropWrongAddr)
		return
	case st.session != in.Session:
		s.drop(DropWrongSession)
		return
	case in.Match != s.match.matchID():
		s.drop(DropWrongMatch)
		return
	case st.in.seen(in.Seq):
		s.drop(DropDuplicate) // a copy or a replay: not even a sign of life
		return
	}
	if !s.match.live() {
		if st.in.keepAlive(in.Seq) { // a keep-alive from the lobby
			s.seats.hear(st, now)
		}
		return
	}
	if r, dropped := st.in.accept(&in, now, s.tickAt, s.clock); dropped {
		s.drop(r) // too late or too far ahead: no sign of life either
		return
	}
	s.seats.hear(st, now)
	st.started = true
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
	st, sp := s.seats.bySession(from, l.Session)
	player := uint8(proto.SpectatorSlot)
	if st != nil {
		player = uint8(st.slot)
	}
	ack := proto.Leave{Header: proto.Header{Session: l.Session, Match: s.match.matchID(), Player: player}, Reason: proto.LeaveQuit}
	switch {
	case (st != nil || sp != nil) && (l.Match != ack.Match || l.Player != player):
		s.drop(DropWrongMatch) // not this session's match or seat
	case st != nil:
		ack.Seq = st.next()
		s.adm.departed(from, l.Session, ack.Match, player, now)
		s.out.put(from, &ack)
		s.release(st)
	case sp != nil:
		ack.Seq = sp.next()
		s.adm.departed(from, l.Session, ack.Match, player, now)
		s.out.put(from, &ack)
		s.seats.dropSpectator(sp)
	default:
		// The acknowledgement of an earlier Leave was lost: say it again
		// (the same size as the Leave: no amplification).
		d, ok := s.adm.leftRecently(from, l.Session, now)
		if !ok || d.match != l.Match || d.player != l.Player {
			s.drop(DropUnknownPlayer)
			return
		}
		ack.Match, ack.Player = d.match, d.player
		s.out.put(from, &ack)
	}
}

// release frees a human's seat: the tank leaves the world at the next
// round, and when no network player is left the match ends and a new
// lobby opens.
func (s *Server) release(st *seat) {
	s.match.seat(st.slot, st.name, false)
	s.remember(st)
	s.seats.release(st)
	if s.seats.humans() == 0 {
		s.seats.clearSeats()
		s.openLobby()
	}
}

// Tick runs one server tick at now: expiry of silent peers, Start resends,
// and in a running match one step (one input per seat: the player's, the
// last one held for at most HoldTicks, or neutral) and each peer's Ack, or
// State every StateEvery ticks. It never runs extra steps to catch anyone
// up.
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

func (s *Server) tick(now time.Time) {
	s.tickAt = now.Add(TickDuration)
	s.ticks++
	s.guard(func() { s.step(now) })
	s.clock++
}

// step is one tick's work; a panic in it ends the match (guard).
func (s *Server) step(now time.Time) {
	s.expire(now)
	if s.ticks%60 == 0 {
		s.rotateTokens(now)
	}
	m := &s.match
	if s.seats.rosterChanged() {
		s.seats.each(func(l *link, slot int) { s.sendStart(l, slot) })
	} else {
		every := uint64(startResendTicks)
		if m.counting() {
			every = countdownResendTicks
		}
		if s.ticks%every == 0 {
			s.seats.each(func(l *link, slot int) {
				if !m.live() || !l.started {
					s.sendStart(l, slot)
				}
			})
		}
	}
	m.step(now, s.clock, s.cfg.StateEvery, &s.seats, &s.stats, &s.out)
}

// expire applies silence: lost players idle, and the places of peers
// silent for FreeAfter are freed.
func (s *Server) expire(now time.Time) {
	humans := s.seats.humans()
	freed := s.seats.expire(now, func(st *seat) {
		s.match.seat(st.slot, st.name, false)
		s.remember(st)
	})
	s.stats.timeouts += uint64(freed)
	if humans > 0 && s.seats.humans() == 0 {
		s.seats.clearSeats()
		s.openLobby()
	}
}

// guard runs f, and recovers a panic in it at the match's boundary: the
// stack goes to the log, every peer of the match gets a Leave saying
// "server error", and a new lobby opens. The server itself goes on. It
// reports whether f returned normally.
func (s *Server) guard(f func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			s.fault(r, debug.Stack())
		}
	}()
	f()
	return true
}

func (s *Server) fault(r any, stack []byte) {
	s.stats.faults++
	s.log.Error("match stopped after a server error", "match", s.match.matchID(), "panic", fmt.Sprint(r), "stack", string(stack))
	s.out.reset() // whatever the failed step produced is not to be trusted
	// Rebuild the seat table rather than walk one a fault may have left
	// half-changed.
	old := s.seats
	for i := 0; i < s.cfg.Players; i++ {
		if st := old.at(i); st.human() {
			func() {
				defer func() { _ = recover() }() // best effort: the figures may be what failed
				s.remember(st)
			}()
		}
	}
	s.seats = newSeatTable(s.cfg.Players, s.cfg.MaxSpectators)
	old.each(func(l *link, slot int) {
		var p uint8 = proto.SpectatorSlot
		if slot >= 0 {
			p = uint8(slot)
		}
		s.out.put(l.addr, &proto.Leave{Header: proto.Header{Session: l.session, Match: s.match.matchID(), Player: p, Seq: l.seq + 1},
			Reason: proto.LeaveServerError})
	})
	// Opening the lobby places the bots; should that fail too, the server
	// stays up with an empty table rather than fault again.
	func() {
		defer func() {
			if r := recover(); r != nil {
				s.log.Error("lobby failed to open after a server error", "panic", fmt.Sprint(r))
			}
		}()
		s.openLobby()
	}()
}

// rotateTokens gives every player whose reconnect token is older than
// tokenLife a new one, in a Start.
func (s *Server) rotateTokens(now time.Time) {
	s.rotBuf = s.seats.rotateDue(now, s.rotBuf[:0])
	for _, st := range s.rotBuf {
		s.seats.rotate(st, s.adm.token(), now)
		s.sendStart(&st.link, st.slot)
	}
}

// Kick ends the session of the player in slot with a Leave saying so and
// frees the seat; it returns the Leave to send (none if no network player
// held the seat).
func (s *Server) Kick(slot int) []Datagram {
	s.out.reset()
	s.guard(func() {
		if slot < 0 || slot >= s.cfg.Players || !s.seats.at(slot).human() {
			return
		}
		st := s.seats.at(slot)
		s.out.put(st.addr, &proto.Leave{Header: proto.Header{Session: st.session, Match: s.match.matchID(),
			Player: uint8(slot), Seq: st.next()}, Reason: proto.LeaveKicked})
		s.release(st)
	})
	return s.out.datagrams()
}

// Ban refuses every Hello and Join from addr for the server's life and
// kicks its players and spectators; it returns their Leaves to send.
func (s *Server) Ban(addr netip.Addr) []Datagram {
	s.out.reset()
	s.guard(func() {
		addr = addr.Unmap()
		s.adm.ban(addr)
		for i := 0; i < s.cfg.Players; i++ {
			if st := s.seats.at(i); st.human() && st.addr.Addr() == addr {
				s.out.put(st.addr, &proto.Leave{Header: proto.Header{Session: st.session, Match: s.match.matchID(),
					Player: uint8(i), Seq: st.next()}, Reason: proto.LeaveKicked})
				s.release(st)
			}
		}
		s.seats.dropSpectatorsFrom(addr, func(sp *spectator) {
			s.out.put(sp.addr, &proto.Leave{Header: proto.Header{Session: sp.session, Match: s.match.matchID(),
				Player: proto.SpectatorSlot, Seq: sp.next()}, Reason: proto.LeaveKicked})
		})
	})
	return s.out.datagrams()
}

// Shutdown returns a Leave for every network peer, for a clean exit.
func (s *Server) Shutdown() []Datagram {
	s.out.reset()
	s.seats.each(func(l *link, slot int) {
		var p uint8 = proto.SpectatorSlot
		if slot >= 0 {
			p = uint8(slot)
		}
		s.out.put(l.addr, &proto.Leave{Header: proto.Header{Session: l.session, Match: s.match.matchID(), Player: p, Seq: l.next()},
			Reason: proto.LeaveShutdown})
	})
	return s.out.datagrams()
}

// ObserveTickDuration records how long the driver's last Tick took.
func (s *Server) ObserveTickDuration(d time.Duration) { s.tickDur.add(float64(d)) }

func (s *Server) drop(r DropReason) {
	s.drops[r]++
	s.stats.dropped++
}
