package netcode

import (
	"crypto/ed25519"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"time"

	"ttytanks/game"
	"ttytanks/netcode/transport"
	"ttytanks/proto"
)

// ClientConfig configures a Client.
type ClientConfig struct {
	// Server is the server's address.
	Server netip.AddrPort
	// Session identifies this client; zero draws a random one from
	// Entropy.
	Session uint64
	// Name is the player name the server shows (sanitised by the server).
	Name string
	// DefaultName says Name is only a default (the login name), not one
	// the player chose: on a server with a ladder a key that holds a name
	// keeps it (PROTOCOL.md §4.15).
	DefaultName bool
	// Spectate joins without taking a seat.
	Spectate bool
	// Room says which room to join (the zero value: a quick match).
	Room RoomRequest
	// Redundancy is the least number of the newest inputs each Input
	// datagram carries (default proto.DefaultRedundancy, at most
	// proto.MaxInputs); clock sync raises it under loss.
	Redundancy int
	// History is the capacity of the input and snapshot rings, in ticks
	// (default DefaultHistory).
	History int
	// Predictor guesses remote inputs; nil uses a VelocityPredictor.
	Predictor RemotePredictor
	// OnPredict, if set, sees every snapshot the client computes, by the
	// tick it is at: first predictions and replays alike. Tests use it.
	OnPredict func(s *game.Snapshot)
	// LocalInput, if set, is asked for the local input of every tick the
	// client predicts, and the input passed to Advance is ignored. Bots and
	// scripted tests use it.
	LocalInput func(w *game.World, slot int) game.Input
	// OnState, if set, is told the tick of every State of our session and
	// match that opens and decodes, before any other check: the load
	// generator counts the States that arrive. It runs inside Receive.
	OnState func(tick game.Tick)
	// OnDesync, if set, is called when a State's snapshot does not hash
	// to the hash the server sent with it: received is the snapshot as
	// decoded, hash the server's, own the client's snapshot for that tick
	// (nil when it holds none). The State is then ignored. The callback
	// must not keep the pointers; it runs inside Receive.
	OnDesync func(received *game.Snapshot, hash uint64, own *game.Snapshot)
	// ConnectTimeout ends a connection attempt the server never answers
	// (default 5 s).
	ConnectTimeout time.Duration
	// Clock measures the cost of restore and replay (nil: the wall clock).
	Clock Clock
	// Entropy supplies the random session id when Session is zero, and
	// the handshake's ephemeral keys (nil: crypto/rand).
	Entropy io.Reader
	// TrustKey, if set, is asked whether the server's long-term key (the
	// one that signed the handshake) is the one expected; an error ends
	// the session with that error. nil trusts any key: an embedded
	// server, a test. (join checks known_servers or --server-key.)
	TrustKey func(key ed25519.PublicKey) error
	// Identify, if set, says who the player is on the handshake of
	// transcript: proto.SignIdentity with the player's key (join), or
	// proto.VouchIdentity by the server that knows the player (an SSH
	// session). nil plays as a guest (PROTOCOL.md §4.15).
	Identify func(transcript [32]byte) proto.Identity
	// Light runs the protocol without prediction, for load generators: the
	// client keeps its clock, sends its inputs with their redundancy and
	// checks each State's hash, but never steps a world (World holds the
	// first State's, never advanced). Renderers want the default.
	Light bool
}

// Clock tells the time; the cores read time only through one.
type Clock interface {
	Now() time.Time
}

