package netcode

import (
	"encoding/binary"
	"net/netip"
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/netcode/transport"
	"ttytanks/proto"
)

// TestHostileInputDroppedAndCounted: junk and forged datagrams are dropped
// and counted by reason, and the match goes on exactly as if they had never
// been sent. Three kinds: junk; forgeries by someone on the path who
// knows the session but not its keys (in the clear, or sealed with a tag
// that does not verify, or for no connection); and datagrams a peer of
// the match seals on its own connection with values the server's checks
// refuse (stale, far future, bad moves and buttons, a trailing byte, an
// epoch that stands for no match, a replay).
func TestHostileInputDroppedAndCounted(t *testing.T) {
	run := func(hostile bool) (uint64, ServerStats) {
		w := newWire(t, ServerConfig{Players: 2, StateEvery: 1})
		// The hostile peer takes a seat first, so it is in the match the
		// honest client starts by joining.
		p := rawHandshake(t, w.srv, w.now, netip.MustParseAddrPort("127.0.0.2:5000"), 4242)
		if st, why := p.request(t, w.srv, w.now, proto.Request{Name: "hostile"}); st == nil {
			t.Fatalf("the hostile peer was refused: %v", why)
		}
		c := w.join(ClientConfig{})
		if st, _ := p.request(t, w.srv, w.now, proto.Request{Name: "hostile"}); st == nil || st.Need != 0 {
			t.Fatal("setup: the hostile peer has no Start of the running match")
		}
		addr := w.addr[c]
		for k := 0; k < 40; k++ {
			in := w.stepClient(c, scripted(9, 0, c.World().Tick()))
			if hostile && k == 20 {
				w.attack(t, c, p, in) // first, so a forgery that got in would take the tick's slot
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
		DropShort: 2, DropMagic: 1, DropVersion: 1, DropType: 1,
		DropClear: 1, DropBadSeal: 3, DropUnknownConn: 1,
		DropMalformed: 1, DropStale: 1, DropFuture: 1, DropBadInput: 2, DropWrongMatch: 1, DropReplay: 1,
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

// attack sends the server one of each kind of hostile datagram: built
// from a genuine (sealed) Input datagram of client c, and sealed by p, a
// peer seated in the same match.
func (w *wire) attack(t *testing.T, c *Client, p *rawPeer, genuine []byte) {
	t.Helper()
	addr := w.addr[c]
	_, clear, ok := peekUp(w.srv, c, genuine)
	if !ok {
		t.Fatal("setup: the genuine Input does not open")
	}
	// Forgeries carry other moves than the genuine datagram, so one that
	// slipped through would change the match (and the test's hash).
	forge := func(edit func(p *proto.Input)) []byte {
		p, err := proto.ParseInput(clear)
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
	// tamper changes a copy of the genuine sealed datagram.
	tamper := func(edit func(b []byte)) []byte {
		b := append([]byte(nil), genuine...)
		edit(b)
		return b
	}
	send := func(from netip.AddrPort, b []byte) {
		for _, d := range w.srv.Receive(w.now, from, b) {
			if h, err := proto.ParseHeader(d.Data); err != nil || h.Type != proto.TypeReject {
				t.Fatalf("server answered a hostile datagram with %v", typeOf(d.Data))
			}
		}
	}
	stranger := netip.MustParseAddrPort("127.0.0.1:4444")
	cur := w.srv.World().Tick()
	// Junk.
	send(addr, nil)                                  // short
	send(addr, genuine[:10])                         // short
	send(addr, raw(func(b []byte) { b[0] ^= 0xff })) // magic
	send(addr, raw(func(b []byte) { b[2] = 99 }))    // version
	send(addr, raw(func(b []byte) { b[3] = 100 }))   // type
	// Forgeries on the path: the session is known, the keys are not.
	send(addr, forge(func(*proto.Input) {}))                                                // clear
	send(addr, tamper(func(b []byte) { b[len(b)-1] ^= 1 }))                                 // bad seal: the tag
	send(addr, tamper(func(b []byte) { binary.BigEndian.PutUint32(b[8:], ^uint32(0)) }))    // bad seal: a packet number far ahead
	send(stranger, tamper(func(b []byte) { b[proto.SealedHeaderLen] ^= 1 }))                // bad seal, from a spoofed source
	send(addr, tamper(func(b []byte) { binary.BigEndian.PutUint32(b[4:], ^c.hs.conn.id) })) // unknown connection
	// A peer of the match, on its own connection: values the server's
	// own checks refuse.
	own := func(match uint32, newest game.Tick, edit func(b []byte) []byte) []byte {
		in := proto.Input{Header: proto.Header{Match: match, Player: p.slot}, N: 2}
		in.Inputs[0], in.Inputs[1] = game.Input{Tick: newest.Add(-1), MoveX: 1}, game.Input{Tick: newest, MoveX: 1}
		return p.sealClear(edit(in.Append(nil)))
	}
	as := func(b []byte) []byte { return b }
	stale := own(p.match, cur.Add(-50), as)
	send(p.from, stale)                                                                     // stale
	send(p.from, stale)                                                                     // replay
	send(p.from, own(p.match, cur.Add(500), as))                                            // far future
	send(p.from, own(p.match, cur, func(b []byte) []byte { return append(b, 0) }))          // trailing byte
	send(p.from, own(p.match, cur, func(b []byte) []byte { b[len(b)-2] = 0x02; return b })) // a move x of bits 10
	send(p.from, own(p.match, cur, func(b []byte) []byte { b[len(b)-1] = 0x40; return b })) // an unknown bit
	send(p.from, own(p.match^4, cur, as))                                                   // an epoch that stands for no match
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
	m := transport.Impairment{Latency: 50 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.2, Dup: 0.1}
	a, b := transport.NewNetsim(m, 3), transport.NewNetsim(m, 3)
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
