package netcode

import (
	"fmt"
	"net/netip"
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/netcode/transport"
	"ttytanks/proto"
)

// deltaRig drives a Server core tick by tick with raw peers and checks
// every delta State it sends against the server's own worlds: the
// snapshot the server had at the delta's base, stepped with the delta's
// inputs, must give the State's hash, and the snapshot the server had at
// the State's tick.
type deltaRig struct {
	t      *testing.T
	s      *Server
	now    time.Time
	peers  []*deltaPeer
	snaps  map[game.Tick]game.Snapshot // the server world after each tick
	match  uint32
	deltas int // delta States checked
	fulls  int
	next   uint64 // sessions and ports
}

type deltaPeer struct {
	*rawPeer
	seq      uint32
	newest   game.Tick // newest State received
	have     bool
	deltas   int
	gone     bool
	received int
}

func newDeltaRig(t *testing.T, cfg ServerConfig) *deltaRig {
	if cfg.Seed == 0 {
		cfg.Seed = 7
	}
	if cfg.Secret == nil {
		cfg.Secret = []byte("0123456789abcdef0123456789abcdef")
	}
	if cfg.MaxRooms == 0 {
		cfg.MaxRooms = 1
	}
	s, err := NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &deltaRig{t: t, s: s, now: simEpoch, snaps: map[game.Tick]game.Snapshot{}, next: 1}
}

func (g *deltaRig) join(name string) *deltaPeer {
	g.next++
	from := netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 0, byte(g.next >> 8), byte(g.next)}), uint16(30000+g.next))
	p := &deltaPeer{rawPeer: rawSeated(g.t, g.s, g.now, from, 5000+g.next, name), seq: 1}
	g.peers = append(g.peers, p)
	return p
}

func (g *deltaRig) quit(p *deltaPeer) {
	p.seq++
	g.deliver(g.s.Receive(g.now, p.from, p.sealed(&proto.Leave{Header: proto.Header{Match: p.match, Player: p.slot, Seq: p.seq}, Reason: proto.LeaveQuit})))
	p.gone = true
}

// input sends p's Input for the server's next tick with the given base.
func (g *deltaRig) input(p *deltaPeer, hasBase bool, base game.Tick, in game.Input) {
	g.send(p, g.sealInput(p, hasBase, base, in))
}

// sealInput seals p's Input for the server's next tick with the given
// base: the sealer numbers it (its sequence number).
func (g *deltaRig) sealInput(p *deltaPeer, hasBase bool, base game.Tick, in game.Input) []byte {
	in.Tick = g.s.clk.now()
	p.seq++
	pkt := proto.Input{Header: proto.Header{Match: p.match, Player: p.slot}, ClientTime: uint16(p.seq), N: 1,
		HasBase: hasBase, Base: base}
	pkt.Inputs[0] = in
	if !hasBase {
		pkt.Base = 0
	}
	return p.sealed(&pkt)
}

func (g *deltaRig) send(p *deltaPeer, b []byte) { g.deliver(g.s.Receive(g.now, p.from, b)) }

// tick runs one server tick, records the world and checks what it sent.
func (g *deltaRig) tick() {
	g.now = g.now.Add(TickDuration)
	out := g.s.Tick(g.now)
	if r := g.s.room0(); r != nil {
		if id := r.game().matchID(); id != g.match {
			g.match = id
			clear(g.snaps)
		}
	}
	if w := g.s.World(); w != nil {
		g.snaps[w.Tick()] = *w.State()
	}
	g.deliver(out)
}

func (g *deltaRig) deliver(out []transport.Datagram) {
	for _, d := range out {
		for _, p := range g.peers {
			if p.gone || d.Addr != p.from {
				continue
			}
			h, clear, ok := p.opened(d)
			if !ok || h.Type != proto.TypeState {
				continue
			}
			var st proto.State
			if err := proto.ParseState(clear, &st); err != nil {
				g.t.Fatalf("%v: the server sent a State that does not parse: %v", p, err)
			}
			p.received++
			if st.Delta() {
				g.checkDelta(p, &st)
				p.deltas++
				g.deltas++
			} else {
				if game.Hash(&st.Snapshot) != st.Hash {
					g.t.Fatalf("%v: a full State of tick %d does not hash", p, st.Snapshot.Tick)
				}
				g.fulls++
			}
			if !p.have || st.Snapshot.Tick.After(p.newest) {
				p.newest, p.have = st.Snapshot.Tick, true
			}
		}
	}
}

