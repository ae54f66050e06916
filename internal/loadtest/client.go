package loadtest

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/netip"
	"sync"
	"time"

	"ttytanks/game"
	"ttytanks/game/bot"
	"ttytanks/netcode"
	"ttytanks/netcode/transport"
)

// loadClient is one protocol client of a load test: its socket, its core
// and what it saw. mu serialises the core between the receiving goroutine
// and the shard that ticks it.
type loadClient struct {
	mu   sync.Mutex
	id   int
	t    transport.Transport
	c    *netcode.Client
	rng  *rand.Rand
	held game.Input
	hold int
	bot  *bot.Bot

	startedAt   time.Time // of the current attempt
	retryAt     time.Time // a refused attempt tries again then
	backoff     time.Duration
	connected   bool // has played at some point
	handshake   time.Duration
	retries     int
	err         string
	states      uint64
	firstState  game.Tick
	lastState   game.Tick
	stateEvery  int32
	firstTick   game.Tick
	done        netcode.Metrics // the figures of sessions already over
	doneTicks   int64
	doneStates  [2]int64 // States received, and sent, in sessions over
	rttSamples  []float64
	lastSample  time.Time
	recvStopped chan struct{}
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

// start opens a new session (a first try or a retry). Call with mu held.
func (lc *loadClient) start(now time.Time, target netip.AddrPort, cfg *Config) {
	cc := netcode.ClientConfig{Server: target, Name: fmt.Sprintf("load%d", lc.id), Room: cfg.Room, Light: !cfg.Predict,
		Entropy: lc.entropy(), OnState: lc.noteState}
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

// account folds a finished session's figures into the client's. Call
// with mu held.
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

// advance runs the client's core when it is due, and manages its life:
// the handshake's end, retries with backoff, a new session after a match
// ends. Call with mu held.
func (lc *loadClient) advance(now time.Time, target netip.AddrPort, cfg *Config, retryUntil time.Time) {
	if lc.c == nil {
		if !lc.retryAt.IsZero() && !now.Before(lc.retryAt) && now.Before(retryUntil) {
			lc.retryAt = time.Time{}
			lc.retries++
			lc.start(now, target, cfg)
		}
		return
	}
	if now.Before(lc.c.Deadline()) {
		return
	}
	for _, d := range lc.c.Advance(now, game.Input{}) {
		_ = lc.t.Send(d.Addr, d.Data)
	}
	lc.observe(now)
}

// observe notes what changed in the client: connected, ticks, RTT, end.
// Call with mu held.
func (lc *loadClient) observe(now time.Time) {
	c := lc.c
	if st := c.Status(); !lc.connected && (st == netcode.StatusWaiting || st == netcode.StatusPlaying) {
		// Seated (or placed in a running match): the handshake is over.
		lc.connected = true
		lc.handshake = now.Sub(lc.startedAt)
		lc.err = ""
	}
	switch c.Status() {
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

// receive reads the client's socket until it closes.
func (lc *loadClient) receive() {
	defer close(lc.recvStopped)
	buf := make([]byte, 2048)
	for {
		n, from, err := lc.t.Recv(buf)
		if err != nil {
			return
		}
		now := time.Now()
		lc.mu.Lock()
		if lc.c != nil {
			for _, d := range lc.c.Receive(now, from, buf[:n]) {
				_ = lc.t.Send(d.Addr, d.Data)
			}
			lc.observe(now)
		}
		lc.mu.Unlock()
	}
}

// noteState counts a State by its tick, to compare with the States the
// server should have sent over the ticks they span. The client core calls
// it (ClientConfig.OnState) inside Receive, with mu held.
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
// number the server sent over the ticks they span. Call with mu held.
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
