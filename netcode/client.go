package netcode

import (
	"errors"
	"fmt"
	"math"
	"net/netip"
	"time"

	"ttytanks/game"
	"ttytanks/proto"
)

// helloEvery is how often a connecting client repeats its Hello or Join.
const helloEvery = 250 * time.Millisecond

// rollbackThreshold is how far, in sub-tiles, the local tank's predicted
// position may be from the authoritative one before a State counts as a
// rollback (1/16 tile).
const rollbackThreshold = game.SubTile / 16

// ClientConfig configures a Client.
type ClientConfig struct {
	// Server is the server's address.
	Server netip.AddrPort
	// Session identifies this client; it must be random (the driver draws
	// one from crypto/rand when zero).
	Session uint64
	// Name is the player name the server shows (sanitised by the server).
	Name string
	// Spectate joins without taking a seat.
	Spectate bool
	// Redundancy is how many of the newest inputs each Input datagram
	// carries (default proto.DefaultRedundancy, at most proto.MaxInputs).
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
	// ConnectTimeout ends a connection attempt the server never answers
	// (default 5 s).
	ConnectTimeout time.Duration
}

// Silence thresholds: after SilenceReconnecting without a datagram from the
// server the client shows "reconnecting" and stops predicting; after
// SilenceGone it gives up.
const (
	SilenceReconnecting = 3 * time.Second
	SilenceGone         = 20 * time.Second
)

// Client is the predicting client core. It does no IO: Receive takes a
// datagram, Advance runs the ticks the clock says are due; both return the
// datagrams to send (valid until the next call). Not safe for concurrent
// use; the driver serialises calls.
type Client struct {
	cfg     ClientConfig
	status  Status
	message string
	pred    RemotePredictor

	// handshake
	cookie    proto.Cookie
	hasCookie bool
	nextHello time.Time
	token     proto.Token

	// match
	match      uint32
	slot       int
	slots      int
	need       int
	names      [game.MaxPlayers]string
	connected  [game.MaxPlayers]bool
	reconnects int
	startTick  game.Tick
	seq        uint32

	// timelines
	world  *game.World
	inputs *Ring[game.Input]
	snaps  *Ring[game.Snapshot]
	// firstLocal is the local tank as first predicted for each tick.
	firstLocal *Ring[game.Tank]
	lastAuth   game.Tick
	haveAuth   bool
	clock      Clock
	all        []game.Input
	st         proto.State // decode buffer
	inPkt      proto.Input // encode buffer for Input datagrams

	// clock sync
	margins     *window
	sentAny     bool      // an Input datagram has been sent
	lastCT      uint16    // the ClientTime of the last one
	marginFrom  game.Tick // margin samples for older inputs predate the last jump
	marginLow   float64   // cached low quantile of margins
	marginDirty bool
	skip        int // ticks still to skip (we ran too far ahead)
	spectTick   int

	m             clientMetrics
	out           []Datagram
	arena         []byte
	epoch         time.Time
	lastNow       time.Time
	heard         time.Time // last datagram from the server (or the first attempt)
	nextKeepAlive time.Time
}

