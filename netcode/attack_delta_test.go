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
