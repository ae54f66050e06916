package sshfront

import (
	"math/rand/v2"
	"net/netip"
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func testGate(lim gateLimits) *gate {
	if lim.maxConns == 0 {
		lim.maxConns = 128
	}
	if lim.maxConnsPerIP == 0 {
		lim.maxConnsPerIP = 8
	}
	if lim.startups == (MaxStartups{}) {
		lim.startups = defaultStartups(lim.maxConns)
	}
	if lim.penalty == 0 {
		lim.penalty, lim.penaltyMax = 10*time.Second, 100*time.Second
	}
	if lim.kex == (KexLimits{}) {
		lim.kex = KexLimits{Rate: -1, Global: -1} // no rate limit unless the test asks
	}
	return newGate(lim, rand.New(rand.NewPCG(1, 2)), &BanList{})
}

// addr is 10.0.x.y for n = x*256+y.
func addr(n int) netip.Addr { return netip.AddrFrom4([4]byte{10, 0, byte(n >> 8), byte(n)}) }

func mustAdmit(t *testing.T, g *gate, ip netip.Addr, now time.Time) (*slot, []*slot) {
	t.Helper()
	s, drop, why := g.admit(ip, now)
	if why != "" {
		t.Fatalf("%v refused at %v: %s", ip, now.Sub(t0), why)
	}
	return s, drop
}

// TestGateStages: a slot's stage only moves forward; admitted ends its
// startup; closed is final and closing twice counts once.
func TestGateStages(t *testing.T) {
	g := testGate(gateLimits{})
	s, _ := mustAdmit(t, g, addr(1), t0)
	steps := []struct {
		to    connStage
		moved bool
	}{
		{stageGreeted, true}, {stageAccepted, false}, {stageChannel, true}, {stageAuthed, false},
		{stagePty, true}, {stageAdmitted, true}, {stageAdmitted, false}, {stageClosed, false},
	}
	for i, st := range steps {
		if got := g.advance(s, st.to, t0.Add(time.Duration(i)*time.Second)); got != st.moved {
			t.Errorf("step %d, to %v: moved %v, want %v (stage now %v)", i, st.to, got, st.moved, s.stage)
		}
	}
	if g.startups != 0 || len(g.slots) != 1 {
		t.Errorf("after admission: %d startups, %d slots; want 0, 1", g.startups, len(g.slots))
	}
	g.close(s, t0, false)
	g.close(s, t0, false)
	if s.stage != stageClosed || len(g.slots) != 0 || len(g.perIP) != 0 || g.startups != 0 {
		t.Errorf("after close: stage %v, %d slots, %d addresses, %d startups", s.stage, len(g.slots), len(g.perIP), g.startups)
	}
	if g.advance(s, stageAdmitted, t0) {
		t.Error("a closed slot moved")
	}
}

// TestGateEarlyDrop: below Start nothing is dropped; from Start on, new
// connections drop startups at about the rate MaxStartups says (seeded,
// so exact); at Full every one does; the one dropped is the startup idle
// longest (a silent one first), never an admitted player's; with every
// connection a player's, a newcomer beyond MaxConns is refused.
func TestGateEarlyDrop(t *testing.T) {
	g := testGate(gateLimits{maxConns: 40, startups: MaxStartups{Start: 10, Rate: 30, Full: 30}})
	now := t0
	tick := func() time.Time { now = now.Add(time.Millisecond); return now }
	var player *slot
	for i := range 10 {
		s, drop := mustAdmit(t, g, addr(i), tick())
		if len(drop) != 0 {
			t.Fatalf("connection %d dropped %d below Start", i, len(drop))
		}
		g.advance(s, stageGreeted, now)
		if i == 0 {
			player = s
			g.advance(s, stageAdmitted, now)
		}
	}
	// Between Start and Full: the drop probability with n startups is
	// 30% + 70% * (n-10)/20. Hold n at 15 (47.5%) for each newcomer,
	// and count.
	drops, tries, silent := 0, 2000, 0
	for i := range tries {
		for g.startups < 15 {
			silent++
			mustAdmit(t, g, addr(10000+silent), tick()) // says nothing
		}
		at := tick()
		want := g.victim(at)
		s, drop := mustAdmit(t, g, addr(1000+i%500), at)
		g.advance(s, stageGreeted, now)
		for _, d := range drop {
			if d == player {
				t.Fatal("the admitted player was dropped")
			}
			if d != want {
				t.Fatalf("dropped a connection in stage %v idle %v, not the one idle longest (stage %v, idle %v)",
					d.stage, at.Sub(d.progressed), want.stage, at.Sub(want.progressed))
			}
		}
		if len(drop) > 0 {
			drops++
		}
		for g.startups > 14 { // back to 14 + the next newcomer = 15
			g.close(g.victim(now), now, false)
		}
	}
	if got := float64(drops) / float64(tries); got < 0.425 || got > 0.525 {
		t.Errorf("drop rate at 15 startups %.3f, want about 0.475", got)
	}
	// At Full: each newcomer drops exactly one, the one idle longest.
	for g.startups < 30 {
		silent++
		s, _ := mustAdmit(t, g, addr(10000+silent), tick())
		g.advance(s, stageGreeted, now)
	}
	stalest := g.victim(now)
	s, drop := mustAdmit(t, g, addr(4000), tick())
	if len(drop) != 1 || drop[0] != stalest || g.startups != 30 {
		t.Errorf("at Full: dropped %v (want the stalest), %d startups (want 30)", drop, g.startups)
	}
	g.advance(s, stageGreeted, now)
	// Every connection a player's: nothing to drop, the newcomer is refused.
	h := testGate(gateLimits{maxConns: 4, startups: MaxStartups{Start: 1, Rate: 100, Full: 4}})
	for i := range 4 {
		s, _ := mustAdmit(t, h, addr(i), t0)
		h.advance(s, stageAdmitted, t0)
	}
	if _, drop, why := h.admit(addr(9), t0); why != refusedFull || len(drop) != 0 {
		t.Errorf("full of players: refused %q, dropped %d; want %q, 0", why, len(drop), refusedFull)
	}
}

// TestGatePenalties: one wasted slot is forgiven; the second refuses
// the source for Penalty, each further one twice as long up to
// PenaltyMax; strikes are forgotten after PenaltyMax; other sources are
// not affected; a drop of a connection idle under strikeIdle is no strike.
func TestGatePenalties(t *testing.T) {
	g := testGate(gateLimits{penalty: 10 * time.Second, penaltyMax: 100 * time.Second})
	bad, good := addr(1), addr(2)
	waste := func(at time.Time) {
		t.Helper()
		s, _ := mustAdmit(t, g, bad, at)
		g.close(s, at, true)
	}
	waste(t0)
	if g.penalised(bad, t0) {
		t.Fatal("refused after one wasted slot")
	}
	now := t0.Add(time.Second)
	waste(now)
	for _, c := range []struct {
		after time.Duration
		want  bool
	}{{0, true}, {9 * time.Second, true}, {10*time.Second + 1, false}} {
		if got := g.penalised(bad, now.Add(c.after)); got != c.want {
			t.Errorf("second strike, %v later: refused %v, want %v", c.after, got, c.want)
		}
	}
	if _, _, why := g.admit(bad, now); why != refusedPenalised {
		t.Errorf("admit of a penalised source: %q, want %q", why, refusedPenalised)
	}
	if g.penalised(good, now) {
		t.Error("another source is refused")
	}
	wantRefused := []time.Duration{20 * time.Second, 40 * time.Second, 80 * time.Second, 100 * time.Second, 100 * time.Second}
	for i, want := range wantRefused {
		now = now.Add(200 * time.Millisecond)
		s := &slot{ip: bad, prefix: bad, stage: stageGreeted} // a connection admitted before the refusal
		g.slots[s], g.startups = struct{}{}, g.startups+1
		g.perIP[bad]++
		g.close(s, now, true)
		if !g.penalised(bad, now.Add(want-time.Millisecond)) || g.penalised(bad, now.Add(want+time.Millisecond)) {
			t.Errorf("strike %d: not refused for exactly %v", i+3, want)
		}
	}
	// Forgotten: after PenaltyMax without a strike, one strike is again
	// forgiven.
	now = now.Add(101 * time.Second)
	waste(now)
	if g.penalised(bad, now) {
		t.Error("refused after one strike once the earlier ones were forgotten")
	}
	// A drop for room of a connection that just progressed is no strike.
	h := testGate(gateLimits{maxConns: 2, startups: MaxStartups{Start: 2, Rate: 0, Full: 2}})
	for i := range 2 {
		s, _ := mustAdmit(t, h, bad, t0)
		h.advance(s, stageAuthed, t0)
		_ = i
	}
	for i := range 3 {
		s, drop := mustAdmit(t, h, addr(10+i), t0.Add(100*time.Millisecond))
		h.advance(s, stageAuthed, t0.Add(100*time.Millisecond))
		if len(drop) != 1 {
			t.Fatalf("at Full: dropped %d", len(drop))
		}
	}
	if p := h.penalties[bad]; p != nil {
		t.Errorf("connections dropped 100ms after progress were counted: %+v", *p)
	}
}

// TestGateBans: a banned prefix is refused at once but for one
// connection each BanNoticeEvery, let through to be told; an
// IPv4-mapped address counts as its IPv4 one, and banning an IPv6
// address bans its /64 and nothing beyond.
func TestGateBans(t *testing.T) {
	g := testGate(gateLimits{})
	ip := addr(7)
	mustAdmit(t, g, ip, t0)
	g.bans.Ban(netip.AddrFrom16(ip.As16()))
	mustAdmit(t, g, ip, t0) // the one told
	if _, _, why := g.admit(ip, t0.Add(time.Second)); why != refusedBanned {
		t.Errorf("banned address: %q, want %q", why, refusedBanned)
	}
	mustAdmit(t, g, ip, t0.Add(BanNoticeEvery)) // told again a minute on
	if _, _, why := g.admit(ip, t0.Add(BanNoticeEvery+time.Second)); why != refusedBanned {
		t.Errorf("banned address after its second notice: %q, want %q", why, refusedBanned)
	}
	mustAdmit(t, g, addr(8), t0)

	g.bans.Ban(netip.MustParseAddr("2001:db8:1:2::7"))
	mustAdmit(t, g, netip.MustParseAddr("2001:db8:1:2:ffff::1"), t0) // the prefix's notice
	if _, _, why := g.admit(netip.MustParseAddr("2001:db8:1:2:aaaa::9"), t0); why != refusedBanned {
		t.Errorf("another address of a banned /64: %q, want %q", why, refusedBanned)
	}
	mustAdmit(t, g, netip.MustParseAddr("2001:db8:1:3::7"), t0) // the next /64
}

// TestGatePrefixCap: MaxConnsPerIP counts a /64, not an address: a
// host that walks its /64 gets no more connections than one that does
// not, and closing one frees a place.
func TestGatePrefixCap(t *testing.T) {
	g := testGate(gateLimits{maxConnsPerIP: 3})
	var held []*slot
	for i := range 3 {
		s, _ := mustAdmit(t, g, netip.MustParseAddr("2001:db8::"+string(rune('1'+i))), t0)
		held = append(held, s)
	}
	if _, _, why := g.admit(netip.MustParseAddr("2001:db8::ffff"), t0); why != refusedPerIP {
		t.Errorf("a fourth address of the /64: %q, want %q", why, refusedPerIP)
	}
	mustAdmit(t, g, netip.MustParseAddr("2001:db8:0:1::1"), t0)
	g.close(held[0], t0, false)
	mustAdmit(t, g, netip.MustParseAddr("2001:db8::ffff"), t0)
}

// TestGateKexLimits: a connection spends a key-exchange token when its
// client first speaks, so a prefix past its burst is closed while
// another gets in, and a silent connection spends none.
func TestGateKexLimits(t *testing.T) {
	g := testGate(gateLimits{maxConnsPerIP: 100, kex: KexLimits{Rate: 1, Burst: 2, Global: 100, GlobalBurst: 100}})
	for range 2 {
		s, _ := mustAdmit(t, g, addr(1), t0)
		if why := g.kexStart(s, t0); why != "" {
			t.Fatalf("within the burst: %s", why)
		}
	}
	silent, _ := mustAdmit(t, g, addr(1), t0) // a connection that says nothing spends nothing
	s, _ := mustAdmit(t, g, addr(1), t0)
	if why := g.kexStart(s, t0); why != refusedKexPrefix || s.stage != stageClosed {
		t.Errorf("past the prefix's burst: %q, stage %v; want %q, closed", why, s.stage, refusedKexPrefix)
	}
	if silent.stage == stageClosed {
		t.Error("the silent connection was closed")
	}
	if why := g.kexStart(mustSlot(t, g, addr(2)), t0); why != "" {
		t.Errorf("another prefix: %s", why)
	}
	if why := g.kexStart(mustSlot(t, g, addr(1)), t0.Add(time.Second)); why != "" {
		t.Errorf("a second on: %s", why)
	}
}

func mustSlot(t *testing.T, g *gate, ip netip.Addr) *slot {
	t.Helper()
	s, _ := mustAdmit(t, g, ip, t0)
	return s
}