// clientMetrics is the state behind Metrics.
type clientMetrics struct {
	serverTick       game.Tick
	haveServerTick   bool
	serverTickAt     time.Time // when serverTick was reported
	rollbacks        uint64
	replayLast       int
	replayMax        int
	replayCost       *window
	replayCostLast   time.Duration
	srtt             ewma
	margin           ewma
	hashMismatches   uint64
	resyncs          uint64
	up, down         rate
	rttSpark         spark
	replaySpark      spark
	lastSpark        time.Time
	dropped          uint64 // datagrams ignored: malformed, foreign, out of place
	staleStates      uint64
	downSeen         *Ring[bool]
	downMax          uint32
	downHave         bool
	downExp, downGot float64
	sentAt           *Ring[sentInfo] // what we had sent, by ClientTime
	sent             uint32
	upBase           [2]uint32 // (sent, received) at the base of the window
	upHave           bool
	lossUp           float64
	lastRecv         uint16
	recvExt          uint32 // Received, extended past its 16-bit wrap
	datagramsUp      uint64
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
	c := &Client{cfg: cfg, slot: -1, pred: cfg.Predictor, margins: newWindow(45),
		inputs: NewRing[game.Input](cfg.History), snaps: NewRing[game.Snapshot](cfg.History),
		firstLocal: NewRing[game.Tank](cfg.History)}
	if c.pred == nil {
		c.pred = &VelocityPredictor{}
	}
	c.m.replayCost = newWindow(512)
	c.m.rttSpark, c.m.replaySpark = newSpark(), newSpark()
	c.m.downSeen = NewRing[bool](1024)
	c.m.sentAt = NewRing[sentInfo](4096)
	return c
}

// Status returns where the client is in its life cycle.
func (c *Client) Status() Status { return c.status }

// Slot returns our seat, or -1 (spectating or not yet seated).
func (c *Client) Slot() int { return c.slot }

// World returns the predicted world, or nil before the match starts. It
// must not be modified.
func (c *Client) World() *game.World { return c.world }

// Close ends the session: it returns a Leave for the server and moves to
// StatusClosed with msg.
func (c *Client) Close(msg string) []Datagram {
	c.begin()
	if c.status != StatusClosed && c.match != 0 {
		c.send(&proto.Leave{Header: c.header(), Reason: proto.LeaveQuit})
	}
	c.status, c.message = StatusClosed, msg
	return c.out
}

func (c *Client) begin() { c.out, c.arena = c.out[:0], c.arena[:0] }

func (c *Client) header() proto.Header {
	h := proto.Header{Session: c.cfg.Session, Match: c.match, Player: proto.SpectatorSlot}
	if c.slot >= 0 {
		h.Player = uint8(c.slot)
	}
	return h
}

func (c *Client) send(pkt packet) {
	c.seq++
	pkt.Head().Seq = c.seq
	start := len(c.arena)
	c.arena = pkt.Append(c.arena)
	c.out = append(c.out, Datagram{Addr: c.cfg.Server, Data: c.arena[start:len(c.arena):len(c.arena)]})
	c.m.up.add(c.lastNow, len(c.arena)-start)
	c.m.datagramsUp++
}

// clientTime is our clock in ms for RTT echoes.
func (c *Client) clientTime(now time.Time) uint16 {
	if c.epoch.IsZero() {
		c.epoch = now
	}
	return uint16(now.Sub(c.epoch).Milliseconds())
}

