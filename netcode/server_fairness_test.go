package netcode

import (
	"net/netip"
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/netcode/transport"
	"ttytanks/proto"
)

// joinUnderFlood runs an honest client at honest against w's server for
// at most 5 s of virtual time, while flood(ms) sends the server, each
// millisecond, what an attacker sends; it returns how long the client
// took to be seated (0: it was not).
func joinUnderFlood(t *testing.T, w *wire, honest netip.AddrPort, flood func(ms int)) time.Duration {
	t.Helper()
	c := NewClient(ClientConfig{Server: srvAddr, Session: 4242})
	deliver := func(out []transport.Datagram) {
		for _, d := range out {
			if d.Addr == honest {
				c.Receive(w.now, srvAddr, d.Data)
			}
		}
	}
	for ms := 0; ms < 5000; ms++ {
		flood(ms)
		for _, d := range c.Advance(w.now, game.Input{}) {
			deliver(w.srv.Receive(w.now, honest, d.Data))
		}
		if ms%17 == 0 {
			deliver(w.srv.Tick(w.now))
		}
		if c.Status() == StatusWaiting || c.Status() == StatusPlaying {
			return time.Duration(ms+1) * time.Millisecond
		}
		w.now = w.now.Add(time.Millisecond)
	}
	t.Logf("the honest client: %v %v", c.Status(), c.Err())
	return 0
}

// TestSpoofedHelloFloodSparesANewPlayer: 260,000 Hellos a second from
// sources spread over a million spoofed addresses (the most the Hello
// limit can see: every one a fresh prefix) do not keep a new player at
// another address out: there is no global Hello budget for them to
// spend, and each is answered at most once, no larger than it came.
func TestSpoofedHelloFloodSparesANewPlayer(t *testing.T) {
	w := newWire(t, ServerConfig{Players: 2})
	hello := proto.Hello{Header: proto.Header{Session: 7}}
	b := hello.Append(nil)
	rng := game.RNG{State: 99}
	var sent, answered int
	took := joinUnderFlood(t, w, netip.MustParseAddrPort("203.0.113.200:4000"), func(int) {
		for range 260 {
			x := uint32(rng.Next())
			from := netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, byte(x >> 16), byte(x >> 8), byte(x)}), uint16(x>>3))
			sent++
			for _, d := range w.srv.Receive(w.now, from, b) {
				answered++
				if len(d.Data) > len(b) {
					t.Fatalf("a %d-byte answer to a %d-byte Hello", len(d.Data), len(b))
				}
			}
		}
	})
	if took == 0 || took > time.Second {
		t.Fatalf("a new player under a spoofed Hello flood was seated after %v, want within a second", took)
	}
	t.Logf("seated after %v; the flood's %d Hellos got %d answers", took, sent, answered)
}

// TestJoinFloodSparesANewPlayer: prefixes that really receive at their
// addresses (so their cookies are good) asking for key exchanges as fast
// as their Joins are answered spend the global key-exchange budget, but
// not the reserve of a quiet prefix: a new player still gets in within a
// second, and the server does at most the budget's key exchanges.
func TestJoinFloodSparesANewPlayer(t *testing.T) {
	w := newWire(t, ServerConfig{Players: 2})
	const prefixes = 2000
	cookies := make([]proto.Cookie, prefixes)
	addr := func(i int) netip.AddrPort {
		return netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 9, byte(i >> 8), byte(i)}), 5000)
	}
	session := func(i, n int) uint64 { return uint64(i)<<32 | uint64(n) | 1<<63 }
	var exchanges, n int
	took := joinUnderFlood(t, w, netip.MustParseAddrPort("203.0.113.201:4000"), func(ms int) {
		if ms%250 == 0 { // fresh cookies for every attacking prefix
			for i := range cookies {
				if c, err := tryCookie(w.srv, w.now, addr(i), session(i, 0)); err == nil {
					cookies[i] = c // else its Hello was over a limit: it keeps flooding with what it has
				}
			}
		}
		for k := 0; k < 6; k++ { // 6,000 Joins a second (3 a prefix, within its own rate), each a new key exchange
			i := (ms*6 + k) % prefixes
			n++
			j := proto.Join{Header: proto.Header{Session: session(i, 0)}, Cookie: cookies[i], Eph: [32]byte{byte(n), byte(n >> 8), 9}}
			for _, d := range w.srv.Receive(w.now, addr(i), j.Append(nil)) {
				if _, err := proto.ParseAccept(d.Data); err == nil {
					exchanges++
				}
			}
		}
	})
	if took == 0 || took > time.Second {
		t.Fatalf("a new player under a Join flood from %d prefixes was seated after %v, want within a second", prefixes, took)
	}
	secs := float64(took)/float64(time.Second) + 1
	if limit := int(secs*(kexGlobal+kexReserve)) + kexGlobal + prefixes*kexBurst; exchanges > limit {
		t.Fatalf("%d key exchanges in %.1f s, more than the budget allows (%d)", exchanges, secs, limit)
	}
	t.Logf("seated after %v; %d key exchanges for the flood's %d Joins", took, exchanges, n)

}

