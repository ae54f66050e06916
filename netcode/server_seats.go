package netcode

import (
	"fmt"
	"net/netip"
	"time"
	"ttytanks/internal/ladder"

	"ttytanks/game"
	"ttytanks/proto"
)

// seatState is where one seat is in its life cycle; doc.go draws the
// machine. Every change goes through seat.to, which panics on a transition
// the machine does not have, so an illegal one is loud, never silent.
type seatState uint8

const (
	// seatFree: nobody holds the seat.
	seatFree seatState = iota
	// seatBot: a server-side bot holds it for the server's life.
	seatBot
	// seatHeld: a network player holds it and was heard within LostAfter.
	seatHeld
	// seatLost: its player has been silent for LostAfter; the tank idles
	// on neutral input, the roster shows it as not connected, and the seat
	// is freed after FreeAfter of silence.
	seatLost
)

var seatStateNames = [...]string{seatFree: "free", seatBot: "bot", seatHeld: "held", seatLost: "lost"}

func (s seatState) String() string { return seatStateNames[s] }

// seatMoves lists the legal transitions: seatMoves[from] has bit 1<<to.
var seatMoves = [...]uint8{
	seatFree: 1<<seatBot | 1<<seatHeld,                // bot placed; join
	seatBot:  1 << seatFree,                           // fault or shutdown clears the table
	seatHeld: 1<<seatHeld | 1<<seatLost | 1<<seatFree, // reconnect; silence; leave, timeout, clear
	seatLost: 1<<seatHeld | 1<<seatFree,               // heard again or reconnect; timeout, leave, clear
}

// link is the network side of a peer: its connection and where that is.
type link struct {
	conn  uint32         // the connection id: every packet to the peer is sealed for it
	addr  netip.AddrPort // the connection's address, as the place knows it
	name  string
	heard time.Time // its last sign of life
	// joined is the server's tick when the peer took its place (a
	// reconnect keeps it), for the log's "after how long".
	joined game.Tick
	// started is set by the peer's first Input after the Start of a
	// running match: until then the server resends Start.
	started bool
	// rtt is the handshake's round trip, the server's only measure of
	// the peer's distance (it schedules match starts by it).
	rtt time.Duration
	// token is the peer's reconnect token: with it, a Request from a new
	// connection takes the place back, if it proves it holds resume, the
	// resume key of the connection the token was issued to.
	token  proto.Token
	resume [proto.KeyLen]byte
	// origin is the address the place counts against for the per-address
	// limits: the one its connection proved with a cookie (or its SSH
	// client's), fixed when the place is given, wherever the connection
	// moves after.
	origin netip.Addr
	// chat is the peer's side of the room's chat (server_chat.go).
	chat chatter
	// who is the player the peer proved it is (zero: a guest or a bot),
	// rating their rating when they took the place (PROTOCOL.md §4.15).
	who    ladder.Key
	rating float64
}

// inPrefix reports whether the peer's address, or the address its place
// counts against, is in the prefix key (a limitKey).
func (l *link) inPrefix(key netip.Addr) bool {
	return limitKey(l.addr.Addr()) == key || l.origin == key
}

// restart makes the peer start over: the server resends its Start, with
// full traffic, until its next Input.
func (l *link) restart() { l.started = false }

// begin notes the peer's first Input after the Start of a running match.
func (l *link) begin() { l.started = true }

// seat is one of the match's places.
type seat struct {
	slot  int
	state seatState
	link
	// tokenAt is when token was issued; prevToken, the one it replaced on
	// a periodic rotation, is still good until prevUntil (the Start with
	// the new one may have been lost).
	tokenAt   time.Time
	prevToken proto.Token
	prevUntil time.Time
	bot       InputSource
	in        inputBuffer
	// intentAt is the player's last sign of intent: it took the seat, its
	// first Input after that came (it knew then it had the seat: its
	// Start may have been lost), or it sent a non-neutral input
	// (ServerConfig.Idle). unheard is true from taking the seat to that
	// first Input.
	intentAt time.Time
	unheard  bool
}

// to moves the seat to state next, or panics on an illegal transition.
func (s *seat) to(next seatState) {
	if seatMoves[s.state]&(1<<next) == 0 {
		panic(fmt.Sprintf("netcode: illegal seat transition %v → %v", s.state, next))
	}
	s.state = next
}

// human reports whether a network player holds the seat.
func (s *seat) human() bool { return s.state == seatHeld || s.state == seatLost }

// spectator is a peer that watches without a seat.
type spectator struct {
	link
	echo   uint16    // ClientTime of its newest keep-alive, for its RTT
	echoAt time.Time // when that arrived
	seqs   seqWindow
}