// Advance runs the client up to now: the handshake's retries, or the
// ticks that are due with in as the local input (its Tick is ignored).
func (c *Client) Advance(now time.Time, in game.Input) []Datagram {
	c.begin()
	c.lastNow = now
	c.clientTime(now)
	c.m.up.tick(now)
	c.m.down.tick(now)
	if c.heard.IsZero() {
		c.heard = now
	}
	silence := now.Sub(c.heard)
	switch c.status {
	case StatusConnecting:
		if silence > c.cfg.ConnectTimeout {
			c.status = StatusClosed
			c.message = fmt.Sprintf("no answer from %v after %v: is a ttytanks server running there?", c.cfg.Server, c.cfg.ConnectTimeout)
			return c.out
		}
		if !now.Before(c.nextHello) {
			c.nextHello = now.Add(helloEvery)
			if c.hasCookie {
				c.sendJoin()
			} else {
				c.send(&proto.Hello{Header: proto.Header{Session: c.cfg.Session}})
			}
		}
	case StatusWaiting, StatusReconnecting:
		if silence > SilenceGone {
			c.status, c.message = StatusClosed, fmt.Sprintf("the server at %v is gone (nothing heard for %v)", c.cfg.Server, SilenceGone)
			return c.out
		}
		if c.status == StatusWaiting && !now.Before(c.nextKeepAlive) {
			// In the lobby nothing else goes up: tell the server we are
			// still here, so it keeps our seat.
			c.nextKeepAlive = now.Add(time.Second)
			p := proto.Input{Header: c.header(), ClientTime: c.clientTime(now), N: 1}
			p.Inputs[0] = game.Neutral(c.startTick)
			c.send(&p)
		}
		if c.status == StatusReconnecting && !now.Before(c.nextHello) {
			// Knock again: a fresh challenge, then a Join with our token,
			// resumes the seat (from a new address too).
			c.nextHello = now.Add(helloEvery)
			c.hasCookie = false
			c.send(&proto.Hello{Header: proto.Header{Session: c.cfg.Session}})
		}
	case StatusPlaying:
		if silence > SilenceReconnecting {
			c.status, c.message = StatusReconnecting, "no word from the server: reconnecting…"
			c.nextHello = now
			return c.out
		}
		if c.world == nil {
			return c.out
		}
		due := c.clock.Advance(now)
		if adj := c.syncAdjust(); adj < 0 {
			c.skip += -adj
		} else {
			due += adj
		}
		k := min(due, c.skip)
		due, c.skip = due-k, c.skip-k
		for i := 0; i < due; i++ {
			c.step(now, in)
		}
		if now.Sub(c.m.lastSpark) >= 250*time.Millisecond && c.m.srtt.ok {
			c.m.lastSpark = now
			c.m.rttSpark.w.add(c.m.srtt.v / float64(time.Millisecond))
		}
	}
	return c.out
}

func (c *Client) sendJoin() {
	c.send(&proto.Join{Header: proto.Header{Session: c.cfg.Session}, Cookie: c.cookie, Token: c.token,
		Spectate: c.cfg.Spectate, Name: c.cfg.Name})
}

// step predicts one tick: store the local input, guess the others, step,
// store the snapshot, send the newest inputs.
func (c *Client) step(now time.Time, in game.Input) {
	w := c.world
	t := w.Tick()
	if c.slot < 0 {
		// Spectators show the server's States as they come; every 15 ticks
		// they send a keep-alive so the server keeps them.
		if c.spectTick++; c.spectTick%15 == 0 {
			p := proto.Input{Header: c.header(), ClientTime: c.clientTime(now), N: 1}
			p.Inputs[0] = game.Neutral(t)
			c.send(&p)
		}
		return
	}
	if c.cfg.LocalInput != nil {
		in = c.cfg.LocalInput(w, c.slot)
	}
	in.Tick = t
	in = in.Clamped()
	c.inputs.Put(t, in)
	c.stepWorld(t)
	c.firstLocal.Put(t+1, c.world.State().Tanks[c.slot])
	c.sendInputs(now, t)
}

// stepWorld steps the world from tick t with the stored local input and
// predicted remote inputs, and records the snapshot at t+1.
func (c *Client) stepWorld(t game.Tick) {
	for i := range c.all {
		if i == c.slot {
			c.all[i], _ = c.inputs.Get(t)
		} else {
			c.all[i] = c.pred.Predict(i, t)
		}
		c.all[i].Tick = t
	}
	c.world.Step(c.all)
	snap := c.snaps.Ref(c.world.Tick())
	c.world.Save(snap)
	if c.cfg.OnPredict != nil {
		c.cfg.OnPredict(snap)
	}
}

