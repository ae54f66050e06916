package loadtest

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/netip"
	"sync/atomic"
	"time"

	"ttytanks/game"
	"ttytanks/game/bot"
	"ttytanks/netcode"
	"ttytanks/netcode/transport"
)

// loadClient is one protocol client of a load test: its core, its life
// (start, retries) and what it saw. Its shard's loop owns it: nothing
// else touches it while the loop runs, so it needs no lock. Its socket
// is the shard's (socketSet), by the client's slot.
type loadClient struct {
	id   int
	seed uint64 // of its play, session ids, keys and network simulator
	c    *netcode.Client
	rng  *rand.Rand
	held game.Input
	hold int
	bot  *bot.Bot

	startedAt  time.Time // of the current attempt
	retryAt    time.Time // a refused attempt tries again then
	backoff    time.Duration
	connected  bool // has played at some point
	handshake  time.Duration
	retries    int
	err        string
	states     uint64
	firstState game.Tick
	lastState  game.Tick
	stateEvery int32
	firstTick  game.Tick
	done       netcode.Metrics // the figures of sessions already over
	doneTicks  int64
	doneStates [2]int64 // States received, and sent, in sessions over
	rttSamples []float64
	lastSample time.Time

	opened       bool          // its socket is open (the ramp reached it)
	playingAtEnd bool          // it was playing when the run ended
	failed       bool          // its socket failed: it is over
	playing      bool          // counted in playingN
	playingN     *atomic.Int32 // the shard's count of clients playing, for the progress line
}

// policyInput is a random player: a direction held for 20-60 ticks,
// sometimes none, firing now and then.
func (lc *loadClient) policyInput() game.Input {
	if lc.hold <= 0 {
		lc.hold = 20 + lc.rng.IntN(41)
		moves := [...][2]int8{{0, 0}, {1, 0}, {-1, 0}, {0, 1}, {0, -1}}
		m := moves[lc.rng.IntN(len(moves))]
		lc.held = game.Input{MoveX: m[0], MoveY: m[1]}
	}
	lc.hold--
	in := lc.held
	if lc.rng.IntN(20) == 0 {
		in.Buttons |= game.ButtonFire
	}
	return in
}

// lightHistory is a light client's history, in ticks. A light client
// steps no world and never rolls back: its rings hold the inputs it
// repeats (a few ticks back) and the first State. As for the SSH front
// end's in-process clients, twice the inputs' lead is plenty; 256 ticks
// of snapshots are 0.4 MB where the default history's are 6.6 MB, made
// and zeroed for every session: 13 GB at 2000 clients, and 1.6 GB/s of
// zeroing while they start at 250 a second. A predicting client keeps
// the default, as a player's would.
const lightHistory = 2*netcode.MaxInputAhead + 16

// start opens a new session (a first try or a retry).
func (lc *loadClient) start(now time.Time, target netip.AddrPort, cfg *Config) {
	cc := netcode.ClientConfig{Server: target, Name: fmt.Sprintf("load%d", lc.id), Room: cfg.Room, Light: !cfg.Predict,
		Entropy: lc.entropy(), OnState: lc.noteState}
	if cc.Light {
		cc.History = lightHistory
	}
	if lc.bot != nil {
		cc.LocalInput = func(w *game.World, slot int) game.Input { return lc.bot.Input(w.State(), w.Maze(), slot) }
	} else {
		cc.LocalInput = func(*game.World, int) game.Input { return lc.policyInput() }
	}
	lc.c = netcode.NewClient(cc)
	lc.startedAt = now
	lc.states, lc.stateEvery = 0, 0
	lc.firstTick = 0
}

// entropy is the client core's randomness: session ids and the handshake's
// ephemeral keys, from the load client's seeded generator (a load
// generator's keys need not be secret, and a run repeats).
func (lc *loadClient) entropy() io.Reader { return rngReader{lc.rng} }

type rngReader struct{ r *rand.Rand }

func (r rngReader) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = byte(r.r.Uint32())
	}
	return len(b), nil
}

// account folds a finished session's figures into the client's.
func (lc *loadClient) account() {
	if lc.c == nil {
		return
	}
	var v netcode.View
	lc.c.View(&v)
	m := &v.Metrics
	lc.done.Guessed += m.Guessed
	lc.done.HashMismatches += m.HashMismatches
	lc.done.Resyncs += m.Resyncs
	lc.done.BytesUp += m.BytesUp
	lc.done.BytesDown += m.BytesDown
	lc.done.DatagramsUp += m.DatagramsUp
	got, want := lc.statesSeen()
	lc.doneStates[0] += got
	lc.doneStates[1] += want
	if lc.firstTick != 0 {
		lc.doneTicks += int64(m.LocalTick.Diff(lc.firstTick))
	}
	lc.firstTick = 0
}

// advance runs the client's core, due now, and returns what it sends:
// valid until the client's next call.
func (lc *loadClient) advance(now time.Time) []transport.Datagram {
	ds := lc.c.Advance(now, game.Input{})
	lc.observe(now)
	return ds
}

