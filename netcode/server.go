package netcode

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"fmt"
	"net/netip"
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
// lose it).
const startResendTicks = 15

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
	// Seed seeds the worlds and match IDs; 0 draws one from crypto/rand.
	Seed uint64
	// Secret keys the handshake cookies; nil draws one.
	Secret []byte
	// StartTick is the first tick of the first match.
	StartTick game.Tick
	// MaxSpectators bounds spectator sessions (default 16).
	MaxSpectators int
}

// Server is the authoritative game server core. It does no IO: Receive
// takes a datagram and Tick advances one tick; both return the datagrams to
// send. The returned slice and its Data are valid until the next call. Not
// safe for concurrent use; the driver serialises calls.
type Server struct {
	cfg      ServerConfig
	jar      *proto.CookieJar
	rng      game.RNG
	seats    [game.MaxPlayers]*peer
	specs    []*peer
	match    uint32
	running  bool
	world    *game.World
	start    game.Tick // first tick of the running match
	seed     uint64    // its world seed
	nextT    game.Tick // first tick of the next match
	lastAt   time.Time // time of the last Tick
	ticks    uint64    // Tick calls, for resend timers
	played   uint64    // ticks stepped in the running match
	inputs   []game.Input
	humanBuf []*peer
	stateBuf proto.State
	ackBuf   proto.Ack
	out      []Datagram
	arena    []byte
	drops    [numDropReasons]uint64
	// rosterChanged asks the next Tick to resend Start (the roster) to all.
	rosterChanged        bool
	reconnects, timeouts uint64
	limit                *limiter
	dropTotal            uint64
	expireBuf            []*peer
	tickDur              *window
	stats                serverCounters
}

type serverCounters struct {
	real, held, neutral uint64
	bytesIn, bytesOut   uint64
	datagramsIn         uint64
	accepted            uint64
}

// peer is a player (or spectator) session.
type peer struct {
	addr    netip.AddrPort
	session uint64
	name    string
	slot    int // -1 for spectators
	token   proto.Token
	bot     InputSource
	seq     uint32
	inputs  *Ring[game.Input]
	last    game.Input
	held    int
	newest  game.Tick
	haveNew bool
	margin  int16
	echo    uint16
	echoAt  time.Time
	recv    uint16
	heard   time.Time
	// connected is false once the peer has been silent for LostAfter.
	connected bool
	// acked is set by the peer's first Input (or keep-alive) after its
	// Start: until then the server keeps resending Start.
	acked bool
	// counters
	real, heldN, neutral, late uint64
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
	if cfg.Seed == 0 {
		var b [8]byte
		_, _ = rand.Read(b[:])
		cfg.Seed = binary.LittleEndian.Uint64(b[:]) | 1
	}
	s := &Server{cfg: cfg, jar: proto.NewCookieJar(cfg.Secret), rng: game.RNG{State: cfg.Seed},
		nextT: cfg.StartTick, inputs: make([]game.Input, cfg.Players), tickDur: newWindow(600),
		arena: make([]byte, 0, 64<<10), limit: newLimiter()}
	s.newMatch()
	return s, nil
}

// newMatch empties the human seats' worlds and opens a new lobby with a new
// match ID; bots take their seats at once.
func (s *Server) newMatch() {
	s.running, s.world = false, nil
	s.match = uint32(s.rng.Next()) | 1
	for i := s.cfg.Players - s.cfg.Bots; i < s.cfg.Players; i++ {
		name := fmt.Sprintf("bot%d", i+1)
		s.seats[i] = &peer{slot: i, name: name, bot: s.cfg.NewBot(i, s.rng.Next())}
	}
	if s.need() == 0 {
		s.begin() // bots only: play at once, for spectators
	}
}

// Match returns the current match ID.
func (s *Server) Match() uint32 { return s.match }

// Running reports whether a match is being played.
func (s *Server) Running() bool { return s.running }

// World returns the authoritative world of the running match, or nil. It
// must not be modified.
func (s *Server) World() *game.World { return s.world }

