package sshfront

import (
	"net/netip"
	"testing"
	"time"
)

// TestKexLimiterPerPrefix: a prefix has Burst at once and Rate a second
// after; a neighbour in another prefix is not held back by it; the
// addresses of one IPv6 /64 share a bucket.
func TestKexLimiterPerPrefix(t *testing.T) {
	l := newKexLimiter(KexLimits{Rate: 2, Burst: 4, Global: 1000, GlobalBurst: 1000})
	a := prefixOf(netip.MustParseAddr("2001:db8::1"))
	for i := range 4 {
		if why := l.allow(a, t0); why != "" {
			t.Fatalf("key exchange %d of the burst refused: %s", i+1, why)
		}
	}
	if why := l.allow(prefixOf(netip.MustParseAddr("2001:db8::2")), t0); why != refusedKexPrefix {
		t.Errorf("another address of the same /64 past the burst: %q, want %q", why, refusedKexPrefix)
	}
	if why := l.allow(prefixOf(netip.MustParseAddr("2001:db8:0:1::1")), t0); why != "" {
		t.Errorf("the next /64: refused: %s", why)
	}
	if why := l.allow(a, t0.Add(400*time.Millisecond)); why != refusedKexPrefix {
		t.Errorf("0.4 s on at 2/s: %q, want refused", why)
	}
	if why := l.allow(a, t0.Add(500*time.Millisecond)); why != "" {
		t.Errorf("0.5 s on at 2/s: refused: %s", why)
	}
}

// TestKexLimiterGlobalAndReserve: past the global cap a busy prefix is
// refused, but a quiet one still gets in on the reserve; once the
// reserve is spent too, everyone waits.
func TestKexLimiterGlobalAndReserve(t *testing.T) {
	l := newKexLimiter(KexLimits{Rate: 10, Burst: 10, Global: 5, GlobalBurst: 5, Reserve: 2})
	for i := range 5 { // five busy prefixes spend the global cap
		if why := l.allow(addr(i), t0); why != "" {
			t.Fatalf("prefix %d refused under the global cap: %s", i, why)
		}
	}
	if why := l.allow(addr(0), t0); why != refusedKexAll {
		t.Errorf("a busy prefix past the global cap: %q, want %q", why, refusedKexAll)
	}
	for i := range 2 { // quiet newcomers use the reserve
		if why := l.allow(addr(100+i), t0); why != "" {
			t.Errorf("quiet prefix %d past the global cap: refused: %s", i, why)
		}
	}
	if why := l.allow(addr(200), t0); why != refusedKexAll {
		t.Errorf("a quiet prefix with the reserve spent: %q, want %q", why, refusedKexAll)
	}
	if why := l.allow(addr(200), t0.Add(time.Second)); why != "" {
		t.Errorf("a second on: refused: %s", why)
	}
}

// TestKexLimiterBounded: the buckets kept are bounded; the full ones are
// forgotten first.
func TestKexLimiterBounded(t *testing.T) {
	l := newKexLimiter(KexLimits{Rate: 1, Burst: 1, Global: -1})
	for i := range maxKexPrefixes + 10 {
		ip := netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)})
		_ = l.allow(ip, t0.Add(time.Duration(i)*time.Millisecond))
	}
	if n := len(l.prefixes); n > maxKexPrefixes {
		t.Errorf("%d prefixes kept, want at most %d", n, maxKexPrefixes)
	}
}

// TestTally: one line for many events, counted by what happened, the
// busiest prefix named; the tally is empty after take, and the first add
// of an interval says so.
func TestTally(t *testing.T) {
	var ty tally
	if !ty.add("refused: banned", addr(1), t0) {
		t.Error("the first add of an interval did not say so")
	}
	for i := range 1000 {
		if ty.add("refused: "+refusedKexPrefix, addr(2), t0.Add(time.Duration(i)*time.Millisecond)) {
			t.Fatal("a later add said it was the first")
		}
	}
	ty.add("closed: setup deadline (greeted)", addr(3), t0)
	l, ok := ty.take()
	if !ok {
		t.Fatal("nothing taken")
	}
	want := "refused: " + refusedKexPrefix + " ×1000, closed: setup deadline (greeted) ×1, refused: banned ×1"
	if l.total != 1002 || l.events != want || l.top != addr(2) || l.topCount != 1000 || l.prefixes != 3 {
		t.Errorf("took %+v, want 1002 events %q, top %v ×1000 of 3 prefixes", l, want, addr(2))
	}
	if _, ok := ty.take(); ok {
		t.Error("a second take found events")
	}
}

// TestWinchLimiter: WinchBurst window-changes at once are applied, the
// rest of a burst ignored; at 1000 a second the channel is a flood within
// about WinchFloodBurst of them; at 50 a second (a window being dragged)
// it never is, and WinchRate of them a second are applied.
func TestWinchLimiter(t *testing.T) {
	l := newWinchLimiter(t0)
	kept := 0
	for range WinchBurst + 10 {
		if keep, flood := l.take(t0); keep {
			kept++
		} else if flood {
			t.Fatal("a flood within the first burst")
		}
	}
	if kept != WinchBurst {
		t.Errorf("kept %d of a burst, want %d", kept, WinchBurst)
	}
	l = newWinchLimiter(t0)
	n := 0
	for ; n < 10000; n++ {
		if _, flood := l.take(t0.Add(time.Duration(n) * time.Millisecond)); flood {
			break
		}
	}
	if n < WinchFloodBurst || n > 2*WinchFloodBurst {
		t.Errorf("at 1000 a second: a flood after %d, want between %d and %d", n, WinchFloodBurst, 2*WinchFloodBurst)
	}
	l = newWinchLimiter(t0)
	kept = 0
	for i := range 50 * 60 { // a minute at 50 a second
		keep, flood := l.take(t0.Add(time.Duration(i) * 20 * time.Millisecond))
		if flood {
			t.Fatalf("a window dragged at 50 a second is a flood after %d", i)
		}
		if keep {
			kept++
		}
	}
	if want := WinchBurst + 60*WinchRate; kept < want-2 || kept > want+2 {
		t.Errorf("kept %d in a minute at 50 a second, want about %d", kept, want)
	}
}
