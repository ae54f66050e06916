package netcode

import (
	"time"

	"ttytanks/game"
)

// serverClock is the server's tick clock as the rooms see it: the tick
// being stepped (between ticks, the one stepped next), when the next step
// is due, and how many ticks have run, for the resend timers.
type serverClock struct {
	tick  game.Tick
	due   time.Time
	calls uint64
}

// begin starts the tick scheduled at now.
func (c *serverClock) begin(now time.Time) {
	c.due = now.Add(TickDuration)
	c.calls++
}

// end moves the clock to the next tick.
func (c *serverClock) end() { c.tick++ }

// now returns the tick being stepped, or between ticks the next one.
func (c *serverClock) now() game.Tick { return c.tick }

// deadline returns when the next step is due.
func (c *serverClock) deadline() time.Time { return c.due }

// every reports whether this tick is one of every n.
func (c *serverClock) every(n uint64) bool { return c.calls%n == 0 }

// tally counts what the rooms report to the server's totals: the inputs
// used, the reconnects, the places freed by silence, the faults, the
// matches started and finished; and the handshakes the server completed.
type tally struct {
	real, held, neutral  uint64
	reconnects, timeouts uint64
	idled, faults        uint64
	started, finished    uint64
	handshakes           uint64
}

// input counts a seat's input of one tick by its kind.
func (t *tally) input(k inputKind) {
	switch k {
	case inputReal:
		t.real++
	case inputHeld:
		t.held++
	case inputNeutral:
		t.neutral++
	}
}

// reconnect counts a place taken back.
func (t *tally) reconnect() { t.reconnects++ }

// timeout counts n places freed by silence.
func (t *tally) timeout(n int) { t.timeouts += uint64(n) }

// figures returns the counts.
func (t *tally) figures() (real, held, neutral, reconnects, timeouts, idled, faults uint64) {
	return t.real, t.held, t.neutral, t.reconnects, t.timeouts, t.idled, t.faults
}

// idle counts n seats freed for idleness.
func (t *tally) idle(n int) { t.idled += uint64(n) }

// fault counts a panic caught.
func (t *tally) fault() { t.faults++ }

// matchStarted counts a match whose countdown began; matchFinished one
// that reached its results.
func (t *tally) matchStarted()  { t.started++ }
func (t *tally) matchFinished() { t.finished++ }

// handshake counts a Join answered with an Accept: a connection made.
func (t *tally) handshake() { t.handshakes++ }

// events returns the matches started and finished and the handshakes.
func (t *tally) events() (started, finished, handshakes uint64) {
	return t.started, t.finished, t.handshakes
}

// ticks returns how many ticks the clock has run.
func (c *serverClock) ticks() uint64 { return c.calls }