func (g *deltaRig) checkDelta(p *deltaPeer, st *proto.State) {
	g.t.Helper()
	base, ok := g.snaps[st.Base()]
	if !ok {
		g.t.Fatalf("%v: a delta of tick %d against tick %d, which the server's world never was", p, st.Snapshot.Tick, st.Base())
	}
	if base.Slots != st.Snapshot.Slots {
		g.t.Fatalf("%v: a delta of %d slots against a base of %d", p, st.Snapshot.Slots, base.Slots)
	}
	w, err := game.NewWorld(game.Config{Slots: int(base.Slots), MazeW: int(base.Round.MazeW), MazeH: int(base.Round.MazeH)})
	if err != nil {
		g.t.Fatal(err)
	}
	w.Restore(&base)
	for k := 0; k < int(st.Back); k++ {
		w.Step(st.StepInputs(k))
	}
	if got := w.Hash(); got != st.Hash {
		g.t.Fatalf("%v: delta of tick %d back %d rebuilds to hash %x, the State says %x", p, st.Snapshot.Tick, st.Back, got, st.Hash)
	}
	if want, ok := g.snaps[st.Snapshot.Tick]; ok && game.Hash(&want) != st.Hash {
		g.t.Fatalf("%v: delta of tick %d: the server's world then hashed %x, the State says %x", p, st.Snapshot.Tick, game.Hash(&want), st.Hash)
	}
}

func (g *deltaRig) noFaults() {
	g.t.Helper()
	if f := g.s.Stats().Faults; f != 0 {
		g.t.Fatalf("%d server faults", f)
	}
}

// TestAttackDeltaHostileBases: a player names every kind of base, honest
// and not (future, far past, exactly MaxBack, MaxBack+1, tick 0, the
// wrapping extremes, the tick of a seat change, replays of an old
// sequence number with another base, reordering), while a third seat is
// taken and left again and again. The server must not fault and every
// delta it sends, to anyone, must rebuild to its hash from the server's
// own world at its base.
func TestAttackDeltaHostileBases(t *testing.T) {
	for _, every := range []int{1, 2, 3} {
		t.Run(fmt.Sprint("stateEvery", every), func(t *testing.T) {
			g := newDeltaRig(t, ServerConfig{Players: 3, StateEvery: every})
			hostile := g.join("hostile")
			honest := g.join("honest")
			third := g.join("third")
			var edits []game.Tick
			rng := game.RNG{State: 99}
			for i := 0; i < 1500; i++ {
				g.tick()
				w := g.s.World()
				if w == nil {
					t.Fatalf("tick %d: no world", i)
				}
				now := g.s.clk.now()
				// The third seat comes and goes: each a world edit.
				if i%97 == 50 && !third.gone {
					edits = append(edits, w.Tick())
					g.quit(third)
				} else if i%97 == 80 && third.gone {
					edits = append(edits, w.Tick())
					third = g.join("third")
				}
				in := game.Input{MoveX: int8(rng.Intn(3) - 1), MoveY: int8(rng.Intn(3) - 1)}
				if rng.Intn(7) == 0 {
					in.Buttons = game.ButtonFire
				}
				// The honest peer names its newest State.
				g.input(honest, honest.have, honest.newest, in)
				if !third.gone {
					g.input(third, third.have, third.newest, game.Input{MoveX: 1})
				}
				// The hostile one names anything.
				var base game.Tick
				has := true
				switch i % 16 {
				case 0:
					base = hostile.newest
				case 1:
					base = now.Add(int32(rng.Intn(10)))
				case 2:
					base = now.Add(-proto.MaxBack)
				case 3:
					base = now.Add(-proto.MaxBack - 1)
				case 4:
					base = 0
				case 5:
					base = game.Tick(0xffffffff)
				case 6:
					base = now.Add(-1 << 31)
				case 7:
					base = now.Add(1<<31 - 1)
				case 8:
					if len(edits) > 0 {
						base = edits[len(edits)-1]
					}
				case 9:
					if len(edits) > 0 {
						base = edits[len(edits)-1].Add(1)
					}
				case 10:
					base = game.Tick(rng.Next())
				case 11:
					base = now.Add(-int32(rng.Intn(proto.MaxBack + 5)))
				case 12:
					has = false
				case 13:
					base = now.Add(-1)
				case 14:
					base = now
				case 15:
					base = hostile.newest.Add(-int32(rng.Intn(3)))
				}
				// Reordered: an older datagram with another base arrives
				// after the newest, which arrives twice (a replay).
				old := g.sealInput(hostile, true, game.Tick(rng.Next()), in)
				older := g.sealInput(hostile, true, now.Add(-3), in)
				newest := g.sealInput(hostile, has, base, in)
				g.send(hostile, newest)
				g.send(hostile, older)
				g.send(hostile, newest)
				g.send(hostile, old)
			}
			g.noFaults()
			if honest.deltas == 0 || g.deltas < 100 {
				t.Fatalf("only %d deltas checked (honest %d, %d full)", g.deltas, honest.deltas, g.fulls)
			}
			t.Logf("checked %d deltas (honest %d, hostile %d), %d full States, %d edits", g.deltas, honest.deltas, hostile.deltas, g.fulls, len(edits))
		})
	}
}