// keptAlive takes a spectator's keep-alive with sequence number seq and
// ClientTime ct at now; it reports false, and changes nothing, for a
// repeat (a copy or a replay is not a sign of life).
func (sp *spectator) keptAlive(now time.Time, seq uint32, ct uint16) bool {
	if !sp.seqs.fresh(seq) {
		return false
	}
	sp.link.heard, sp.started = now, true
	sp.echo, sp.echoAt = ct, now
	return true
}

// ackInfo returns a spectator's Ack fields at now: the server tick and
// the echo of its newest keep-alive (saturated before the first).
func (sp *spectator) ackInfo(now time.Time, serverTick game.Tick) proto.AckInfo {
	ai := proto.AckInfo{ServerTick: serverTick, EchoTime: sp.echo, EchoDelay: 0xffff}
	if !sp.echoAt.IsZero() {
		ai.EchoDelay = uint16(min(max(now.Sub(sp.echoAt), 0)/(10*time.Microsecond), 0xffff))
	}
	return ai
}

// seatTable holds the seats and the spectators, and applies every
// transition of their life cycles. Seats are indexed by slot; spectators
// are kept in joining order.
type seatTable struct {
	n        int // seats in the match
	seats    [game.MaxPlayers]seat
	specs    []*spectator
	maxSpecs int
	// changed records that the roster (names, connected flags) changed
	// since the last call to rosterChanged.
	changed bool
	due     []*seat // rotateDue's result
}

func newSeatTable(n, maxSpecs int) seatTable {
	t := seatTable{n: n, maxSpecs: maxSpecs}
	for i := range t.seats[:n] {
		t.seats[i].slot = i
		t.seats[i].in = newInputBuffer()
	}
	return t
}

// at returns the seat of slot, which must be below n.
func (t *seatTable) at(slot int) *seat { return &t.seats[slot] }

// free returns how many seats are free.
func (t *seatTable) free() int {
	n := 0
	for i := range t.seats[:t.n] {
		if t.seats[i].state == seatFree {
			n++
		}
	}
	return n
}

// taken returns how many seats are taken, bots' included.
func (t *seatTable) taken() int { return t.n - t.free() }

// byTokenOf returns the place a reconnect token holds: a spectator's
// when spectate, else a seat.
func (t *seatTable) byTokenOf(tok *proto.Token, spectate bool, now time.Time) (*seat, *spectator) {
	if spectate {
		return nil, t.spectatorByToken(tok)
	}
	return t.byToken(tok, now), nil
}

// humans returns how many seats network players hold.
func (t *seatTable) humans() int {
	n := 0
	for i := range t.seats[:t.n] {
		if t.seats[i].human() {
			n++
		}
	}
	return n
}

// placeBot puts a bot in a free seat.
func (t *seatTable) placeBot(slot int, name string, bot InputSource) {
	s := &t.seats[slot]
	s.to(seatBot)
	s.link, s.bot = link{name: name}, bot
	s.in.reset()
	t.changed = true
}

// take seats a new player in the first free seat (named playerN if it
// gave no name) and returns it, or nil when every seat is taken.
func (t *seatTable) take(l link, token proto.Token) *seat {
	for i := range t.seats[:t.n] {
		if s := &t.seats[i]; s.state == seatFree {
			s.to(seatHeld)
			s.link, s.token, s.bot = l, token, nil
			s.intentAt, s.unheard = l.heard, true
			if s.name == "" {
				s.name = fmt.Sprintf("player%d", i+1)
			}
			s.tokenAt, s.prevToken, s.prevUntil = l.heard, proto.Token{}, time.Time{}
			s.in.reset()
			t.changed = true
			return s
		}
	}
	return nil
}

// resume gives a held (or lost) seat to its player on the connection l
// describes, after a reconnect with its token, and a fresh token: a token
// is good for one use. The seat keeps its name.
func (t *seatTable) resume(s *seat, l link, token proto.Token, now time.Time) {
	s.to(seatHeld)
	s.conn, s.addr, s.heard, s.rtt, s.resume, s.origin = l.conn, l.addr, now, l.rtt, l.resume, l.origin
	s.intentAt, s.unheard = now, true
	s.token, s.tokenAt, s.prevToken, s.prevUntil = token, now, proto.Token{}, time.Time{}
	s.started = false
	s.in.reset()
	t.changed = true
}

// release frees a human's seat.
func (t *seatTable) release(s *seat) {
	s.to(seatFree)
	s.link, s.token, s.bot = link{}, proto.Token{}, nil
	s.in.reset()
	t.changed = true
}

// hear notes a sign of life from a seat's player: a lost seat is held
// again.
func (t *seatTable) hear(s *seat, now time.Time) {
	s.heard = now
	if s.state == seatLost {
		s.to(seatHeld)
		t.changed = true
	}
}

