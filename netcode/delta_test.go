package netcode

import (
	"fmt"
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/netcode/transport"
	"ttytanks/proto"
)

// TestDeltaStatesUnderLoss: over loss, delay and reordering, a player's
// States come as deltas against the newest State it holds, it rebuilds
// every one it takes to the server's hash, and it plays as exactly as
// with whole States (the server's world and the client's agree at every
// tick the client holds a State of). At a round trip of a second, with a
// quarter of the datagrams lost each way, the newest State a player holds
// is sometimes more than the two seconds (proto.MaxBack) behind that a
// delta reaches, and the State goes whole.
func TestDeltaStatesUnderLoss(t *testing.T) {
	for _, tc := range []struct {
		oneWay time.Duration
		loss   float64
		deltas float64 // the least share of States that come as deltas
	}{{30 * time.Millisecond, 0.05, 0.98}, {50 * time.Millisecond, 0.20, 0.98}, {500 * time.Millisecond, 0.25, 0.9}} {
		t.Run(fmt.Sprintf("rtt%v_loss%.0f", 2*tc.oneWay, 100*tc.loss), func(t *testing.T) {
			path := transport.Impairment{Latency: tc.oneWay, Jitter: tc.oneWay / 5, Loss: tc.loss, Reorder: 0.02}
			n := newSimnet(t, ServerConfig{Players: 2, Seed: 3})
			var cs []*simClient
			for i := 0; i < 2; i++ {
				slot := i
				cs = append(cs, n.addClient(ClientConfig{LocalInput: func(w *game.World, s int) game.Input { return scripted(7, s, w.Tick()) }},
					path, path, uint64(40+slot)))
			}
			if !n.runUntil(30*time.Second, n.playing) {
				t.Fatal("match did not start")
			}
			var full, deltas []uint64
			for _, c := range cs {
				m := c.c.Metrics()
				full, deltas = append(full, m.FullStates), append(deltas, m.DeltaStates)
			}
			n.run(20 * time.Second)
			for i, c := range cs {
				m := c.c.Metrics()
				f, d := m.FullStates-full[i], m.DeltaStates-deltas[i]
				t.Logf("client %d: %d whole States, %d deltas, %d baselines missed, %d hash mismatches, %d resyncs",
					i, f, d, m.BaseMisses, m.HashMismatches, m.Resyncs)
				if m.HashMismatches != 0 {
					t.Errorf("client %d: %d hash mismatches", i, m.HashMismatches)
				}
				if float64(d) < tc.deltas*float64(f+d) {
					t.Errorf("client %d: %d of %d States came as deltas, want at least %.0f%%", i, d, f+d, 100*tc.deltas)
				}
				// Every State the client took is the server's: its snapshot
				// at the newest one hashes as the server's world did then.
				at, ok := c.c.tl.auth()
				if !ok {
					t.Fatalf("client %d holds no State", i)
				}
				if h, ok := n.serverHash[at]; !ok || game.Hash(c.c.tl.snapshot(at)) != h {
					t.Errorf("client %d: its State of tick %d is not the server's", i, at)
				}
			}
		})
	}
}

// TestDeltaNotAcrossASeatChange: a tank unseated between two steps (its
// player left) changes the world outside a step, so a State from before
// it is no baseline for one after it: the next State a player gets is
// whole, the ones after are deltas again, and all of them rebuild to the
// server's hash.
func TestDeltaNotAcrossASeatChange(t *testing.T) {
	w := newWire(t, ServerConfig{Players: 3, StateEvery: 1})
	a := w.join(ClientConfig{})
	b := w.join(ClientConfig{})
	c := w.join(ClientConfig{})
	w.pastCountdown(a, b, c)
	players := []*Client{a, b, c}
	kinds := func(n int) (whole, delta int) {
		for k := 0; k < n; k++ {
			for _, p := range players {
				w.srv.Receive(w.now, w.addr[p], w.stepClient(p, right))
			}
			got := w.tick()
			for _, p := range players {
				for _, d := range got[p] {
					st := stateDown(t, p, d)
					if st != nil && p == a {
						if st.Delta() {
							delta++
						} else {
							whole++
						}
					}
					w.deliver(p, d)
				}
			}
		}
		return whole, delta
	}
	if whole, delta := kinds(20); delta == 0 || whole > 1 {
		t.Fatalf("before the seat change: %d whole States, %d deltas; want deltas after the first", whole, delta)
	}
	for _, d := range c.Close() { // c leaves: its tank is unseated between steps
		w.toClients(w.srv.Receive(w.now, w.addr[c], d.Data))
	}
	players = players[:2]
	if whole, delta := kinds(1); whole != 1 || delta != 0 {
		t.Fatalf("the State after the seat change: %d whole, %d deltas; want it whole", whole, delta)
	}
	if whole, delta := kinds(20); delta == 0 || whole > 0 {
		t.Fatalf("after the seat change: %d whole States, %d deltas; want deltas again", whole, delta)
	}
	if m := a.Metrics(); m.HashMismatches != 0 || m.BaseMisses != 0 {
		t.Fatalf("%d hash mismatches, %d baselines missed", m.HashMismatches, m.BaseMisses)
	}
}

