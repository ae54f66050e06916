package netcode

import (
	"math"
	"time"

	"ttytanks/game"
	"ttytanks/proto"
)

// linkStats measures the client's link to the server from what crosses
// it: the RTT (from the server's echoes of our Input times), the loss each
// way (distinct sequence numbers against those sent, so duplicates cannot
// hide loss), bandwidth, and the arrival margins the server reports. It
// also remembers each Input datagram sent, by ClientTime, for the echoes.
type linkStats struct {
	srtt      ewma
	margin    ewma    // arrival margin, ms, smoothed for display
	margins   *window // the last arrival margins, ms, for p5 and median
	up, down  rate
	rttSpark  spark
	lastSpark time.Time
	// loss down: distinct server sequence numbers against the span seen
	downSeen         *Ring[bool]
	downMax          uint32
	downHave         bool
	downExp, downGot float64
	// loss up: distinct Input datagrams the server counted against those
	// sent, up to the one it echoes
	sentAt      *Ring[sentInfo]
	sent        uint32
	upBase      [2]uint32 // (sent, received) at the base of the window
	upHave      bool
	upRestart   bool   // the window starts again at the first echo of datagram upFrom or later
	upFrom      uint32 // (restartLoss)
	upSpan      uint32 // the most datagrams the window has spanned
	lossUp      float64
	lastRecv    uint16
	recvExt     uint32 // Received, extended past its 16-bit wrap
	datagramsUp uint64
	// guessed: the server's count of our ticks it had to guess
	guessed     uint64
	lastGuessed uint16
	// wokeCT is our ms clock when the client last woke from a freeze
	// (woke set): echoes of datagrams sent before it waited in the socket
	// through the freeze and measure no round trip.
	wokeCT uint16
	woke   bool
}

// sentInfo is what the client remembers of an Input datagram: how many it
// had sent by then, and the newest tick it carried.
type sentInfo struct {
	count   uint32
	newest  game.Tick
	sampled bool // its arrival margin has been taken into clock sync
}

func newLinkStats() linkStats {
	return linkStats{margins: newWindow(256), rttSpark: newSpark(), downSeen: NewRing[bool](1024),
		sentAt: NewRing[sentInfo](4096), srtt: newEWMA(1.0 / 8), margin: newEWMA(1.0 / 16)}
}

// reset forgets the baselines of the loss estimates: a new match may be a
// new server, whose sequence numbers and receive counts start over.
func (l *linkStats) reset() {
	l.downSeen.Clear()
	l.downHave, l.downMax, l.downExp, l.downGot = false, 0, 0, 0
	l.upHave, l.upSpan, l.lastRecv, l.recvExt, l.lossUp = false, 0, 0, 0, 0
	l.upRestart = false
	l.sentAt.Clear()
	l.margins.reset()
	l.guessed, l.lastGuessed = 0, 0
}

// sentUp counts n bytes sent at now.
func (l *linkStats) sentUp(now time.Time, n int) {
	l.up.add(now, n)
	l.datagramsUp++
}

// sentInput remembers an Input datagram sent with ClientTime ct whose
// newest input is for tick newest.
func (l *linkStats) sentInput(ct uint16, newest game.Tick) {
	l.sent++
	l.sentAt.Put(game.Tick(ct), sentInfo{count: l.sent, newest: newest})
}

// received counts n bytes from the server at now.
func (l *linkStats) received(now time.Time, n int) { l.down.add(now, n) }

// tick lets the bandwidth windows roll over at now, and samples the RTT
// sparkline four times a second.
func (l *linkStats) tick(now time.Time) {
	l.up.tick(now)
	l.down.tick(now)
	if rtt, ok := l.srtt.value(); ok && now.Sub(l.lastSpark) >= 250*time.Millisecond {
		l.lastSpark = now
		l.rttSpark.add(rtt / float64(time.Millisecond))
	}
}

// noteSeq counts a genuine datagram from the server for the loss-down
// estimate; a repeated sequence number counts once.
func (l *linkStats) noteSeq(seq uint32) {
	t := game.Tick(seq)
	if l.downSeen.Has(t) {
		return // duplicate
	}
	l.downSeen.Put(t, true)
	if !l.downHave {
		l.downHave, l.downMax = true, seq
		l.downGot, l.downExp = 1, 1
		return
	}
	if d := int32(seq - l.downMax); d > 0 {
		l.downExp += float64(d)
		l.downMax = seq
	}
	l.downGot++
	if l.downExp > 2400 { // halve both: a long, sliding horizon
		l.downExp, l.downGot = l.downExp/2, l.downGot/2
	}
}

// noteGuessed takes the server's wrapping count of our guessed ticks.
func (l *linkStats) noteGuessed(g uint16) {
	switch d := int16(g - l.lastGuessed); {
	case d > 0:
		l.guessed += uint64(d)
		l.lastGuessed = g
	case d < -1000: // the server's count restarted (a reconnect took the seat afresh)
		l.guessed += uint64(g)
		l.lastGuessed = g
	}
}

// lossDown returns the estimated loss server → client, 0..1.
func (l *linkStats) lossDown() float64 {
	if l.downExp <= 0 {
		return 0
	}
	return max(0, 1-l.downGot/l.downExp)
}