// Client is the predicting client core. It does no IO and reads no clock
// but the one it is given: Receive takes a datagram, Advance runs the
// ticks the clock says are due; both return the datagrams to send (valid
// until the next call), and Deadline says when Advance must next be called.
// It is a composition of parts, each in its own file: the session
// (handshake, reconnect, end), the timeline (world, histories, restore and
// replay), clock sync, and the link statistics. Not safe for concurrent
// use; the driver serialises calls.
type Client struct {
	cfg    ClientConfig
	sess   session
	hs     handshake
	tl     timeline
	sync   clockSync
	link   linkStats
	chat   chatBox   // the room's chat (client_chat.go)
	hop    handover  // the fleet's Redirects followed (client_redirect.go)
	ladder ladderBox // the leaderboard asked for, the ratings told (client_ladder.go)
	m      clientCounters
	out    outbox

	st        proto.State // decode buffer
	opened    []byte      // an opened body
	inPkt     proto.Input // encode buffer for Input datagrams
	ms        msClock     // our clock for RTT echoes
	lastNow   time.Time
	wake      wakeWatch
	lastCT    uint16 // the ClientTime of the last Input datagram
	sentAny   bool
	unsent    int // ticks since the last Input datagram whose inputs wait for the next
	spectTick int
	// server is the estimate of the server's clock.
	server serverTime
}

// clientCounters are the figures of the prediction the sidebar shows.
type clientCounters struct {
	rollbacks      uint64
	replayLast     int
	replayMax      int
	replayCost     *window
	replayCostLast time.Duration
	replaySpark    spark
	hashMismatches uint64
	slotMismatches uint64
	resyncs        uint64
	fullStates     uint64 // States whose whole snapshot came
	deltaStates    uint64 // States that came as a delta (PROTOCOL.md §5.7)
	baseMisses     uint64 // delta States against a baseline the client no longer held
	dropped        uint64 // datagrams ignored: malformed, foreign, out of place
	unopened       uint64 // sealed datagrams that failed to open: forged, damaged or replayed
	staleStates    uint64
}

// NewClient returns a client that will connect to cfg.Server.
func NewClient(cfg ClientConfig) *Client {
	if cfg.Redundancy <= 0 {
		cfg.Redundancy = proto.DefaultRedundancy
	}
	cfg.Redundancy = min(cfg.Redundancy, proto.MaxInputs)
	if cfg.History <= 0 {
		cfg.History = DefaultHistory
	}
	if cfg.ConnectTimeout <= 0 {
		cfg.ConnectTimeout = 5 * time.Second
	}
	if cfg.Clock == nil {
		cfg.Clock = wallClock{}
	}
	if cfg.Entropy == nil {
		cfg.Entropy = systemEntropy()
	}
	if cfg.Session == 0 {
		var b [8]byte
		_, _ = io.ReadFull(cfg.Entropy, b[:])
		cfg.Session = binary.LittleEndian.Uint64(b[:]) | 1
	}
	pred := cfg.Predictor
	if pred == nil {
		pred = &VelocityPredictor{}
	}
	c := &Client{cfg: cfg, sess: newSession(cfg.Session, cfg.Room), hs: handshake{id: cfg.Session}, tl: newTimeline(cfg.History, pred, cfg.OnPredict, cfg.Light),
		sync: newClockSync(), link: newLinkStats(), opened: make([]byte, 0, proto.MaxDatagram)}
	c.out = newOutbox(0, c.sealOut)
	c.m.replayCost = newWindow(512)
	c.m.replaySpark = newSpark()
	return c
}

// Status returns where the client is in its life cycle.
func (c *Client) Status() Status { return c.sess.state() }

// Err returns why the session ended (nil before StatusClosed): ErrQuit,
// ErrServerFull, or one of the error types of errors.go.
func (c *Client) Err() error { return c.sess.reason() }

// Session returns the session id.
func (c *Client) Session() uint64 { return c.sess.sessionID() }

// Room returns the room we play in, its join code (a private room's,
// else "") and the match's win condition (0: rounds go on), as the
// server last said; "" before the first Start.
func (c *Client) Room() (name, code string, rounds int) { return c.sess.roomOf() }

// Slot returns our seat, or -1 (spectating or not yet seated).
func (c *Client) Slot() int { return c.sess.seat() }

// World returns the predicted world, or nil before the match starts. It
// must not be modified.
func (c *Client) World() *game.World { return c.tl.current() }

// Leaving reports whether a Leave is out and not yet acknowledged: a
// driver keeps calling Advance and Receive until it is false (at most
// about a second).
func (c *Client) Leaving() bool { return c.sess.pendingLeave() }