// wildBot is an InputSource that says moves beyond ±1 and button bits
// the game does not define; Step clamps the moves and ignores the bits.
type wildBot struct{}

func (wildBot) Input(s *game.Snapshot, _ *game.Maze, slot int) game.Input {
	t := uint32(s.Tick)
	switch t / 7 % 4 {
	case 0:
		return game.Input{MoveX: 3, MoveY: -2}
	case 1:
		return game.Input{MoveX: 1, MoveY: -1, Buttons: 0x84}
	case 2:
		return game.Input{MoveX: 1, MoveY: -1}
	}
	return game.Input{MoveX: -128, Buttons: game.ButtonFire | 0x40}
}

// TestAttackDeltaWildBot: a server bot (ServerConfig.NewBot) whose inputs
// are out of range. The world clamps them, so the deltas must carry what
// the world stepped: every delta must parse and rebuild to its hash.
func TestAttackDeltaWildBot(t *testing.T) {
	g := newDeltaRig(t, ServerConfig{Players: 2, Bots: 1, StateEvery: 2,
		NewBot: func(int, uint64) InputSource { return wildBot{} }})
	p := g.join("p")
	for i := 0; i < 600; i++ {
		g.tick()
		g.input(p, p.have, p.newest, game.Input{MoveX: 1})
	}
	g.noFaults()
	if p.deltas < 50 {
		t.Fatalf("only %d deltas of %d States", p.deltas, p.received)
	}
}

// TestAttackDeltaWrapStart: the hostile bases again, on a server whose
// clock wraps past 0xffffffff during the match.
func TestAttackDeltaWrapStart(t *testing.T) {
	g := newDeltaRig(t, ServerConfig{Players: 2, StateEvery: 2, StartTick: game.Tick(0xffffffff - 150)})
	hostile := g.join("hostile")
	honest := g.join("honest")
	rng := game.RNG{State: 5}
	for i := 0; i < 600; i++ {
		g.tick()
		now := g.s.clk.now()
		g.input(honest, honest.have, honest.newest, game.Input{MoveY: 1})
		bases := []game.Tick{hostile.newest, 0, 0xffffffff, now.Add(-proto.MaxBack), now.Add(-1), game.Tick(rng.Next())}
		g.input(hostile, true, bases[i%len(bases)], game.Input{MoveX: -1})
	}
	g.noFaults()
	if honest.deltas < 100 || hostile.deltas == 0 {
		t.Fatalf("deltas: honest %d, hostile %d", honest.deltas, hostile.deltas)
	}
}