func (c *Client) sendInputs(now time.Time, newest game.Tick) {
	// ClientTime names the datagram in the server's echo, so it must be
	// unique: in a burst of several ticks within one millisecond, count on.
	ct := c.clientTime(now)
	if c.sentAny && int16(ct-c.lastCT) <= 0 {
		ct = c.lastCT + 1
	}
	c.sentAny, c.lastCT = true, ct
	p := &c.inPkt // reused: sending an Input allocates nothing
	*p = proto.Input{Header: c.header(), ClientTime: ct}
	n := 0
	for k := c.cfg.Redundancy - 1; k >= 0; k-- {
		t := newest.Add(-int32(k))
		if in, ok := c.inputs.Get(t); ok {
			if n > 0 && p.Inputs[n-1].Tick.Add(1) != t {
				n = 0 // keep the run consecutive
			}
			p.Inputs[n] = in
			n++
		}
	}
	p.N = uint8(n)
	c.send(p)
	c.m.sent++
	c.m.sentAt.Put(game.Tick(p.ClientTime), sentInfo{count: c.m.sent, newest: newest})
}

// sentInfo is what the client remembers of an Input datagram: how many it
// had sent by then, and the newest tick it carried.
type sentInfo struct {
	count   uint32
	newest  game.Tick
	sampled bool // its arrival margin has been taken into clock sync
}

// Receive handles one datagram from the address from. Only datagrams
// from the server's address, with our session, are looked at; the rest are
// counted and dropped.
func (c *Client) Receive(now time.Time, from netip.AddrPort, b []byte) []Datagram {
	c.begin()
	c.lastNow = now
	if from != c.cfg.Server {
		c.m.dropped++
		return c.out
	}
	c.m.down.add(now, len(b))
	h, err := proto.ParseHeader(b)
	if err != nil {
		c.m.dropped++
		var ve *proto.VersionError
		if errors.As(err, &ve) && c.status == StatusConnecting {
			c.status = StatusClosed
			c.message = fmt.Sprintf("server speaks protocol v%d, this client v%d: upgrade the older side", ve.Got, ve.Want)
		}
		return c.out
	}
	if h.Session != c.cfg.Session {
		c.m.dropped++
		return c.out
	}
	// Each handler validates its packet and calls heard(now, seq) only for
	// a genuine one, so junk neither keeps a dead session alive nor skews
	// the loss estimate.
	switch h.Type {
	case proto.TypeChallenge:
		c.onChallenge(now, b)
	case proto.TypeStart, proto.TypeReset:
		c.onStart(now, b)
	case proto.TypeAck:
		c.onAck(now, b)
	case proto.TypeState:
		c.onState(now, b)
	case proto.TypeReject:
		c.onReject(now, b)
	case proto.TypeLeave:
		if l, err := proto.ParseLeave(b); err == nil && l.Match == c.match {
			c.status, c.message = StatusClosed, "the server ended the session: "+l.Reason.String()
		}
	default:
		c.m.dropped++
	}
	return c.out
}

// hear notes a valid datagram from the server: a sign of life, and a
// sequence number for the loss estimate.
func (c *Client) hear(now time.Time, seq uint32) {
	c.heard = now
	c.noteSeq(seq)
}

func (c *Client) onChallenge(now time.Time, b []byte) {
	ch, err := proto.ParseChallenge(b)
	if err != nil || (c.status != StatusConnecting && c.status != StatusReconnecting) {
		c.m.dropped++
		return
	}
	c.hear(now, ch.Seq)
	c.cookie, c.hasCookie = ch.Cookie, true
	c.sendJoin()
	c.nextHello = c.lastNow.Add(helloEvery)
}

func (c *Client) onReject(now time.Time, b []byte) {
	r, err := proto.ParseReject(b)
	if err != nil {
		c.m.dropped++
		return
	}
	c.hear(now, r.Seq)
	if c.status != StatusConnecting && c.status != StatusWaiting && c.status != StatusReconnecting {
		return // a stray answer to a duplicate Join
	}
	switch r.Reason {
	case proto.RejectBadCookie:
		c.hasCookie = false // start the handshake over
		return
	case proto.RejectFull:
		c.message = "the server is full"
	case proto.RejectVersion:
		c.message = "the server speaks another protocol version: upgrade the older side"
	default:
		c.message = "the server refused us: " + r.Reason.String()
	}
	c.status = StatusClosed
}