// TestDeltaBadHashNamesNoBase: a delta whose rebuilt snapshot does not
// hash to its hash field (a baseline of the client's that is not the
// server's) changes nothing the client shows, and its next Input names
// no baseline, so the server's next State is whole, which the client
// takes, and it names a baseline again.
func TestDeltaBadHashNamesNoBase(t *testing.T) {
	w := newWire(t, ServerConfig{Players: 2, StateEvery: 1})
	a := w.join(ClientConfig{})
	b := w.join(ClientConfig{})
	w.pastCountdown(a, b)
	var st *proto.State // the last State a took, as it decoded it
	for k := 0; k < 10; k++ {
		w.srv.Receive(w.now, w.addr[a], w.stepClient(a, right))
		w.srv.Receive(w.now, w.addr[b], w.stepClient(b, game.Input{}))
		got := w.tick()
		for _, d := range got[a] {
			if s := stateDown(t, a, d); s != nil {
				st = s
			}
			w.deliver(a, d)
		}
		for _, d := range got[b] {
			w.deliver(b, d)
		}
	}
	in := inputOf(t, w, a, w.stepClient(a, right))
	if !in.HasBase {
		t.Fatal("setup: the client names no baseline")
	}
	if st == nil || !st.Delta() {
		t.Fatal("setup: the last State was whole")
	}
	// The same delta one tick on, with its hash off by one: as a server
	// whose world differs from ours would send it.
	st.Hash ^= 1
	st.Snapshot.Tick++
	st.ServerTick++
	st.Back++
	copy(st.Steps[1:], st.Steps[:proto.MaxBack-1])
	st.Steps[0] = st.Steps[1]
	for i := range st.Steps[0] {
		st.Steps[0][i].Tick++
	}
	before, m0 := a.World().Hash(), a.Metrics()
	a.Receive(w.now, srvAddr, sealDown(t, w.srv, a, st.Append(nil)))
	if m := a.Metrics(); m.HashMismatches != m0.HashMismatches+1 || a.World().Hash() != before {
		t.Fatalf("the bad delta: %d hash mismatches (had %d), world changed %v", m.HashMismatches, m0.HashMismatches, a.World().Hash() != before)
	}
	if in := inputOf(t, w, a, w.stepClient(a, right)); in.HasBase {
		t.Fatalf("after a bad delta the client still names baseline %d", in.Base)
	}
	// The server hears that and sends the next State whole.
	w.srv.Receive(w.now, w.addr[a], w.stepClient(a, right))
	w.srv.Receive(w.now, w.addr[b], w.stepClient(b, game.Input{}))
	var whole *proto.State
	for _, d := range w.tick()[a] {
		if st := stateDown(t, a, d); st != nil {
			whole = st
			w.deliver(a, d)
		}
	}
	if whole == nil || whole.Delta() {
		t.Fatalf("the server's State after the client named no baseline: %+v, want a whole one", whole)
	}
	if in := inputOf(t, w, a, w.stepClient(a, right)); !in.HasBase || in.Base != whole.Snapshot.Tick {
		t.Fatalf("after the whole State the client names baseline %v %d, want %d", in.HasBase, in.Base, whole.Snapshot.Tick)
	}
}

// deliver hands c a datagram from the server. The story sets the pace:
// the margins of lockstep inputs would make clock sync skip ticks.
func (w *wire) deliver(c *Client, d []byte) {
	c.Receive(w.now, srvAddr, d)
	c.sync.margins.reset()
	c.sync.dirty = true
}

