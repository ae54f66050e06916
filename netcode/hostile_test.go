package netcode

import (
	"net/netip"
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/proto"
)

// TestHostileInputDroppedAndCounted: junk and forged datagrams are dropped
// and counted by reason, and the match goes on exactly as if they had never
// been sent.
func TestHostileInputDroppedAndCounted(t *testing.T) {
	run := func(hostile bool) (uint64, ServerStats) {
		w := newWire(t, ServerConfig{Players: 1, StateEvery: 1})
		c := w.join(ClientConfig{})
		addr := w.addr[c]
		for k := 0; k < 40; k++ {
			in := w.stepClient(c, scripted(9, 0, c.World().Tick()))
			if hostile && k == 20 {
				w.attack(t, c, in) // first, so a forgery that got in would take the tick's slot
			}
			w.srv.Receive(w.now, addr, in)
			w.tick()
		}
		return w.srv.World().Hash(), w.srv.Stats()
	}
	clean, _ := run(false)
	got, st := run(true)
	if got != clean {
		t.Fatal("hostile datagrams changed the match")
	}
	want := map[DropReason]uint64{
		DropShort: 2, DropMagic: 1, DropVersion: 1, DropType: 1, DropWrongSession: 1, DropWrongMatch: 1,
		DropWrongAddr: 1, DropStale: 1, DropFuture: 1, DropBadInput: 2, DropUnknownPlayer: 1, DropMalformed: 1,
	}
	for r, n := range want {
		if st.Drops[r] != n {
			t.Errorf("drops[%s] = %d, want %d", r, st.Drops[r], n)
		}
	}
	var total uint64
	for _, n := range want {
		total += n
	}
	if st.DroppedTotal() != total {
		t.Errorf("%d drops in all, want %d: %v", st.DroppedTotal(), total, st.Drops)
	}
}

// attack sends the server one of each kind of hostile datagram, built from
// a genuine Input datagram of client c.
func (w *wire) attack(t *testing.T, c *Client, genuine []byte) {
	t.Helper()
	addr := w.addr[c]
	// Forgeries carry other moves than the genuine datagram, so one that
	// slipped through would change the match (and the test's hash).
	forge := func(edit func(p *proto.Input)) []byte {
		p, err := proto.ParseInput(genuine)
		if err != nil {
			t.Fatal(err)
		}
		for k := range p.Inputs[:p.N] {
			p.Inputs[k].MoveX, p.Inputs[k].MoveY = -p.Inputs[k].MoveX, 1-p.Inputs[k].MoveY&1
			p.Inputs[k].Buttons ^= game.ButtonFire
		}
		edit(&p)
		return p.Append(nil)
	}
	raw := func(edit func(b []byte)) []byte {
		b := forge(func(*proto.Input) {})
		edit(b)
		return b
	}
	send := func(from netip.AddrPort, b []byte) {
		if out := w.srv.Receive(w.now, from, b); len(out) > 0 {
			for _, d := range out {
				h, _ := proto.ParseHeader(d.Data)
				if h.Type != proto.TypeReject {
					t.Fatalf("server answered a hostile datagram with %v", h.Type)
				}
			}
		}
	}
	stranger := netip.MustParseAddrPort("127.0.0.1:4444")
	cur := w.srv.World().Tick()
	send(addr, nil)                                                    // short
	send(addr, genuine[:10])                                           // short
	send(addr, raw(func(b []byte) { b[0] ^= 0xff }))                   // magic
	send(addr, raw(func(b []byte) { b[2] = 99 }))                      // version
	send(addr, raw(func(b []byte) { b[3] = 200 }))                     // type
	send(addr, forge(func(p *proto.Input) { p.Session++ }))            // wrong session
	send(addr, forge(func(p *proto.Input) { p.Match ^= 4 }))           // wrong match
	send(stranger, forge(func(*proto.Input) {}))                       // spoofed source
	send(addr, forge(func(p *proto.Input) { p.Player = 5 }))           // no such seat
	send(addr, append(forge(func(*proto.Input) {}), 0))                // trailing byte
	send(addr, forge(func(p *proto.Input) { shift(p, cur.Add(-50)) })) // stale
	send(addr, forge(func(p *proto.Input) { shift(p, cur.Add(500)) })) // far future
	bad := forge(func(p *proto.Input) {})
	bad[len(bad)-3] = 7 // a move value of 7
	send(addr, bad)
	bad = forge(func(p *proto.Input) {})
	bad[len(bad)-1] = 0x80 // an unknown button
	send(addr, bad)
}