// Close ends the session: it returns a Leave for the server, moves to
// StatusClosed with ErrQuit, and, until the server acknowledges the Leave
// (Leaving), Advance repeats it.
func (c *Client) Close() []transport.Datagram {
	c.out.reset()
	if l := c.sess.close(c.lastNow, c.hs.placed); l != nil {
		c.send(l)
	}
	return c.out.datagrams()
}

// Abort ends the session with err (a transport failure, say) without a
// word to the server.
func (c *Client) Abort(err error) { c.sess.end(&NetworkError{Err: err}) }

// Deadline returns when Advance must next be called: the next tick, retry,
// keep-alive or timeout (the zero time before the first Advance).
func (c *Client) Deadline() time.Time {
	if c.lastNow.IsZero() {
		return time.Time{}
	}
	d := c.lastNow.Add(50 * time.Millisecond) // silence checks
	if t := c.sess.deadline(c.hs.deadline()); !t.IsZero() && t.Before(d) {
		d = t
	}
	if c.sess.state() == StatusPlaying && c.tl.current() != nil {
		if t := c.lastNow.Add(c.sync.until(c.lastNow)); t.Before(d) {
			d = t
		}
	}
	return d
}

// send sends pkt to the server: sealed once the server accepted us (a
// sealed packet before that is dropped), the handshake in the clear.
func (c *Client) send(pkt packet) {
	pkt.Head().Seq = c.sess.nextSeq()
	var n int
	if t := pkt.PacketType(); t.Sealed() {
		n = c.out.sealed(0, pkt) // the client has one connection: sealOut knows it
	} else {
		n = c.out.clear(c.cfg.Server, pkt)
	}
	c.link.sentUp(c.lastNow, n)
}

// request returns our Request for the connection the handshake made.
func (c *Client) request() *proto.Request {
	q := c.sess.request(c.cfg.Name, c.cfg.Spectate, c.hs.proof)
	if c.cfg.Identify != nil {
		q.Identity = c.cfg.Identify(c.hs.transcript())
	}
	q.DefaultName = c.cfg.DefaultName
	return q
}

// lost starts reconnecting after the server's silence: a new handshake.
func (c *Client) lost(now time.Time) {
	c.sess.lost()
	c.hs.restart(now)
}

// sealOut is the outbox's seal function: our packets sealed for the
// server.
func (c *Client) sealOut(_ uint32, dst []byte, pkt proto.Packet) (netip.AddrPort, []byte, bool) {
	out, ok := c.hs.seal(dst, pkt)
	return c.cfg.Server, out, ok
}