// echo takes the RTT echo of an Ack at now (ms clock ct) and returns what
// we remember of the Input datagram it echoes, or nil.
func (l *linkStats) echo(ct uint16, a *proto.AckInfo) *sentInfo {
	if l.woke && int16(a.EchoTime-l.wokeCT) < 0 {
		return nil // sent before a freeze, answered during it
	}
	// RTT: our clock now, minus the echoed send time, minus the server's
	// hold. A saturated hold (the server has had nothing new from us for
	// 0.65 s) makes the sample meaningless; a slightly negative one is
	// clock granularity (ms echoes, 10 µs holds) and counts as zero.
	rtt := time.Duration(uint16(ct-a.EchoTime))*time.Millisecond -
		time.Duration(a.EchoDelay)*10*time.Microsecond
	if a.EchoDelay != math.MaxUint16 && rtt > -time.Millisecond && rtt < 10*time.Second {
		l.srtt.add(float64(max(rtt, 0)))
	}
	return l.sentAt.Lookup(game.Tick(a.EchoTime))
}

// wake notes that the client woke from a freeze at our ms clock ct.
func (l *linkStats) wake(ct uint16) { l.wokeCT, l.woke = ct, true }

// sampleRTT adds a round-trip sample measured outside the Acks (the
// handshake's), while there is none from them.
func (l *linkStats) sampleRTT(d time.Duration) {
	if _, ok := l.srtt.value(); !ok && d > 0 && d < 10*time.Second {
		l.srtt.add(float64(d))
	}
}

// rtt returns the smoothed RTT (0 before any sample).
func (l *linkStats) rtt() time.Duration {
	v, _ := l.srtt.value()
	return time.Duration(v)
}

// noteMargin records an arrival margin, in ms.
func (l *linkStats) noteMargin(ms int16) {
	l.margin.add(float64(ms))
	l.margins.add(float64(ms))
}

// noteReceived takes the server's count of distinct Input datagrams
// received, as of the datagram sent as number sent; it updates the loss-up
// estimate over a window of 60 to 1200 datagrams.
func (l *linkStats) noteReceived(sent uint32, received uint16) {
	d := int16(received - l.lastRecv)
	if l.upHave && d <= 0 {
		return // a reordered or duplicated Ack: nothing newer
	}
	l.recvExt += uint32(uint16(d))
	l.lastRecv = received
	recv := l.recvExt
	if l.upRestart && int32(sent-l.upFrom) < 0 {
		return // sent before the restart: the estimate so far stands
	}
	if !l.upHave || l.upRestart {
		l.upBase, l.upHave, l.upRestart = [2]uint32{sent, recv}, true, false
		return
	}
	ds := sent - l.upBase[0]
	if int32(ds) > 0 {
		l.upSpan = max(l.upSpan, ds)
	}
	if ds >= 60 {
		dr := recv - l.upBase[1]
		l.lossUp = min(1, max(0, 1-float64(dr)/float64(ds)))
		if ds >= 1200 { // slide the window
			l.upBase = [2]uint32{sent - ds/2, recv - dr/2}
		}
	}
}

// LossMinSamples is how many datagrams a loss estimate must span before
// Metrics call it measured. A window of n datagrams reads in steps of 1/n,
// so the first window, of 60, turns any burst at the start of a link into
// a large figure: 16 datagrams, a quarter second of inputs at 60 Hz, read
// 27% (what players saw on a clean link). Over 300 datagrams (about 10 s
// of inputs or States at 30 Hz on a clean link, 5 s of inputs at 60 Hz
// under loss) one datagram is 0.3%, the same burst 5%, and the
// binomial spread of a true 2% loss is ±0.8%, below the figure it
// qualifies.
const LossMinSamples = 300

// lossMeasured reports whether each loss estimate, up and down, spans
// LossMinSamples datagrams.
func (l *linkStats) lossMeasured() (up, down bool) {
	return l.upHave && l.upSpan >= LossMinSamples, l.downExp >= LossMinSamples
}

// sentInputs returns how many Input datagrams were sent.
func (l *linkStats) sentInputs() uint32 { return l.sent }

// restartLoss starts the loss-up window again from the next Input
// datagram: the clock sync jumped, and the datagrams sent before it that
// came too late did so because our clock was off, not because the path
// lost them (the server counts only inputs in time as received). The
// estimate so far stands until the new window spans 60 datagrams.
func (l *linkStats) restartLoss() { l.upRestart, l.upFrom = true, l.sent+1 }

// upLoss returns the estimated loss client → server, 0..1.
func (l *linkStats) upLoss() float64 { return l.lossUp }

// fill copies the link's figures into m.
func (l *linkStats) fill(m *Metrics) {
	m.RTT = l.rtt()
	margin, _ := l.margin.value()
	m.ArrivalMargin = time.Duration(margin * float64(time.Millisecond))
	m.ArrivalMarginP5 = time.Duration(l.margins.quantile(0.05) * float64(time.Millisecond))
	m.ArrivalMarginP50 = time.Duration(l.margins.quantile(0.5) * float64(time.Millisecond))
	m.LossUp, m.LossDown = l.lossUp, l.lossDown()
	m.LossUpMeasured, m.LossDownMeasured = l.lossMeasured()
	m.BytesUpPerSec, m.BytesDownPerSec = l.up.perSecond(), l.down.perSecond()
	m.BytesUp, m.BytesDown = l.up.sum(), l.down.sum()
	m.DatagramsUp = l.datagramsUp
	m.Guessed = l.guessed
	m.RTTSparkN = l.rttSpark.fill(&m.RTTSpark)
}