// heardInput notes an Input of a seat's player at now: a sign of life,
// and the first since it took the seat starts its idle clock.
func (t *seatTable) heardInput(s *seat, now time.Time) {
	t.hear(s, now)
	if s.unheard {
		s.intentAt, s.unheard = now, false
	}
}

// hearSpectator notes a sign of life from a spectator.
func (t *seatTable) hearSpectator(sp *spectator, now time.Time) { sp.heard = now }

// spectatorByToken returns the spectator holding token, or nil.
func (t *seatTable) spectatorByToken(tok *proto.Token) *spectator {
	var found *spectator
	for _, sp := range t.specs {
		if sameToken(&sp.token, tok) {
			found = sp
		}
	}
	return found
}

// resumeSpectator moves a spectator's place to the connection l
// describes after a reconnect with its token, with a fresh token.
func (t *seatTable) resumeSpectator(sp *spectator, l link, token proto.Token, now time.Time) {
	sp.conn, sp.addr, sp.token, sp.link.heard, sp.started, sp.resume, sp.origin = l.conn, l.addr, token, now, false, l.resume, l.origin
	sp.seqs.reset()
}

// addSpectator adds the spectator of l with the reconnect token token
// (and the name "spectator" if it gave none), or returns nil at the
// limit.
func (t *seatTable) addSpectator(l link, token proto.Token) *spectator {
	if l.name == "" {
		l.name = "spectator"
	}
	l.token = token
	if len(t.specs) >= t.maxSpecs {
		return nil
	}
	sp := &spectator{link: l}
	t.specs = append(t.specs, sp)
	return sp
}

// dropSpectatorsFrom removes every spectator in the prefix key (a
// limitKey: by its address or its origin), calling f for each first, and
// returns how many.
func (t *seatTable) dropSpectatorsFrom(key netip.Addr, f func(sp *spectator)) int {
	n := 0
	for i := 0; i < len(t.specs); {
		if sp := t.specs[i]; sp.link.inPrefix(key) {
			f(sp)
			t.specs = append(t.specs[:i], t.specs[i+1:]...)
			n++
			continue
		}
		i++
	}
	return n
}

// dropSpectatorsAt removes every spectator at exactly addr.
func (t *seatTable) dropSpectatorsAt(addr netip.AddrPort) {
	for i := 0; i < len(t.specs); {
		if t.specs[i].addr == addr {
			t.specs = append(t.specs[:i], t.specs[i+1:]...)
			continue
		}
		i++
	}
}

// dropSpectator removes a spectator.
func (t *seatTable) dropSpectator(sp *spectator) {
	for i, q := range t.specs {
		if q == sp {
			t.specs = append(t.specs[:i], t.specs[i+1:]...)
			return
		}
	}
}

// intent notes a sign of intent from a seat's player at now.
func (t *seatTable) intent(s *seat, now time.Time) { s.intentAt = now }

// expire applies silence and idleness at now: held seats silent for
// LostAfter become lost; seats and spectators silent for FreeAfter are
// freed, and seats whose player showed no intent for idle (if positive).
// It calls freed for each seat it frees, before freeing it, with why
// (LeaveTimeout or LeaveIdle), and returns how many places it freed for
// silence and how many seats for idleness.
func (t *seatTable) expire(now time.Time, idle time.Duration, freed func(s *seat, why proto.LeaveReason)) (timeouts, idled int) {
	n := 0
	for i := range t.seats[:t.n] {
		s := &t.seats[i]
		if !s.human() {
			continue
		}
		switch silent := now.Sub(s.heard); {
		case silent > FreeAfter:
			freed(s, proto.LeaveTimeout)
			t.release(s)
			n++
		case idle > 0 && now.Sub(s.intentAt) > idle:
			freed(s, proto.LeaveIdle)
			t.release(s)
			idled++
		case silent > LostAfter && s.state == seatHeld:
			s.to(seatLost)
			t.changed = true
		}
	}
	for i := 0; i < len(t.specs); {
		if now.Sub(t.specs[i].heard) > FreeAfter {
			t.specs = append(t.specs[:i], t.specs[i+1:]...)
			n++
			continue
		}
		i++
	}
	return n, idled
}

// clearSeats frees every seat, bots' included; spectators stay.
func (t *seatTable) clearSeats() {
	for i := range t.seats[:t.n] {
		if s := &t.seats[i]; s.state != seatFree {
			s.to(seatFree)
			s.link, s.token, s.bot = link{}, proto.Token{}, nil
			s.in.reset()
		}
	}
	t.changed = true
}