// onStart handles Start and Reset. Both are idempotent: a repeat of the
// match we are in only refreshes the roster; a new match (or a Reset to
// another start tick) re-aligns the tick, clears the clock and every
// history, and rebuilds the world.
func (c *Client) onStart(now time.Time, b []byte) {
	st, err := proto.ParseStart(b)
	if err != nil {
		c.m.dropped++
		return
	}
	if c.status == StatusClosed {
		return
	}
	c.hear(now, st.Seq)
	c.slots, c.need, c.token = int(st.Slots), int(st.Need), st.Token
	for i := range c.names {
		c.names[i], c.connected[i] = "", false
		if i < c.slots {
			c.names[i], c.connected[i] = st.Roster[i].Name, st.Roster[i].Connected
		}
	}
	if c.status == StatusReconnecting {
		c.reconnects++
		c.status, c.message = StatusPlaying, ""
		c.clock.Reset() // no burst of catch-up ticks; clock sync re-leads
	}
	c.slot = -1
	if st.Slot != proto.SpectatorSlot {
		c.slot = int(st.Slot)
	}
	// A repeat of the Start (or Reset) of the match we are playing: only
	// the roster was news.
	same := c.status == StatusPlaying && c.world != nil && c.match == st.Match && c.startTick == st.StartTick
	if st.Need > 0 && c.match == st.Match && (c.status == StatusPlaying || c.status == StatusReconnecting) {
		return // a delayed Start from the lobby: a running match never goes back
	}
	if c.match != st.Match {
		c.resetTimeline() // a new match (or server): nothing of the old one carries over
		c.resetLinkMetrics()
	}
	c.match = st.Match
	if st.Need > 0 {
		c.status = StatusWaiting
		return
	}
	if same {
		return
	}
	c.startTick = st.StartTick
	c.resetTimeline()
	c.status = StatusPlaying
	if st.WorldSeed != 0 {
		// A fresh match: every peer builds the same world from the seed.
		w, err := game.NewWorld(game.Config{Slots: c.slots, Seed: st.WorldSeed,
			MazeW: int(st.MazeW), MazeH: int(st.MazeH), StartTick: st.StartTick})
		if err != nil {
			c.m.dropped++
			return
		}
		c.adopt(w)
	}
	// Otherwise (joining a match in progress) the first State builds it.
}

// resetTimeline forgets the world, the histories and the clock.
func (c *Client) resetTimeline() {
	c.world = nil
	c.inputs.Clear()
	c.snaps.Clear()
	c.firstLocal.Clear()
	c.haveAuth, c.m.haveServerTick = false, false
	c.margins.reset()
	c.clock.Reset()
	c.clock.SetRate(1)
	c.skip = 0
	if r, ok := c.pred.(interface{ Reset() }); ok {
		r.Reset()
	}
}

// resetLinkMetrics forgets the baselines of the loss estimates: a new
// match may be a new server, whose sequence numbers and receive counts
// start over.
func (c *Client) resetLinkMetrics() {
	m := &c.m
	m.downSeen.Clear()
	m.downHave, m.downMax, m.downExp, m.downGot = false, 0, 0, 0
	m.upHave, m.lastRecv, m.recvExt, m.lossUp = false, 0, 0, 0
	m.sentAt.Clear()
}

// adopt makes w the predicted world.
func (c *Client) adopt(w *game.World) {
	c.world = w
	c.marginFrom = w.Tick()
	c.all = make([]game.Input, w.Slots())
	c.world.Save(c.snaps.Ref(w.Tick()))
}

func (c *Client) onAck(now time.Time, b []byte) {
	a, err := proto.ParseAck(b)
	if err != nil {
		c.m.dropped++
		return
	}
	if a.Match != c.match || !c.isUs(a.Player) {
		c.m.dropped++
		return
	}
	c.hear(now, a.Seq)
	c.noteAck(now, &a.AckInfo)
}