// need returns how many seats are still empty.
func (s *Server) need() int {
	n := 0
	for i := 0; i < s.cfg.Players; i++ {
		if s.seats[i] == nil {
			n++
		}
	}
	return n
}

// Receive handles one datagram from addr.
func (s *Server) Receive(now time.Time, from netip.AddrPort, b []byte) []Datagram {
	s.out, s.arena = s.out[:0], s.arena[:0]
	s.stats.datagramsIn++
	s.stats.bytesIn += uint64(len(b))
	dropped := s.dropTotal
	defer func() {
		if s.dropTotal == dropped {
			s.stats.accepted++
		}
	}()
	h, err := proto.ParseHeader(b)
	if err != nil {
		s.drop(dropReasonFor(err))
		if errors.Is(err, proto.ErrVersion) && len(b) >= proto.HeaderLen+1 && s.limit.allow(from.Addr(), now) {
			// Tell the client, within the size it sent (no amplification).
			s.send(from, &proto.Reject{Header: proto.Header{Session: sessionOf(b)}, Reason: proto.RejectVersion})
		}
		return s.out
	}
	switch h.Type {
	case proto.TypeHello, proto.TypeJoin:
		// Unauthenticated requests: rate-limited per source before any
		// crypto work, in a table of fixed size.
		if !s.limit.allow(from.Addr(), now) {
			s.drop(DropRateLimited)
			return s.out
		}
		if h.Type == proto.TypeHello {
			s.onHello(now, from, b)
		} else {
			s.onJoin(now, from, b)
		}
	case proto.TypeInput:
		s.onInput(now, from, b)
	case proto.TypeLeave:
		s.onLeave(from, b)
	default:
		s.drop(DropUnexpected)
	}
	return s.out
}

// sessionOf reads the session field of a header that failed to parse for
// its version, so a Reject can name it.
func sessionOf(b []byte) uint64 {
	if len(b) < 12 {
		return 0
	}
	return binary.BigEndian.Uint64(b[4:12])
}

func (s *Server) onHello(now time.Time, from netip.AddrPort, b []byte) {
	p, err := proto.ParseHello(b)
	if err != nil {
		s.drop(dropReasonFor(err))
		return
	}
	s.send(from, &proto.Challenge{Header: proto.Header{Session: p.Session}, Cookie: s.jar.Issue(from, now)})
}

func (s *Server) onJoin(now time.Time, from netip.AddrPort, b []byte) {
	j, err := proto.ParseJoin(b)
	if err != nil {
		s.drop(dropReasonFor(err))
		return
	}
	if err := s.jar.Verify(j.Cookie, from, now); err != nil {
		s.drop(DropBadCookie)
		s.send(from, &proto.Reject{Header: proto.Header{Session: j.Session}, Reason: proto.RejectBadCookie})
		return
	}
	// A repeated Join (our Start was lost) gets the same answer again.
	if p := s.peerAt(from); p != nil && p.session == j.Session {
		if !p.connected {
			s.reconnects++ // back from the same address
		}
		s.hear(p, now)
		s.sendStart(p)
		return
	}
	// A reconnect: the token of a seat we still hold, from an address that
	// has just passed the challenge. It takes the seat over, score and all.
	if j.Token != (proto.Token{}) && !j.Spectate {
		if p := s.seatByToken(j.Token); p != nil {
			p.addr, p.session = from, j.Session
			p.inputs.Clear()
			p.haveNew, p.held, p.acked = false, 0, false
			s.hear(p, now)
			s.reconnects++
			s.sendStart(p)
			return
		}
	}
	name := proto.SanitizeName(j.Name)
	if j.Spectate {
		if len(s.specs) >= s.cfg.MaxSpectators {
			s.send(from, &proto.Reject{Header: proto.Header{Session: j.Session}, Reason: proto.RejectFull})
			return
		}
		if name == "" {
			name = "spectator"
		}
		p := &peer{addr: from, session: j.Session, name: name, slot: -1, heard: now, connected: true}
		s.specs = append(s.specs, p)
		s.sendStart(p)
		return
	}
	slot := -1
	for i := 0; i < s.cfg.Players; i++ {
		if s.seats[i] == nil {
			slot = i
			break
		}
	}
	if slot < 0 {
		s.send(from, &proto.Reject{Header: proto.Header{Session: j.Session}, Reason: proto.RejectFull})
		return
	}
	if name == "" {
		name = fmt.Sprintf("player%d", slot+1)
	}
	p := &peer{addr: from, session: j.Session, name: name, slot: slot, heard: now, connected: true,
		inputs: NewRing[game.Input](256)}
	_, _ = rand.Read(p.token[:]) // unguessable: it is worth a seat
	s.seats[slot] = p
	s.rosterChanged = true
	if s.running {
		s.world.Seat(slot, true) // plays from the next round
	}
	if !s.running && s.need() == 0 {
		s.begin()
		return
	}
	s.sendStart(p)
}