// shift renumbers an Input's ticks so its newest is newest.
func shift(p *proto.Input, newest game.Tick) {
	for k := 0; k < int(p.N); k++ {
		p.Inputs[k].Tick = newest.Add(int32(k - int(p.N) + 1))
	}
}

func TestRingRejectsStaleSlots(t *testing.T) {
	r := NewRing[int](8)
	r.Put(3, 30)
	if v, ok := r.Get(3); !ok || v != 30 {
		t.Fatalf("Get(3) = %d, %v", v, ok)
	}
	r.Put(11, 110) // same slot as 3
	if _, ok := r.Get(3); ok {
		t.Fatal("Get(3) returned the value of tick 11")
	}
	if _, ok := r.Get(19); ok {
		t.Fatal("Get(19) returned the value of tick 11")
	}
	if _, ok := r.Get(4); ok {
		t.Fatal("an empty slot was reported present")
	}
	r.Put(game.Tick(^uint32(0)), 7) // wraps cleanly
	if v, ok := r.Get(game.Tick(^uint32(0))); !ok || v != 7 {
		t.Fatal("tick 2^32-1 not stored")
	}
	r.Clear()
	if r.Has(11) {
		t.Fatal("Clear kept an entry")
	}
	if NewRing[int](0).Cap() != 1 {
		t.Fatal("zero capacity not raised to 1")
	}
}

func TestClockCatchUpCapAndRate(t *testing.T) {
	var c TickClock
	t0 := simEpoch
	if n := c.Advance(t0); n != 0 {
		t.Fatalf("first Advance = %d", n)
	}
	if n := c.Advance(t0.Add(3*TickDuration + time.Millisecond)); n != 3 {
		t.Fatalf("3 ticks later Advance = %d", n)
	}
	if n := c.Advance(t0.Add(10 * time.Second)); n != MaxCatchUpTicks {
		t.Fatalf("after a 10 s stall Advance = %d, want the cap %d", n, MaxCatchUpTicks)
	}
	c.SetRate(1.05)
	now := t0.Add(10 * time.Second)
	total := 0
	for i := 0; i < 1000; i++ {
		now = now.Add(time.Millisecond)
		total += c.Advance(now)
	}
	if total != 63 { // 1000 ms × 1.05 / 16.67 ms
		t.Fatalf("at rate 1.05, 1 s gave %d ticks, want 63", total)
	}
}

func TestNetsimIsSeededAndImpairs(t *testing.T) {
	m := Impairment{Latency: 50 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.2, Dup: 0.1}
	a, b := NewNetsim(m, 3), NewNetsim(m, 3)
	lost, dup := 0, 0
	for i := 0; i < 10000; i++ {
		pa, pb := a.Plan(simEpoch, nil), b.Plan(simEpoch, nil)
		if len(pa) != len(pb) || (len(pa) > 0 && !pa[0].Equal(pb[0])) {
			t.Fatal("same seed, different plans")
		}
		switch len(pa) {
		case 0:
			lost++
		case 2:
			dup++
		}
		for _, at := range pa {
			if d := at.Sub(simEpoch); d < 40*time.Millisecond || d > 60*time.Millisecond {
				t.Fatalf("delay %v outside 50±10ms", d)
			}
		}
	}
	if lost < 1800 || lost > 2200 || dup < 650 || dup > 950 {
		t.Fatalf("lost %d, duplicated %d of 10000; want about 2000 and 800", lost, dup)
	}
}