// Advance runs the client up to now: the handshake's retries, the Leave's
// repeats, or the ticks that are due with in as the local input (its Tick
// is ignored).
func (c *Client) Advance(now time.Time, in game.Input) []transport.Datagram {
	c.out.reset()
	c.lastNow = now
	if gap := c.wake.called(now); gap > 0 {
		c.woke(now, gap)
	}
	c.ms.at(now) // the clock starts at the first call
	c.link.tick(now)
	if l := c.sess.resendLeave(now); l != nil {
		c.send(l)
	}
	if st := c.sess.state(); st == StatusWaiting || st == StatusPlaying {
		c.chat.due(now, c.sendChat)
		c.ladder.due(now, func(q *proto.LadderQuery) { c.send(q) })
	}
	silence := c.sess.silence(now)
	switch c.sess.state() {
	case StatusConnecting:
		if silence > c.cfg.ConnectTimeout && c.goBack(now, c.cfg.ConnectTimeout) {
			break // the server we were sent to never answered: back to the first
		}
		if silence > c.cfg.ConnectTimeout {
			c.sess.end(&NoAnswerError{Server: c.cfg.Server, After: c.cfg.ConnectTimeout})
			return c.out.datagrams()
		}
		if p := c.hs.knock(now, c.cfg.Entropy, c.request); p != nil {
			c.send(p)
		}
	case StatusWaiting, StatusReconnecting:
		if c.sess.state() == StatusReconnecting && c.goBack(now, fleetGiveUp) {
			break // the server we were sent to died: back to the first, which knows the fleet
		}
		if silence > SilenceGone {
			c.sess.end(&GoneError{Server: c.cfg.Server, After: SilenceGone})
			return c.out.datagrams()
		}
		if c.sess.state() == StatusWaiting && silence > SilenceReconnecting {
			// The lobby repeats Start four times a second: this much
			// silence means we lost it (a new address, say). Knock again;
			// our token takes the seat back.
			c.lost(now)
		}
		if c.sess.state() == StatusWaiting {
			// In the lobby nothing else goes up: tell the server we are
			// still here, so it keeps our seat.
			if t, due := c.sess.keepAliveDue(now); due {
				c.sendKeepAlive(now, t)
			}
		}
		if c.sess.state() == StatusReconnecting {
			// Knock again: a fresh challenge, then a Join with our token,
			// resumes the seat (from a new address too).
			if p := c.hs.knock(now, c.cfg.Entropy, c.request); p != nil {
				c.send(p)
			}
		}
	case StatusPlaying:
		if silence > SilenceReconnecting {
			c.lost(now)
			return c.out.datagrams()
		}
		if c.tl.current() == nil {
			// Seated in a running match, waiting for the first State: say
			// so with our Join (the server answers it with a Start and
			// counts it a sign of life; a Start that reached us does not
			// prove that ours reached it).
			if p := c.hs.connect(now, c.cfg.Entropy, c.request); p != nil {
				c.send(p)
			}
			return c.out.datagrams()
		}
		due := c.sync.due(now, c.tl.tick(), c.sess.seat() >= 0)
		if c.sync.jumped() {
			c.link.restartLoss()
		}
		for i := 0; i < due; i++ {
			c.step(now, in)
		}
	}
	return c.out.datagrams()
}

// sendKeepAlive sends one neutral input for tick t: a sign of life that
// carries nothing the server uses.
func (c *Client) sendKeepAlive(now time.Time, t game.Tick) {
	p := &c.inPkt
	*p = proto.Input{Header: c.sess.header(), ClientTime: c.ms.at(now), N: 1}
	p.Inputs[0] = game.Neutral(t)
	c.send(p)
}

// step predicts one tick: store the local input, guess the others, step,
// store the snapshot, send the newest inputs.
func (c *Client) step(now time.Time, in game.Input) {
	slot := c.sess.seat()
	if slot < 0 {
		// Spectators show the server's States as they come; every 15 ticks
		// they send a keep-alive so the server keeps them.
		if c.spectTick++; c.spectTick%15 == 0 {
			c.sendKeepAlive(now, c.tl.tick())
		}
		return
	}
	if c.cfg.LocalInput != nil {
		in = c.cfg.LocalInput(c.tl.current(), slot)
	}
	t := c.tl.tick()
	c.tl.predict(slot, in)
	if c.inputDue(t) {
		c.sendInputs(now, t)
	}
}

// inputDue reports whether the Input datagram of tick t goes now: every
// tick when the clock sync spaces them by 1; at a spacing of 2, on a tick
// whose input differs from the tick before's (a change goes at once), and
// else every second tick.
func (c *Client) inputDue(t game.Tick) bool {
	if c.sync.spacing() == 1 {
		c.unsent = 0
		return true
	}
	in, _ := c.tl.input(t)
	prev, ok := c.tl.input(t - 1)
	if !ok || in.MoveX != prev.MoveX || in.MoveY != prev.MoveY || in.Buttons != prev.Buttons || c.unsent >= c.sync.spacing()-1 {
		c.unsent = 0
		return true
	}
	c.unsent++
	return false
}