// receive hands the client's core a datagram that arrived now, and
// returns what it sends in answer: valid until the client's next call.
func (lc *loadClient) receive(now time.Time, from netip.AddrPort, b []byte) []transport.Datagram {
	ds := lc.c.Receive(now, from, b)
	lc.observe(now)
	return ds
}

// observe notes what changed in the client: connected, ticks, RTT, end
// (and, when the session ended, when to try again).
func (lc *loadClient) observe(now time.Time) {
	c := lc.c
	st := c.Status()
	lc.notePlaying(st == netcode.StatusPlaying)
	if !lc.connected && (st == netcode.StatusWaiting || st == netcode.StatusPlaying) {
		// Seated (or placed in a running match): the handshake is over.
		lc.connected = true
		lc.handshake = now.Sub(lc.startedAt)
		lc.err = ""
	}
	switch st {
	case netcode.StatusPlaying:
		if lc.firstTick == 0 && c.World() != nil {
			var v netcode.View
			c.View(&v)
			lc.firstTick = v.Metrics.LocalTick
		}
		if now.Sub(lc.lastSample) >= time.Second && lc.firstTick != 0 {
			var v netcode.View
			c.View(&v)
			if v.Metrics.RTT > 0 {
				lc.rttSamples = append(lc.rttSamples, float64(v.Metrics.RTT)/float64(time.Millisecond))
			}
			lc.lastSample = now
		}
	case netcode.StatusClosed:
		err := c.Err()
		lc.account()
		lc.c = nil
		var ended *netcode.EndedError
		switch {
		case errors.As(err, &ended) && lc.connected:
			// The match ended (or the room closed): join again, as a
			// player would from the results screen.
			lc.retryAt, lc.backoff = now, 0
		case retryable(err):
			lc.backoff = min(max(2*lc.backoff, 250*time.Millisecond), 4*time.Second)
			lc.retryAt = now.Add(lc.backoff/2 + time.Duration(lc.rng.Int64N(int64(lc.backoff/2)+1)))
			if !lc.connected {
				lc.err = "never connected (" + errKind(err) + ")"
			}
		default:
			lc.err = errKind(err)
		}
	}
}

// notePlaying keeps the shard's count of clients playing (the progress
// line's) with the client's status.
func (lc *loadClient) notePlaying(playing bool) {
	if playing != lc.playing && lc.playingN != nil {
		if playing {
			lc.playingN.Add(1)
		} else {
			lc.playingN.Add(-1)
		}
	}
	lc.playing = playing
}

// due returns when the client next needs its loop (a session's next
// Deadline, the zero time when that is at once, or a retry's time), and
// false when it needs it no more: it failed, or ended with an error not
// worth a retry. A client whose socket is not open yet is the ramp's.
func (lc *loadClient) due() (time.Time, bool) {
	switch {
	case lc.failed:
		return time.Time{}, false
	case lc.c != nil:
		return lc.c.Deadline(), true
	case !lc.retryAt.IsZero():
		return lc.retryAt, true
	}
	return time.Time{}, false
}

// retry starts the client's next session, the one its retryAt is for.
func (lc *loadClient) retry(now time.Time, target netip.AddrPort, cfg *Config) {
	lc.retryAt = time.Time{}
	lc.retries++
	lc.start(now, target, cfg)
}

// end ends the client's session when the run ends: its figures join the
// sessions' over, and it returns its Leave to send.
func (lc *loadClient) end() []transport.Datagram {
	if lc.c == nil {
		return nil
	}
	c := lc.c
	lc.playingAtEnd = c.Status() == netcode.StatusPlaying
	lc.account() // the live session's figures join the ended ones'
	lc.c = nil
	if c.Status() == netcode.StatusClosed {
		return nil
	}
	return c.Close()
}

// fail ends the client for good when its socket fails: its session's
// figures are kept, and err is what the report says.
func (lc *loadClient) fail(err error) {
	if lc.failed {
		return
	}
	lc.failed = true
	lc.account()
	lc.c = nil
	lc.retryAt = time.Time{}
	lc.notePlaying(false)
	lc.err = "socket failed: " + err.Error()
}

// noteState counts a State by its tick, to compare with the States the
// server should have sent over the ticks they span. The client core calls
// it (ClientConfig.OnState) inside Receive.
func (lc *loadClient) noteState(t game.Tick) {
	if lc.states == 0 {
		lc.firstState, lc.lastState = t, t
	} else {
		if d := t.Diff(lc.lastState); d > 0 && (lc.stateEvery == 0 || d < lc.stateEvery) {
			lc.stateEvery = d
		}
		if t.After(lc.lastState) {
			lc.lastState = t
		}
	}
	lc.states++
}

// statesSeen returns the States the current session received and the
// number the server sent over the ticks they span.
func (lc *loadClient) statesSeen() (got, want int64) {
	if lc.states == 0 {
		return 0, 0
	}
	want = 1
	if lc.stateEvery > 0 {
		want += int64(lc.lastState.Diff(lc.firstState)) / int64(lc.stateEvery)
	}
	return int64(lc.states), max(want, int64(lc.states))
}