// begin starts the match: all seats are taken.
func (s *Server) begin() {
	s.seed = s.rng.Next() | 1
	w, err := game.NewWorld(game.Config{Slots: s.cfg.Players, Seed: s.seed,
		MazeW: s.cfg.MazeW, MazeH: s.cfg.MazeH, StartTick: s.nextT})
	if err != nil {
		panic(err) // the config was checked in NewServer
	}
	s.world, s.running, s.start, s.played = w, true, s.nextT, 0
	for _, p := range s.humans() {
		p.inputs.Clear()
		p.haveNew, p.held, p.last, p.acked = false, 0, game.Input{}, false
		s.sendStart(p)
	}
}

// humans returns the seated network players and spectators, in a slice
// reused by the next call.
func (s *Server) humans() []*peer {
	ps := s.humanBuf[:0]
	for i := 0; i < s.cfg.Players; i++ {
		if p := s.seats[i]; p != nil && p.bot == nil {
			ps = append(ps, p)
		}
	}
	ps = append(ps, s.specs...)
	s.humanBuf = ps
	return ps
}

// seatByToken returns the network player holding token, comparing in
// constant time.
func (s *Server) seatByToken(tok proto.Token) *peer {
	var found *peer
	for i := 0; i < s.cfg.Players; i++ {
		if p := s.seats[i]; p != nil && p.bot == nil && subtle.ConstantTimeCompare(p.token[:], tok[:]) == 1 {
			found = p
		}
	}
	return found
}

// hear notes a sign of life from p.
func (s *Server) hear(p *peer, now time.Time) {
	p.heard = now
	if !p.connected {
		p.connected = true
		s.rosterChanged = true
	}
}

func (s *Server) peerAt(addr netip.AddrPort) *peer {
	for i := 0; i < s.cfg.Players; i++ {
		if p := s.seats[i]; p != nil && p.bot == nil && p.addr == addr {
			return p
		}
	}
	for _, p := range s.specs {
		if p.addr == addr {
			return p
		}
	}
	return nil
}

func (s *Server) sendStart(p *peer) {
	st := proto.Start{Header: proto.Header{Session: p.session, Match: s.match}, Slots: uint8(s.cfg.Players),
		Need: uint8(s.need()), MazeW: uint8(s.cfg.MazeW), MazeH: uint8(s.cfg.MazeH),
		StateEvery: uint8(s.cfg.StateEvery), Token: p.token, StartTick: s.nextT}
	st.Slot = proto.SpectatorSlot
	if p.slot >= 0 {
		st.Slot = uint8(p.slot)
	}
	st.Player = st.Slot
	if s.running {
		st.StartTick, st.WorldSeed = s.start, s.seed
	}
	for i := 0; i < s.cfg.Players; i++ {
		if q := s.seats[i]; q != nil {
			st.Roster[i] = proto.Seat{Name: q.name, Connected: q.bot != nil || q.connected}
			if s.running {
				st.Roster[i].Score = s.world.State().Tanks[i].Score
			}
		}
	}
	s.send(p.addr, &st)
}