func (c *Client) sendInputs(now time.Time, newest game.Tick) {
	// ClientTime names the datagram in the server's echo, so it must be
	// unique: in a burst of several ticks within one millisecond, count on.
	ct := c.ms.at(now)
	if c.sentAny && int16(ct-c.lastCT) <= 0 {
		ct = c.lastCT + 1
	}
	c.sentAny, c.lastCT = true, ct
	p := &c.inPkt // reused: sending an Input allocates nothing
	*p = proto.Input{Header: c.sess.header(), ClientTime: ct}
	p.Base, p.HasBase = c.tl.newestBase()
	n := 0
	for k := c.sync.redundancy(c.cfg.Redundancy) - 1; k >= 0; k-- {
		t := newest.Add(-int32(k))
		if in, ok := c.tl.input(t); ok {
			if n > 0 && p.Inputs[n-1].Tick.Add(1) != t {
				n = 0 // keep the run consecutive
			}
			p.Inputs[n] = in
			n++
		}
	}
	p.N = uint8(n)
	c.send(p)
	c.link.sentInput(ct, newest)
}

// Receive handles one datagram from the address from. Only datagrams
// from the server's address, with our session, are looked at; the rest are
// counted and dropped.
func (c *Client) Receive(now time.Time, from netip.AddrPort, b []byte) []transport.Datagram {
	c.out.reset()
	c.lastNow = now
	if gap := c.wake.called(now); gap > 0 {
		c.woke(now, gap)
	}
	if from != c.cfg.Server {
		c.m.dropped++
		return c.out.datagrams()
	}
	c.link.received(now, len(b))
	if sh, ok := proto.ParseSealedHeader(b); ok {
		c.onSealed(now, sh, b)
		return c.out.datagrams()
	}
	h, err := proto.ParseHeader(b)
	if err != nil {
		c.m.dropped++
		var ve *proto.VersionError
		if errors.As(err, &ve) && c.sess.state() == StatusConnecting {
			c.sess.end(&VersionError{Server: ve.Got, Client: ve.Want})
		}
		return c.out.datagrams()
	}
	if h.Session != c.sess.sessionID() {
		c.m.dropped++
		return c.out.datagrams()
	}
	// In the clear only the handshake: once the server has accepted us,
	// everything comes sealed, and a clear packet is a forgery or a
	// leftover. Each handler validates its packet and calls hear only for
	// a genuine one, so junk neither keeps a dead session alive nor skews
	// the loss estimate.
	switch body := b[proto.HeaderLen:]; {
	case c.hs.sealing():
		c.m.dropped++
	case h.Type == proto.TypeChallenge:
		c.onChallenge(now, h, body)
	case h.Type == proto.TypeAccept:
		c.onAccept(now, h, body)
	case h.Type == proto.TypeReject:
		c.onReject(now, h, body)
	default:
		c.m.dropped++
	}
	return c.out.datagrams()
}

// onSealed opens a sealed datagram of our connection and handles its
// clear form.
func (c *Client) onSealed(now time.Time, sh proto.SealedHeader, b []byte) {
	h, body, err := c.hs.unseal(sh, b, c.opened)
	if err != nil {
		c.m.dropped++
		if errors.Is(err, proto.ErrOpen) || errors.Is(err, proto.ErrReplay) || errors.Is(err, proto.ErrTooOld) {
			c.m.unopened++
		}
		return
	}
	switch sh.Type {
	case proto.TypeStart:
		c.onStart(now, h, body)
	case proto.TypeAck:
		c.onAck(now, h, body)
	case proto.TypeState:
		c.onState(now, h, body)
	case proto.TypeReject:
		c.onReject(now, h, body)
	case proto.TypeLeave:
		c.onLeave(now, h, body)
	case proto.TypePathChallenge:
		c.onPathChallenge(now, h, body)
	case proto.TypeChatLine:
		c.onChatLine(now, h, body)
	case proto.TypeRedirect:
		c.onRedirect(now, h, body)
	case proto.TypeLadderPage:
		p, err := proto.ParseLadderPageBody(h, body)
		if err != nil {
			c.m.dropped++
			return
		}
		c.ladder.answered(&p, now)
	case proto.TypeRated:
		p, err := proto.ParseRatedBody(h, body)
		if err != nil {
			c.m.dropped++
			return
		}
		c.ladder.takeRated(&p)
	default:
		c.m.dropped++
	}
}