// inputOf opens the Input datagram c sent, as the server would.
func inputOf(t *testing.T, w *wire, c *Client, d []byte) proto.Input {
	t.Helper()
	_, clear, ok := peekUp(w.srv, c, d)
	if !ok {
		t.Fatal("the server cannot open the client's datagram")
	}
	in, err := proto.ParseInput(clear)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// TestDeltaLog: the server sends a delta only against a baseline after
// the world's last edit, at most proto.MaxBack ticks back, with every
// step since logged, and only when it is the smaller; otherwise whole.
func TestDeltaLog(t *testing.T) {
	var d deltaLog
	d.reset(100)
	in := make([]game.Input, 2)
	var st proto.State
	step := func(t0, n int, changing bool) {
		for k := 0; k < n; k++ {
			tk := game.Tick(t0 + k)
			in[0] = game.Input{Tick: tk, MoveX: 1}
			in[1] = game.Input{Tick: tk}
			if changing {
				in[1].Buttons = game.Buttons(k % 2) // a change every tick
			}
			d.stepped(tk, in)
		}
		st.Snapshot = game.Snapshot{Tick: game.Tick(t0 + n), Slots: 2, Round: game.Round{Winner: -1, MazeW: 11, MazeH: 9}}
	}
	step(100, 10, false) // ticks 100..109; the State is at 110
	for _, tc := range []struct {
		name    string
		base    game.Tick
		hasBase bool
		back    uint8
	}{
		{"no baseline", 0, false, 0},
		{"the world's first tick: before no step", 100, true, 0},
		{"a baseline after the start", 104, true, 6},
		{"the tick before", 109, true, 1},
		{"the State's own tick", 110, true, 0},
		{"ahead of it", 112, true, 0},
	} {
		if got := d.delta(&st, tc.base, tc.hasBase); got != (tc.back > 0) || st.Back != tc.back {
			t.Errorf("%s: delta %v, back %d; want back %d", tc.name, got, st.Back, tc.back)
		}
	}
	if st.Back = 0; !d.delta(&st, 101, true) || st.StepInputs(0)[0].Tick != 101 || st.StepInputs(8)[0].Tick != 109 {
		t.Errorf("the delta's steps: %+v, %+v", st.StepInputs(0), st.StepInputs(8))
	}
	d.edited(105)
	if d.delta(&st, 104, true) || d.delta(&st, 105, true) || !d.delta(&st, 106, true) {
		t.Error("a baseline at or before the edit of tick 105 was used, or one after it was not")
	}
	step(110, proto.MaxBack+5, false) // long after: the log holds MaxBack ticks
	now := st.Snapshot.Tick
	if d.delta(&st, now.Add(-proto.MaxBack-1), true) || !d.delta(&st, now.Add(-proto.MaxBack), true) {
		t.Errorf("a baseline %d ticks back was used, or one %d back was not", proto.MaxBack+1, proto.MaxBack)
	}
	// Inputs that change every tick for 120 ticks are longer as runs
	// than the whole State of two tanks: it goes whole.
	step(300, proto.MaxBack, true)
	now = st.Snapshot.Tick
	if d.delta(&st, now.Add(-proto.MaxBack), true); st.Back != 0 {
		t.Errorf("a delta of %d runs (%d bytes) against a whole State of %d was sent", proto.MaxBack, st.Len(), st.FullLen())
	}
	d.reset(500)
	if d.delta(&st, now.Add(-1), true) {
		t.Error("a new world's log gave a delta against the old one's tick")
	}
}

// TestInputSpacing: with no loss, a client whose input holds sends an
// Input every second tick, and one at once on a tick whose input changed;
// once the loss calls for more than one copy of each input it sends one
// every tick, and the lead it aims for is the same either way.
func TestInputSpacing(t *testing.T) {
	count := func(loss float64, input func(w *game.World, slot int) game.Input) (perSecond float64, sc *simClient) {
		path := transport.Impairment{Latency: 20 * time.Millisecond, Loss: loss}
		n := newSimnet(t, ServerConfig{Players: 1})
		sc = n.addClient(ClientConfig{LocalInput: input}, path, path, 9)
		if !n.runUntil(5*time.Second, n.playing) {
			t.Fatal("match did not start")
		}
		n.run(5 * time.Second)
		d0 := sc.c.Metrics().DatagramsUp
		n.run(10 * time.Second)
		return float64(sc.c.Metrics().DatagramsUp-d0) / 10, sc
	}
	held := func(w *game.World, slot int) game.Input { return game.Input{MoveX: 1} }
	everyTick := func(w *game.World, slot int) game.Input { return game.Input{MoveX: 1, MoveY: int8(w.Tick() % 2)} }
	everyFifth := func(w *game.World, slot int) game.Input { return game.Input{MoveX: 1, MoveY: int8(w.Tick() / 5 % 2)} }
	rate, sc := count(0, held)
	if rate < 29 || rate > 31 || sc.c.sync.spacing() != 2 {
		t.Errorf("a held key at no loss: %.1f Inputs a second (spacing %d), want 30", rate, sc.c.sync.spacing())
	}
	target2 := sc.c.sync.target()
	if rate, _ = count(0, everyTick); rate < 59 || rate > 61 {
		t.Errorf("an input that changes every tick: %.1f Inputs a second, want 60", rate)
	}
	// A change every fifth tick: of each 10 ticks, the two changes go at
	// once and the eight others every second tick: 4 more, 6 a second
	// more than 30 would be... 2 changes + 4 of the 8: 36 a second.
	if rate, _ = count(0, everyFifth); rate < 35 || rate > 37 {
		t.Errorf("an input that changes every fifth tick: %.1f Inputs a second, want 36", rate)
	}
	rate, sc = count(0.05, held)
	if rate < 55 || sc.c.sync.spacing() != 1 || sc.c.sync.needed() < 2 {
		t.Errorf("a held key at 5%% loss: %.1f Inputs a second (spacing %d, %d copies), want one every tick", rate, sc.c.sync.spacing(), sc.c.sync.needed())
	}
	var one clockSync = newClockSync()
	one.setLoss(0.01) // two copies, every tick
	if one.spacing() != 1 || one.target() != target2 {
		t.Errorf("two copies every tick aim at %.1f ms, one every second tick at %.1f: a loss near the line would move the lead", one.target(), target2)
	}
}