func (s *Server) onInput(now time.Time, from netip.AddrPort, b []byte) {
	in, err := proto.ParseInput(b)
	if err != nil {
		s.drop(dropReasonFor(err))
		return
	}
	if in.Player == proto.SpectatorSlot {
		// A spectator's keep-alive: it carries no input that matters.
		if p := s.peerAt(from); p != nil && p.slot < 0 && p.session == in.Session && in.Match == s.match {
			s.hear(p, now)
			p.acked = true
			return
		}
		s.drop(DropUnknownPlayer)
		return
	}
	if int(in.Player) >= s.cfg.Players || s.seats[in.Player] == nil || s.seats[in.Player].bot != nil {
		s.drop(DropUnknownPlayer)
		return
	}
	p := s.seats[in.Player]
	switch {
	case p.addr != from:
		s.drop(DropWrongAddr)
		return
	case p.session != in.Session:
		s.drop(DropWrongSession)
		return
	case in.Match != s.match:
		s.drop(DropWrongMatch)
		return
	}
	s.hear(p, now)
	p.acked = true
	if !s.running {
		return // a keep-alive from the lobby
	}
	newest := in.Inputs[in.N-1].Tick
	cur := s.world.Tick()
	p.recv++
	// Report on every datagram, in arrival order, before any window check:
	// a delayed datagram's lateness, or a client far ahead, is exactly what
	// clock sync must see.
	p.echo, p.echoAt = in.ClientTime, now
	// Tick T is consumed by the (T−cur+1)-th Tick call after the last one.
	due := s.lastAt.Add(time.Duration(newest.Diff(cur)+1) * TickDuration)
	p.margin = int16(min(max(due.Sub(now).Milliseconds(), -30000), 30000))
	if newest.Diff(cur) > MaxInputAhead {
		s.drop(DropFuture)
		return
	}
	if !p.haveNew || newest.After(p.newest) {
		p.haveNew, p.newest = true, newest
	}
	if newest.Before(cur) {
		p.late++
		s.drop(DropStale)
		return
	}
	for k := 0; k < int(in.N); k++ {
		t := in.Inputs[k].Tick
		if !t.Before(cur) && !p.inputs.Has(t) {
			p.inputs.Put(t, in.Inputs[k])
		}
	}
}

func (s *Server) onLeave(from netip.AddrPort, b []byte) {
	l, err := proto.ParseLeave(b)
	if err != nil {
		s.drop(dropReasonFor(err))
		return
	}
	p := s.peerAt(from)
	if p == nil || p.session != l.Session {
		s.drop(DropUnknownPlayer)
		return
	}
	s.remove(p)
}

// remove frees a peer's seat (or spectator place).
func (s *Server) remove(p *peer) {
	if p.slot < 0 {
		for i, q := range s.specs {
			if q == p {
				s.specs = append(s.specs[:i], s.specs[i+1:]...)
				break
			}
		}
		return
	}
	s.seats[p.slot] = nil
	s.rosterChanged = true
	if s.running {
		s.world.Seat(p.slot, false)
	}
	for i := 0; i < s.cfg.Players; i++ {
		if q := s.seats[i]; q != nil && q.bot == nil {
			return
		}
	}
	// No network players left: end the match and open a new lobby.
	if s.running {
		s.nextT = s.world.Tick()
	}
	for i := range s.seats {
		s.seats[i] = nil
	}
	s.newMatch()
}