// byConn returns the seat or spectator place of connection conn at addr.
func (t *seatTable) byConn(addr netip.AddrPort, conn uint32) (*seat, *spectator) {
	for i := range t.seats[:t.n] {
		if s := &t.seats[i]; s.human() && s.conn == conn && s.addr == addr {
			return s, nil
		}
	}
	for _, sp := range t.specs {
		if sp.conn == conn && sp.addr == addr {
			return nil, sp
		}
	}
	return nil, nil
}

// moveLink moves the place connection conn holds at from to the address
// to: the connection moved (NAT rebinding, a new network).
func (t *seatTable) moveLink(from, to netip.AddrPort, conn uint32) {
	if st, sp := t.byConn(from, conn); st != nil {
		st.addr = to
	} else if sp != nil {
		sp.addr = to
	}
}

// byToken returns the human seat holding token at now (its current one,
// or the one before a rotation while still good), comparing in constant
// time, or nil.
func (t *seatTable) byToken(tok *proto.Token, now time.Time) *seat {
	var found *seat
	for i := range t.seats[:t.n] {
		s := &t.seats[i]
		if !s.human() {
			continue
		}
		if sameToken(&s.token, tok) || (now.Before(s.prevUntil) && sameToken(&s.prevToken, tok)) {
			found = s
		}
	}
	return found
}

// tokenLife is how long a reconnect token is issued for: older ones are
// replaced (the old one still good for tokenGrace, in case the Start that
// carries the new one is lost).
const (
	tokenLife  = 5 * time.Minute
	tokenGrace = 30 * time.Second
)

// rotateDue returns the human seats whose token is older than tokenLife
// (valid until the next call).
func (t *seatTable) rotateDue(now time.Time) []*seat {
	t.due = t.due[:0]
	for i := range t.seats[:t.n] {
		if s := &t.seats[i]; s.human() && now.Sub(s.tokenAt) >= tokenLife {
			t.due = append(t.due, s)
		}
	}
	return t.due
}

// rotate gives a seat a new token; the old one stays good for tokenGrace.
// The seat's Start is resent until its next Input.
func (t *seatTable) rotate(s *seat, token proto.Token, now time.Time) {
	s.prevToken, s.prevUntil = s.token, now.Add(tokenGrace)
	s.token, s.tokenAt = token, now
	s.started = false
}

// countFrom returns how many seats and spectator places peers at ip hold.
func (t *seatTable) countFrom(ip netip.Addr, origin func(netip.AddrPort) netip.Addr) (seats, specs int) {
	of := func(l *link) netip.Addr {
		if l.origin.IsValid() {
			return l.origin
		}
		return origin(l.addr)
	}
	for i := range t.seats[:t.n] {
		if s := &t.seats[i]; s.human() && of(&s.link) == ip {
			seats++
		}
	}
	for _, sp := range t.specs {
		if of(&sp.link) == ip {
			specs++
		}
	}
	return seats, specs
}

// rosterChanged reports, once, whether the roster changed.
func (t *seatTable) rosterChanged() bool {
	c := t.changed
	t.changed = false
	return c
}

// eachSpectator calls f for every spectator.
func (t *seatTable) eachSpectator(f func(sp *spectator)) {
	for _, sp := range t.specs {
		f(sp)
	}
}

// each calls f for every network peer: human seats, then spectators.
func (t *seatTable) each(f func(l *link, slot int)) {
	for i := range t.seats[:t.n] {
		if s := &t.seats[i]; s.human() {
			f(&s.link, i)
		}
	}
	for _, sp := range t.specs {
		f(&sp.link, -1)
	}
}

// spectatorCount returns the number of spectators.
func (t *seatTable) spectatorCount() int { return len(t.specs) }

// input returns slot's input for tick tk of world w: nothing for a free
// seat, the bot's choice, or what the player's input buffer holds (its
// own input, the last one held, or neutral), and which it was.
func (t *seatTable) input(slot int, tk game.Tick, w *game.World) (game.Input, inputKind) {
	s := &t.seats[slot]
	switch s.state {
	case seatFree:
		return game.Neutral(tk), inputNone
	case seatBot:
		in := s.bot.Input(w.State(), w.Maze(), slot)
		in.Tick = tk
		return in, inputNone
	}
	return s.in.take(tk)
}

// baseline returns the newest State the player of slot says it holds.
func (t *seatTable) baseline(slot int) (game.Tick, bool) { return t.seats[slot].in.baseline() }

// report returns what slot's Ack or State says of its inputs at now.
func (t *seatTable) report(slot int, now time.Time, serverTick game.Tick) proto.AckInfo {
	in := &t.seats[slot].in
	ai := in.ackInfo(now, serverTick)
	ai.Guessed = in.guessed()
	return ai
}