func (c *Client) isUs(player uint8) bool {
	if c.slot < 0 {
		return player == proto.SpectatorSlot
	}
	return int(player) == c.slot
}

// noteAck takes the server's report: its tick, RTT echo, arrival margin and
// receive count.
func (c *Client) noteAck(now time.Time, a *proto.AckInfo) {
	if !c.m.haveServerTick || a.ServerTick.After(c.m.serverTick) {
		c.m.serverTick, c.m.serverTickAt, c.m.haveServerTick = a.ServerTick, now, true
	}
	if c.slot < 0 || c.m.sent == 0 {
		return
	}
	// RTT: our clock now, minus the echoed send time, minus the server's hold.
	// A saturated hold (the server has had nothing new from us for 0.65 s)
	// makes the sample meaningless; a slightly negative one is clock
	// granularity (ms echoes, 10 µs holds) and counts as zero.
	rtt := time.Duration(uint16(c.clientTime(now)-a.EchoTime))*time.Millisecond -
		time.Duration(a.EchoDelay)*10*time.Microsecond
	if a.EchoDelay != math.MaxUint16 && rtt > -time.Millisecond && rtt < 10*time.Second {
		c.m.srtt.alpha = 1.0 / 8
		c.m.srtt.add(float64(max(rtt, 0)))
	}
	sent := c.m.sentAt.Lookup(game.Tick(a.EchoTime))
	if sent == nil {
		return // an echo of a datagram we no longer know
	}
	// The margin belongs to the Input datagram the server echoes (the one
	// that arrived last, late ones included): one sample per datagram,
	// ignoring those sent before the last jump.
	if !sent.sampled {
		sent.sampled = true
		if !sent.newest.Before(c.marginFrom) {
			c.margins.add(float64(a.MarginMs))
			c.marginDirty = true
		}
		c.m.margin.alpha = 1.0 / 16
		c.m.margin.add(float64(a.MarginMs))
	}
	// Loss up: datagrams the server got against those we had sent up to the
	// one it echoes.
	{
		sent := sent.count
		d := int16(a.Received - c.m.lastRecv)
		if c.m.upHave && d <= 0 {
			return // a reordered or duplicated Ack: nothing newer
		}
		c.m.recvExt += uint32(uint16(d))
		c.m.lastRecv = a.Received
		recv := c.m.recvExt
		if !c.m.upHave {
			c.m.upBase, c.m.upHave = [2]uint32{sent, recv}, true
		} else if ds := sent - c.m.upBase[0]; ds >= 60 {
			dr := recv - c.m.upBase[1]
			c.m.lossUp = max(0, 1-float64(dr)/float64(ds))
			if ds >= 1200 { // slide the window
				c.m.upBase = [2]uint32{sent - ds/2, recv - dr/2}
			}
		}
	}
}

// noteSeq counts a datagram from the server for the loss-down estimate.
func (c *Client) noteSeq(seq uint32) {
	m := &c.m
	t := game.Tick(seq)
	if m.downSeen.Has(t) {
		return // duplicate
	}
	m.downSeen.Put(t, true)
	if !m.downHave {
		m.downHave, m.downMax = true, seq
		m.downGot, m.downExp = 1, 1
		return
	}
	if d := int32(seq - m.downMax); d > 0 {
		m.downExp += float64(d)
		m.downMax = seq
	}
	m.downGot++
	if m.downExp > 2400 { // halve both: a long, sliding horizon
		m.downExp, m.downGot = m.downExp/2, m.downGot/2
	}
}