// Tick runs one server tick at now: in a running match it takes one input
// per seat (holding the last one for at most HoldTicks, then neutral),
// steps the world, and sends each peer an Ack, or a State every
// StateEvery ticks. It never runs extra steps to catch anyone up.
func (s *Server) Tick(now time.Time) []Datagram {
	s.out, s.arena = s.out[:0], s.arena[:0]
	s.lastAt = now
	s.ticks++
	s.expire(now)
	if s.rosterChanged {
		s.rosterChanged = false
		for _, p := range s.humans() {
			s.sendStart(p)
		}
	}
	// Start is resent, while the match fills to everyone, and once it runs
	// to each peer until its first Input shows it has the Start.
	if s.ticks%startResendTicks == 0 {
		for _, p := range s.humans() {
			if !s.running || !p.acked {
				s.sendStart(p)
			}
		}
	}
	if !s.running {
		return s.out
	}
	w := s.world
	t := w.Tick()
	for i := 0; i < s.cfg.Players; i++ {
		s.inputs[i] = s.inputFor(i, t)
	}
	w.Step(s.inputs)
	hash := w.Hash()
	s.played++
	state := s.played%uint64(s.cfg.StateEvery) == 0
	for _, p := range s.humans() {
		ai := proto.AckInfo{ServerTick: w.Tick(), NewestInput: p.newest, MarginMs: p.margin,
			EchoTime: p.echo, EchoDelay: uint16(min(max(now.Sub(p.echoAt), 0)/(10*time.Microsecond), 0xffff)),
			Received: p.recv}
		hdr := proto.Header{Session: p.session, Match: s.match, Player: proto.SpectatorSlot}
		if p.slot >= 0 {
			hdr.Player = uint8(p.slot)
		}
		if state {
			st := &s.stateBuf
			st.Header, st.AckInfo, st.Hash = hdr, ai, hash
			w.Save(&st.Snapshot)
			s.send(p.addr, st)
		} else {
			a := &s.ackBuf
			a.Header, a.AckInfo, a.Hash = hdr, ai, hash
			s.send(p.addr, a)
		}
	}
	return s.out
}

// expire marks peers silent for LostAfter as lost (their tanks idle) and
// frees the places of those silent for FreeAfter.
func (s *Server) expire(now time.Time) {
	s.expireBuf = append(s.expireBuf[:0], s.humans()...) // remove changes the lists
	for _, p := range s.expireBuf {
		silent := now.Sub(p.heard)
		switch {
		case silent > FreeAfter:
			s.remove(p)
			s.timeouts++
		case silent > LostAfter && p.connected:
			p.connected = false
			s.rosterChanged = true
		}
	}
}

// inputFor picks slot's input for tick t.
func (s *Server) inputFor(slot int, t game.Tick) game.Input {
	p := s.seats[slot]
	switch {
	case p == nil:
		return game.Neutral(t)
	case p.bot != nil:
		in := p.bot.Input(s.world.State(), s.world.Maze(), slot)
		in.Tick = t
		return in
	}
	if in, ok := p.inputs.Get(t); ok {
		p.last, p.held = in, 0
		p.real++
		s.stats.real++
		return in
	}
	if p.held < HoldTicks {
		p.held++
		p.heldN++
		s.stats.held++
		in := p.last // keep moving, but never fire a shot the player did not send
		in.Tick, in.Buttons = t, in.Buttons&^game.ButtonFire
		return in
	}
	p.neutral++
	s.stats.neutral++
	return game.Neutral(t)
}

// packet is what the server and client send: any proto packet.
type packet interface {
	Append([]byte) []byte
	Head() *proto.Header
}

// send encodes pkt with the next sequence number for its destination.
func (s *Server) send(to netip.AddrPort, pkt packet) {
	if p := s.peerAt(to); p != nil && p.session == pkt.Head().Session {
		p.seq++
		pkt.Head().Seq = p.seq
	}
	start := len(s.arena)
	s.arena = pkt.Append(s.arena)
	s.out = append(s.out, Datagram{Addr: to, Data: s.arena[start:len(s.arena):len(s.arena)]})
	s.stats.bytesOut += uint64(len(s.arena) - start)
}

// Shutdown returns a Leave for every network peer, for a clean exit.
func (s *Server) Shutdown() []Datagram {
	s.out, s.arena = s.out[:0], s.arena[:0]
	for _, p := range s.humans() {
		hdr := proto.Header{Session: p.session, Match: s.match, Player: proto.SpectatorSlot}
		if p.slot >= 0 {
			hdr.Player = uint8(p.slot)
		}
		s.send(p.addr, &proto.Leave{Header: hdr, Reason: proto.LeaveShutdown})
	}
	return s.out
}

// ObserveTickDuration records how long the driver's last Tick took.
func (s *Server) ObserveTickDuration(d time.Duration) { s.tickDur.add(float64(d)) }

func (s *Server) drop(r DropReason) {
	s.drops[r]++
	s.dropTotal++
}