// onAccept takes the server's Accept and sends our Request at once.
func (c *Client) onAccept(now time.Time, h proto.Header, b []byte) {
	a, err := proto.ParseAcceptBody(h, b)
	if err != nil {
		c.m.dropped++
		return
	}
	if c.sess.state() == StatusClosed {
		c.m.dropped++
		return
	}
	ok, err := c.hs.accepted(&a, c.sess.lastHeard(), c.hop.trust(c.cfg.TrustKey))
	if err != nil {
		c.sess.end(err)
	}
	if !ok {
		c.m.dropped++
		return
	}
	c.hear(now, 0)
	c.send(c.request())
}

// onPathChallenge answers the server's check of our address.
func (c *Client) onPathChallenge(now time.Time, h proto.Header, b []byte) {
	d, err := proto.ParsePathBody(h, b)
	if err != nil {
		c.m.dropped++
		return
	}
	c.hear(now, h.Seq)
	c.send(&proto.PathResponse{Header: c.sess.header(), Data: d})
}

// hear notes a valid datagram from the server: a sign of life, and a
// sequence number for the loss estimate.
func (c *Client) hear(now time.Time, seq uint32) {
	c.sess.hear(now)
	c.link.noteSeq(seq)
}

func (c *Client) onChallenge(now time.Time, h proto.Header, b []byte) {
	ch, err := proto.ParseChallengeBody(h, b)
	if st := c.sess.state(); err != nil || st == StatusClosed || st == StatusWaiting || !c.hs.challenged(now, ch.Cookie) {
		c.m.dropped++
		return
	}
	c.hear(now, ch.Seq)
	c.link.sampleRTT(c.hs.roundTrip())
	c.send(c.hs.join(c.cfg.Entropy))
}

func (c *Client) onReject(now time.Time, h proto.Header, b []byte) {
	r, err := proto.ParseRejectBody(h, b)
	if err != nil {
		c.m.dropped++
		return
	}
	c.hear(now, r.Seq)
	if c.sess.rejected(r.Reason, c.cfg.Spectate, c.tl.current() == nil) {
		c.hs.staleCookie()
	}
}

func (c *Client) onLeave(now time.Time, h proto.Header, b []byte) {
	l, err := proto.ParseLeaveBody(h, b)
	if err != nil {
		c.m.dropped++
		return
	}
	c.sess.left(&l)
}

// onChatLine takes a ChatLine of the room.
func (c *Client) onChatLine(now time.Time, h proto.Header, b []byte) {
	l, err := proto.ParseChatLineBody(h, b)
	if err != nil {
		c.m.dropped++
		return
	}
	if l.Seq != 0 {
		// Every copy is acknowledged: the ack of an earlier one may be
		// what was lost.
		c.send(&proto.ChatAck{Header: c.sess.header(), Seq: l.Seq})
	}
	c.chat.heard(c.sess.matchID(), &l)
}

// onStart handles Start. It is idempotent: a repeat of the match we are in
// only refreshes the roster; a new match re-aligns the tick, clears the
// clock and every history, and rebuilds the world.
func (c *Client) onStart(now time.Time, h proto.Header, b []byte) {
	st, err := proto.ParseStartBody(h, b)
	if err != nil {
		c.m.dropped++
		return
	}
	if c.sess.state() == StatusClosed {
		return
	}
	c.hear(now, st.Seq)
	kind, newMatch := c.sess.started(&st, c.tl.current() != nil, c.hs.resumeKey())
	if newMatch {
		// A new match (or server): nothing of the old one carries over.
		c.tl.reset()
		c.sync.reset(0)
		c.link.reset()
		c.server.forget()
	}
	if kind != startNew {
		return
	}
	c.tl.reset()
	c.sync.reset(st.StartTick)
	c.server.forget()
	if st.WorldSeed == 0 || st.ServerTick.After(st.StartTick) {
		return // joining a running match: the first State builds the world
	}
	w, err := game.NewWorld(game.Config{Slots: int(st.Slots), Seed: st.WorldSeed,
		MazeW: int(st.MazeW), MazeH: int(st.MazeH), StartTick: st.StartTick, Rounds: int(st.Rounds)})
	if err != nil {
		c.m.dropped++
		return
	}
	for i := 0; i < int(st.Slots); i++ {
		if st.Roster[i].Name == "" {
			w.Seat(i, false) // a match started with free seats: as the server's world
		}
	}
	c.tl.adopt(w)
	if c.sess.seat() >= 0 {
		c.sync.place(c.sync.startOffset(&st, c.link.rtt()))
	}
}

