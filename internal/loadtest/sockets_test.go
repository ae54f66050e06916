package loadtest

import (
	"fmt"
	"net/netip"
	"testing"
	"time"

	"ttytanks/netcode/transport"
)

// socketSetKind is a socketSet to test: how to make one of n slots for
// a server at target, and the address of a slot's socket.
type socketSetKind struct {
	name string
	make func(t *testing.T, n int, target netip.AddrPort) socketSet
	addr func(set socketSet, slot int) netip.AddrPort
}

// socketSetKinds are the socket sets of this OS (the Linux tests add
// epoll's).
var socketSetKinds = []socketSetKind{{
	name: "goroutines",
	make: func(t *testing.T, n int, _ netip.AddrPort) socketSet { return newGoroutineSockets(&Config{}, n) },
	addr: func(set socketSet, slot int) netip.AddrPort { return set.(*goroutineSockets).ts[slot].LocalAddr() },
}}

// recorder is a socketEvents that keeps what it is handed.
type recorder struct {
	got   map[int][]string // by slot
	from  map[int][]netip.AddrPort
	fails map[int]error
	n     int
}

func newRecorder() *recorder {
	return &recorder{got: map[int][]string{}, from: map[int][]netip.AddrPort{}, fails: map[int]error{}}
}

func (r *recorder) received(slot int, _ time.Time, from netip.AddrPort, b []byte) {
	r.got[slot] = append(r.got[slot], string(b))
	r.from[slot] = append(r.from[slot], from)
	r.n++
}

func (r *recorder) failed(slot int, err error) { r.fails[slot] = err }

// waitFor waits on set until cond holds, failing the test if it does
// not within limit.
func waitFor(t *testing.T, set socketSet, ev socketEvents, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	giveUp := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(giveUp) {
			t.Fatalf("%s: not within %v", what, limit)
		}
		set.wait(100*time.Millisecond, ev)
	}
}

// A socket set hands every datagram to the slot whose socket it arrived
// on, with its sender's address, in the order each socket got them: 40
// sockets, 5 datagrams each, sent round-robin from one socket; and it
// sends from the slot's own socket.
func TestSocketSetDeliversToTheRightSlot(t *testing.T) {
	for _, kind := range socketSetKinds {
		t.Run(kind.name, func(t *testing.T) {
			const slots, each = 40, 5
			peer, err := transport.ListenUDP("127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer peer.Close()
			set := kind.make(t, slots, peer.LocalAddr())
			defer set.shutdown()
			loopback := netip.MustParseAddr("127.0.0.1")
			for slot := 0; slot < slots; slot++ {
				if err := set.open(slot, loopback, 0); err != nil {
					t.Fatal(err)
				}
			}
			for k := 0; k < each; k++ {
				for slot := 0; slot < slots; slot++ {
					if err := peer.Send(kind.addr(set, slot), []byte(fmt.Sprintf("to %d #%d", slot, k))); err != nil {
						t.Fatal(err)
					}
				}
			}
			r := newRecorder()
			waitFor(t, set, r, 10*time.Second, "every datagram", func() bool { return r.n >= slots*each })
			if r.n != slots*each || len(r.fails) != 0 {
				t.Fatalf("%d datagrams handed over, want %d; failures %v", r.n, slots*each, r.fails)
			}
			for slot := 0; slot < slots; slot++ {
				for k, got := range r.got[slot] {
					if want := fmt.Sprintf("to %d #%d", slot, k); got != want || r.from[slot][k] != peer.LocalAddr() {
						t.Fatalf("slot %d's datagram %d: %q from %v, want %q from %v", slot, k, got, r.from[slot][k], want, peer.LocalAddr())
					}
				}
			}
			// And back: slot 7 sends from its own socket.
			ds := []transport.Datagram{{Addr: peer.LocalAddr(), Data: []byte("from 7")}}
			if err := set.send(7, ds); err != nil {
				t.Fatal(err)
			}
			buf := make([]byte, 64)
			n, from, err := peer.Recv(buf)
			if err != nil || string(buf[:n]) != "from 7" || from != kind.addr(set, 7) {
				t.Fatalf("the peer got %q from %v (%v), want %q from %v", buf[:n], from, err, "from 7", kind.addr(set, 7))
			}
		})
	}
}

// wake ends a wait that would otherwise last an hour; a closed slot's
// datagrams are dropped, not handed over.
func TestSocketSetWakeAndClose(t *testing.T) {
	for _, kind := range socketSetKinds {
		t.Run(kind.name, func(t *testing.T) {
			peer, err := transport.ListenUDP("127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer peer.Close()
			set := kind.make(t, 2, peer.LocalAddr())
			defer set.shutdown()
			for slot := 0; slot < 2; slot++ {
				if err := set.open(slot, netip.MustParseAddr("127.0.0.1"), 0); err != nil {
					t.Fatal(err)
				}
			}
			r := newRecorder()
			done := make(chan struct{})
			go func() {
				defer close(done)
				set.wait(time.Hour, r)
			}()
			set.wake()
			select {
			case <-done:
			case <-time.After(time.Minute):
				t.Fatal("wake did not end the wait")
			}
			closed := kind.addr(set, 0)
			set.close(0)
			_ = peer.Send(closed, []byte("to the closed"))
			_ = peer.Send(kind.addr(set, 1), []byte("to the open"))
			waitFor(t, set, r, 10*time.Second, "the open slot's datagram", func() bool { return r.n >= 1 })
			if len(r.got[0]) != 0 || fmt.Sprint(r.got[1]) != "[to the open]" {
				t.Fatalf("handed over %v", r.got)
			}
		})
	}
}