// TestFloodingPortSharesNoNewcomersBucket: the port table is shared by
// hash, so a flooding source port may share its bucket with a newcomer's
// (a flood from thousands of sources spends most of the table); the
// newcomer is still answered at once, on its prefix's budget.
func TestFloodingPortSharesNoNewcomersBucket(t *testing.T) {
	l := newHelloLimiter()
	now := simEpoch
	flooder := netip.MustParseAddrPort("198.51.100.7:40000")
	// The table's hash is seeded per limiter: about once in 50 seeds no
	// port of one address falls in the flooder's bucket, so the search
	// goes on over addresses, and it is bounded.
	var newcomer netip.AddrPort
search:
	for host := 1; host < 255; host++ {
		for p := 1024; p < 65536; p++ {
			c := netip.AddrPortFrom(netip.AddrFrom4([4]byte{203, 0, 113, byte(host)}), uint16(p))
			if l.portBucket(c) == l.portBucket(flooder) {
				newcomer = c
				break search
			}
		}
	}
	if !newcomer.IsValid() {
		t.Fatal("no newcomer's address and port shares the flooder's bucket")
	}
	for i := 0; i < 10_000; i++ {
		now = now.Add(100 * time.Microsecond)
		l.allow(flooder, now)
	}
	if l.allow(flooder, now) {
		t.Fatal("the flooding port is still answered")
	}
	for k := 0; k < 3; k++ { // a connecting client's Hello, Join and a repeat
		if !l.allow(newcomer, now) {
			t.Fatalf("request %d of a newcomer whose port shares the flooder's bucket was refused", k+1)
		}
	}
}

// TestKexFloodSharesNoNewcomersBucket: 2,000 prefixes whose cookies are
// good, each asking for key exchanges as fast as its Joins are answered,
// leave every newcomer's prefix untouched: its own budget is whole and it
// is quiet, so it may use the reserve. (A table shared by hash, as the
// Hello limiter's is, put a busy prefix in both of a newcomer's buckets
// about once in 70 newcomers: such a newcomer waited for the global
// budget, 3.3 s in one run.)
func TestKexFloodSharesNoNewcomersBucket(t *testing.T) {
	l := newKexLimiter()
	now := simEpoch
	const prefixes, newcomers = 2000, 500
	key := func(i int) netip.Addr { return netip.AddrFrom4([4]byte{10, 9, byte(i >> 8), byte(i)}) }
	served := 0
	for ms := 0; ms < 3000; ms++ { // 6,000 Joins a second, each a key exchange asked for
		now = now.Add(time.Millisecond)
		for k := 0; k < 6; k++ {
			if l.allow(key((ms*6+k)%prefixes), now) {
				served++
			}
		}
	}
	if limit := 3*kexGlobal + kexGlobal + 3*kexReserve + kexReserve; served > limit {
		t.Fatalf("the flood was given %d key exchanges in 3 s, more than the budget (%d)", served, limit)
	}
	for i := 0; i < newcomers; i++ {
		n := netip.AddrFrom4([4]byte{203, byte(i >> 8), byte(i), 1})
		if !l.prefixes.has(n, now) || !l.prefixes.quiet(n, now, kexQuiet) {
			t.Fatalf("newcomer %d (%v) shares a bucket with the flood: has a token %v, quiet %v", i, n, l.prefixes.has(n, now), l.prefixes.quiet(n, now, kexQuiet))
		}
	}
	t.Logf("the flood was given %d key exchanges in 3 s; %d newcomers untouched", served, newcomers)
}