func (c *Client) onAck(now time.Time, h proto.Header, b []byte) {
	a, err := proto.ParseAckBody(h, b)
	if err != nil {
		c.m.dropped++
		return
	}
	if a.Match != c.sess.matchID() || !c.sess.addressee(a.Player) {
		c.m.dropped++
		return
	}
	c.hear(now, a.Seq)
	c.noteAck(now, &a.AckInfo)
}

// noteAck takes the server's report, from an Ack or a State: its tick, RTT
// echo, arrival margin, receive count and guessed ticks.
func (c *Client) noteAck(now time.Time, a *proto.AckInfo) {
	c.server.reported(a.ServerTick, now)
	if c.sess.seat() < 0 {
		c.link.echo(c.ms.at(now), a) // a spectator's RTT, from its keep-alives
		return
	}
	c.link.noteGuessed(a.Guessed)
	if c.link.sentInputs() == 0 {
		return
	}
	sent := c.link.echo(c.ms.at(now), a)
	if sent == nil {
		return // an echo of a datagram we no longer know
	}
	// The margin belongs to the Input datagram the server echoes (the one
	// that arrived last, late ones included): one sample per datagram,
	// ignoring those sent before the last jump.
	if !sent.sampled {
		sent.sampled = true
		c.sync.sample(sent.newest, a.MarginMs)
		c.link.noteMargin(a.MarginMs)
	}
	c.link.noteReceived(sent.count, a.Received)
	c.sync.setLoss(c.link.upLoss())
	c.sync.setRTT(c.link.rtt())
}

// onState applies an authoritative State, in this order: decode; identity;
// freshness; hash; accept; remote prediction; rollback check; restore and
// replay.
func (c *Client) onState(now time.Time, h proto.Header, b []byte) {
	st := &c.st
	if err := proto.ParseStateBody(h, b, st); err != nil {
		c.m.dropped++
		return
	}
	if st.Match != c.sess.matchID() || !c.sess.addressee(st.Player) {
		c.m.dropped++
		return
	}
	if c.cfg.OnState != nil {
		c.cfg.OnState(st.Snapshot.Tick)
	}
	if c.sess.state() != StatusPlaying {
		return
	}
	auth := &st.Snapshot
	if !c.tl.fresh(auth.Tick) {
		c.m.staleStates++
		if st.Delta() || game.Hash(auth) == st.Hash {
			c.hear(now, st.Seq) // a genuine late State still arrived: count it for loss
		}
		return
	}
	began := c.cfg.Clock.Now()
	if st.Delta() {
		if c.cfg.Light {
			c.applyLight(now, st) // a light client holds no baseline: it takes the tick
			return
		}
		rebuilt, res := c.tl.rebuild(st)
		if res != rebuildOK {
			// A baseline we no longer hold (or never did): name none
			// until a whole State comes.
			c.m.baseMisses++
			c.tl.forgetBases()
			return
		}
		auth = rebuilt
	}
	if game.Hash(auth) != st.Hash {
		c.m.hashMismatches++
		if st.Delta() {
			// Our baseline and the server's differ: a delta against any of
			// ours may be wrong too, so name none until a whole State.
			c.tl.forgetBases()
		}
		if c.cfg.OnDesync != nil {
			c.cfg.OnDesync(auth, st.Hash, c.tl.snapshot(auth.Tick))
		}
		return
	}
	if c.server.implausible(now, auth.Tick) {
		c.m.dropped++ // far beyond the server's clock as we know it: forged
		return
	}
	if int(auth.Slots) != c.sess.seats() {
		c.m.slotMismatches++
		return
	}
	c.hear(now, st.Seq) // a genuine State of our session and match: the server lives
	c.noteAck(now, &st.AckInfo)
	if st.Delta() {
		c.m.deltaStates++
	} else {
		c.m.fullStates++
	}
	if c.tl.current() != nil && auth.Tick.Diff(c.tl.tick()) > syncJumpTicks {
		// Far behind, the margins the server reported for our old inputs
		// say nothing about where we are now: forget them, or the next
		// jump would leap by the whole gap.
		c.sync.forget(auth.Tick)
	}
	r, err := c.tl.apply(auth, c.sess.seat())
	if err != nil {
		c.m.dropped++
		return
	}
	if r.rollback {
		c.m.rollbacks++
	}
	if r.resync {
		c.m.resyncs++
	}
	if r.replayed > 0 {
		cost := c.cfg.Clock.Now().Sub(began)
		c.m.replayLast = r.replayed
		c.m.replayMax = max(c.m.replayMax, r.replayed)
		c.m.replayCostLast = cost
		c.m.replayCost.add(float64(cost))
		c.m.replaySpark.add(float64(cost) / float64(time.Microsecond))
	}
}