// TestAttackDeltaClientUnderChaos: honest clients with a short history,
// behind a network that loses, reorders and duplicates, against a bot:
// deltas against bases the client forgot are dropped and counted, never
// taken wrong (no hash mismatch), and deltas keep coming.
func TestAttackDeltaClientUnderChaos(t *testing.T) {
	n := newSimnet(t, ServerConfig{Players: 3, Bots: 1, NewBot: func(int, uint64) InputSource { return walker{} }})
	bad := transport.Impairment{Latency: 50 * time.Millisecond, Jitter: 40 * time.Millisecond, Loss: 0.1, Reorder: 0.2, Dup: 0.1}
	var cs []*simClient
	for i, hist := range []int{24, 4096} {
		cs = append(cs, n.addClient(ClientConfig{History: hist,
			LocalInput: func(w *game.World, slot int) game.Input { return scripted(3, slot, w.Tick()) }}, bad, bad, uint64(i+1)))
	}
	if !n.runUntil(5*time.Second, n.playing) {
		t.Fatal("not playing")
	}
	n.run(20 * time.Second)
	for i, c := range cs {
		m := c.c.Metrics()
		t.Logf("client %d: full %d delta %d misses %d mismatches %d resyncs %d", i, m.FullStates, m.DeltaStates, m.BaseMisses, m.HashMismatches, m.Resyncs)
		if m.HashMismatches != 0 {
			t.Errorf("client %d: %d hash mismatches", i, m.HashMismatches)
		}
		if m.DeltaStates < 100 {
			t.Errorf("client %d: only %d deltas", i, m.DeltaStates)
		}
	}
}

// TestAttackDeltaSpectatorBase: a spectator that names bases in its
// keep-alives, as its own slot and as a player's, still gets whole
// States only, and its datagrams change no player's base.
func TestAttackDeltaSpectatorBase(t *testing.T) {
	g := newDeltaRig(t, ServerConfig{Players: 2, StateEvery: 2})
	a := g.join("a")
	b := g.join("b")
	g.next++
	from := netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 9, 0, 1}), 40000)
	raw := rawHandshake(t, g.s, g.now, from, 9999)
	if st, why := raw.request(t, g.s, g.now, proto.Request{Spectate: true}); st == nil {
		t.Fatalf("spectator refused: %v", why)
	}
	sp := &deltaPeer{rawPeer: raw}
	g.peers = append(g.peers, sp)
	for i := 0; i < 400; i++ {
		g.tick()
		now := g.s.clk.now()
		g.input(a, a.have, a.newest, game.Input{})
		g.input(b, b.have, b.newest, game.Input{})
		// As a spectator, naming the newest State and the tick before.
		g.input(sp, true, now.Add(-2), game.Input{})
		// Posing as seat 0 with a base from the spectator's connection.
		slot := sp.slot
		sp.slot = a.slot
		g.input(sp, true, now.Add(-4), game.Input{})
		sp.slot = slot
	}
	g.noFaults()
	if sp.deltas != 0 || sp.received < 100 {
		t.Fatalf("spectator: %d deltas of %d States", sp.deltas, sp.received)
	}
	if a.deltas < 100 || b.deltas < 100 {
		t.Fatalf("players' deltas %d %d", a.deltas, b.deltas)
	}
}