// onState applies an authoritative State, in this order: decode; identity;
// freshness; hash; accept; remote prediction; rollback check; restore and
// replay.
func (c *Client) onState(now time.Time, b []byte) {
	st := &c.st
	if err := proto.ParseState(b, st); err != nil {
		c.m.dropped++
		return
	}
	if st.Match != c.match || !c.isUs(st.Player) {
		c.m.dropped++
		return
	}
	if c.status != StatusPlaying {
		return
	}
	auth := &st.Snapshot
	ta := auth.Tick
	if c.haveAuth && !ta.After(c.lastAuth) {
		c.m.staleStates++
		if game.Hash(auth) == st.Hash {
			c.hear(now, st.Seq) // a genuine late State still arrived: count it for loss
		}
		return
	}
	if game.Hash(auth) != st.Hash || int(auth.Slots) != c.slots {
		c.m.hashMismatches++
		return
	}
	c.hear(now, st.Seq) // a genuine State of our session and match: the server lives
	c.lastAuth, c.haveAuth = ta, true
	c.noteAck(now, &st.AckInfo)
	present := auth.Tick // a client still without a world is at the State
	if c.world != nil && c.world.Tick().After(present) {
		present = c.world.Tick()
	}
	c.pred.Update(auth, present)
	if c.world == nil {
		w, err := game.NewWorld(game.Config{Slots: int(auth.Slots), MazeW: int(auth.Round.MazeW), MazeH: int(auth.Round.MazeH)})
		if err != nil {
			c.m.dropped++
			return
		}
		w.Restore(auth)
		c.adopt(w)
		return
	}
	if c.slot < 0 {
		c.world.Restore(auth)
		return
	}
	// A rollback is a State that contradicts what the player was shown of
	// their own tank: the first prediction for that tick.
	if first := c.firstLocal.Lookup(ta); first != nil && localDiffers(first, &auth.Tanks[c.slot]) {
		c.m.rollbacks++
	}
	local := c.world.Tick()
	if !ta.Before(local) {
		// The server is ahead of us (just started, joined late, back from
		// an outage): take its state; no local input is lost, and clock
		// sync moves us ahead. Far behind, the margins the server reported
		// for our old inputs say nothing about where we are now: forget
		// them, or the next jump would leap by the whole gap.
		if ta.Diff(local) > syncJumpTicks {
			c.margins.reset()
			c.marginDirty = true
			c.marginFrom = ta
		}
		c.world.Restore(auth)
		*c.snaps.Ref(ta) = *auth
		return
	}
	for t := ta; t != local; t++ {
		if !c.inputs.Has(t) {
			c.resync(auth) // never invent a local input
			return
		}
	}
	start := time.Now()
	c.world.Restore(auth)
	*c.snaps.Ref(ta) = *auth
	for t := ta; t != local; t++ {
		c.stepWorld(t)
	}
	cost := time.Since(start)
	n := int(local.Diff(ta))
	c.m.replayLast = n
	c.m.replayMax = max(c.m.replayMax, n)
	c.m.replayCostLast = cost
	c.m.replayCost.add(float64(cost))
	c.m.replaySpark.w.add(float64(cost) / float64(time.Microsecond))
}

// resync restarts the local timeline from an authoritative snapshot: the
// histories are cleared and the clock sync brings the lead back.
func (c *Client) resync(auth *game.Snapshot) {
	c.m.resyncs++
	c.world.Restore(auth)
	c.inputs.Clear()
	c.snaps.Clear()
	c.firstLocal.Clear()
	*c.snaps.Ref(auth.Tick) = *auth
}

// localDiffers reports whether the local tank's prediction missed: position
// beyond rollbackThreshold, or HP, hitstun or life differ.
func localDiffers(p, a *game.Tank) bool {
	dx, dy := p.X-a.X, p.Y-a.Y
	return dx > rollbackThreshold || dx < -rollbackThreshold || dy > rollbackThreshold || dy < -rollbackThreshold ||
		p.HP != a.HP || p.Hitstun != a.Hitstun || p.Alive != a.Alive
}

// SnapshotAt returns the client's snapshot for tick t (its latest
// prediction or the authoritative state), if its history still holds it.
func (c *Client) SnapshotAt(t game.Tick) (game.Snapshot, bool) {
	if p := c.snaps.Lookup(t); p != nil {
		return *p, true
	}
	return game.Snapshot{}, false
}