// applyLight takes a delta State on a light client: it cannot rebuild
// the snapshot (it keeps none), so it takes the State's report and tick
// and trusts the rest, as the sealing lets it.
func (c *Client) applyLight(now time.Time, st *proto.State) {
	if c.tl.current() == nil {
		c.m.baseMisses++ // no first State yet: nothing to take a tick into
		return
	}
	if c.server.implausible(now, st.Snapshot.Tick) {
		c.m.dropped++
		return
	}
	c.hear(now, st.Seq)
	c.noteAck(now, &st.AckInfo)
	c.m.deltaStates++
	if _, err := c.tl.apply(&st.Snapshot, c.sess.seat()); err != nil {
		c.m.dropped++
	}
}

// SnapshotAt returns the client's snapshot for tick t (its latest
// prediction or the authoritative state), if its history still holds it.
func (c *Client) SnapshotAt(t game.Tick) (game.Snapshot, bool) {
	if p := c.tl.snapshot(t); p != nil {
		return *p, true
	}
	return game.Snapshot{}, false
}

// onRedirect follows a Redirect from the server: a fresh handshake with
// the target, trusted by the key the Redirect vouches for, asking for the
// room it names. Only a session still being placed follows one.
func (c *Client) onRedirect(now time.Time, h proto.Header, b []byte) {
	rd, err := proto.ParseRedirectBody(h, b)
	if err != nil || c.sess.state() != StatusConnecting {
		c.m.dropped++
		return
	}
	if !c.hop.follow(&rd, c.cfg.Server, c.sess.asked()) {
		c.sess.end(fmt.Errorf("sent from server to server %d times: the fleet cannot place us", maxHops+1))
		return
	}
	c.cfg.Server = rd.Addr
	room := RoomRequest{Kind: roomKindOf(rd.Kind), Name: rd.Room, Spectate: c.cfg.Spectate,
		Spec: RoomSpec{Name: rd.Room, Seats: int(rd.Seats), Bots: int(rd.Bots), Private: rd.Private, Casual: rd.Casual}}
	c.sess.redirect(room)
	c.hs.restart(now)
	c.link.reset()
	c.hear(now, 0)
}

// goBack takes a redirected session whose server went silent back to
// the server it first asked, as a new session there.
func (c *Client) goBack(now time.Time, after time.Duration) bool {
	gone := c.cfg.Server
	entry, room, ok := c.hop.returning(c.sess.silence(now), after)
	if !ok {
		return false
	}
	c.cfg.Server = entry
	c.sess.rejoin(room, fmt.Sprintf("server %v stopped answering: joining again through %v", gone, entry))
	c.hs.restart(now)
	c.tl.reset()
	c.sync.reset(0)
	c.link.reset()
	c.server.forget()
	c.hear(now, 0)
	return true
}