// TestAttackDeltaClientCraftedStates hands a playing client crafted delta
// States (as a buggy server would send them, past the sealing): against
// bases it never held or forgot, Back 120 from far ahead, a slot count
// not the baseline's, a wrong hash, a base at tick 0 and across the wrap.
// It must not panic, must take none of them, and must go back to taking
// the server's deltas.
func TestAttackDeltaClientCraftedStates(t *testing.T) {
	n := newSimnet(t, ServerConfig{Players: 2, Bots: 1, NewBot: func(int, uint64) InputSource { return walker{} }})
	link := transport.Impairment{Latency: 20 * time.Millisecond}
	sc := n.addClient(ClientConfig{LocalInput: func(w *game.World, slot int) game.Input { return scripted(5, slot, w.Tick()) }}, link, link, 1)
	if !n.runUntil(5*time.Second, n.playing) {
		t.Fatal("not playing")
	}
	n.run(2 * time.Second)
	c := sc.c
	before := c.Metrics()
	if before.DeltaStates == 0 {
		t.Fatal("no deltas before")
	}
	last, _ := c.tl.auth()
	seq := uint32(1 << 30)
	inject := func(tick game.Tick, back uint8, slots uint8, hash uint64, in game.Input) {
		st := proto.State{Header: proto.Header{Match: c.sess.matchID(), Player: uint8(c.sess.seat()), Seq: seq}}
		seq++
		st.Snapshot.Tick, st.Snapshot.Slots, st.Back, st.Hash = tick, slots, back, hash
		for i := 0; i < int(back); i++ {
			for s := 0; s < int(slots); s++ {
				st.Steps[i][s] = in
			}
		}
		b := st.Append(nil)
		h, err := proto.ParseHeader(b)
		if err != nil {
			t.Fatal(err)
		}
		var chk proto.State
		if err := proto.ParseState(b, &chk); err != nil {
			t.Fatalf("crafted State does not parse: %v", err)
		}
		c.onState(n.now, h, b[proto.HeaderLen:])
	}
	base := c.tl.snapshot(last)
	if base == nil {
		t.Fatal("no baseline held")
	}
	slots := base.Slots
	inject(last.Add(1), 1, slots, 1, game.Input{MoveX: 1})                 // the right base, a wrong hash
	inject(last.Add(3), 3, slots, 2, game.Input{})                         // bases forgotten just now
	inject(last.Add(200), proto.MaxBack, slots, 3, game.Input{})           // far ahead, a base never held
	inject(last.Add(5), 5, slots+1, 4, game.Input{MoveY: -1})              // slots not the baseline's
	inject(last.Add(7), 7, 1, 5, game.Input{})                             // one slot
	inject(game.Tick(3), 3, slots, 6, game.Input{})                        // base 0, a stale tick
	inject(game.Tick(2), 4, slots, 7, game.Input{})                        // base across the wrap
	inject(last.Add(proto.MaxBack), proto.MaxBack, slots, 8, game.Input{}) // exactly MaxBack from the base
	after := c.Metrics()
	if after.DeltaStates != before.DeltaStates {
		t.Fatalf("took crafted deltas: %d → %d", before.DeltaStates, after.DeltaStates)
	}
	n.run(3 * time.Second)
	end := c.Metrics()
	if end.DeltaStates < after.DeltaStates+50 {
		t.Fatalf("deltas after the crafted ones: %d → %d (full %d)", after.DeltaStates, end.DeltaStates, end.FullStates)
	}
	if end.HashMismatches != after.HashMismatches {
		t.Fatalf("hash mismatches after recovery: %d → %d", after.HashMismatches, end.HashMismatches)
	}
	if c.Status() != StatusPlaying {
		t.Fatalf("status %v", c.Status())
	}
}

// TestAttackDeltaNotShorterIsWhole: PROTOCOL.md §5.7 says a server sends
// the delta only when it is shorter than the whole State; at the same
// length the whole State, which needs no baseline, goes.
func TestAttackDeltaNotShorterIsWhole(t *testing.T) {
	var d deltaLog
	d.reset(0)
	for tk := game.Tick(0); tk < 41; tk++ {
		d.stepped(tk, []game.Input{{Tick: tk, MoveX: int8(tk % 2)}, {Tick: tk}})
	}
	var st proto.State
	st.Snapshot.Tick, st.Snapshot.Slots = 41, 2
	st.Snapshot.Tanks[0].Seated, st.Snapshot.Tanks[1].Seated = true, true
	// Base 8: slot 0 alternates over 33 ticks (32 runs of 2 bytes and a
	// last of 1), slot 1 holds (1 byte): 49 + 66 = 115 bytes, as the whole
	// State's 75 + 2 × 12 + 2 × 8.
	isDelta := d.delta(&st, 8, true)
	st.Back = 33
	if st.Len() != st.FullLen() {
		t.Fatalf("the case is not one of equal lengths: delta %d, whole %d", st.Len(), st.FullLen())
	}
	if isDelta {
		t.Fatalf("a delta of %d bytes sent in place of a whole State of %d", st.Len(), st.FullLen())
	}
	// One tick less back is shorter: a delta.
	if !d.delta(&st, 9, true) || st.Len() >= st.FullLen() {
		t.Fatalf("a shorter delta not sent (back %d, %d against %d bytes)", st.Back, st.Len(), st.FullLen())
	}
}
