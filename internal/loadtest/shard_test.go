package loadtest

import (
	"net/netip"
	"slices"
	"testing"
	"time"

	"ttytanks/netcode/transport"
)

// fakeSockets is a socketSet that opens nothing and records which slots
// sent, in order.
type fakeSockets struct{ sent []int }

func (f *fakeSockets) open(int, netip.Addr, uint64) error { return nil }
func (f *fakeSockets) send(slot int, ds []transport.Datagram) error {
	f.sent = append(f.sent, slot)
	return nil
}
func (f *fakeSockets) close(int)                        {}
func (f *fakeSockets) wait(time.Duration, socketEvents) {}
func (f *fakeSockets) wake()                            {}
func (f *fakeSockets) shutdown()                        {}

// A loop pass runs the clients due by now, in the order of their
// deadlines whatever their slots, and leaves those due after it for the
// next: twelve clients waiting to retry, at deadlines shuffled over their
// slots.
func TestDeadlinesRunInOrder(t *testing.T) {
	const n = 12
	fake := &fakeSockets{}
	began := time.Now()
	cfg := &Config{Clients: n, Duration: time.Hour, Ramp: 1, PerAddr: 4}
	s := newShard(0, 1, netip.MustParseAddrPort("127.0.0.1:7777"), cfg, began, fake)
	// Slot k is due at order[k] × 100 µs after 10 ms: 10.0 ms to 11.1 ms.
	order := []int{7, 2, 11, 0, 5, 9, 1, 10, 3, 8, 6, 4}
	for slot, k := range order {
		lc := s.clients[slot]
		lc.opened = true
		lc.retryAt = began.Add(10*time.Millisecond + time.Duration(k)*100*time.Microsecond)
		s.schedule(slot, began)
	}
	// At 9.99 ms nobody is due; at 10.05 ms the one due at 10.0.
	s.fireDue(began.Add(9990 * time.Microsecond))
	s.fireDue(began.Add(10050 * time.Microsecond))
	if want := []int{3}; !slices.Equal(fake.sent, want) {
		t.Fatalf("by 10.05 ms the slots %v ran, want %v", fake.sent, want)
	}
	// At 11.05 ms those due at 10.1 ... 11.0, in that order.
	fake.sent = nil
	s.fireDue(began.Add(11050 * time.Microsecond))
	var want []int
	for k := 1; k <= 10; k++ {
		want = append(want, slices.Index(order, k))
	}
	if !slices.Equal(fake.sent, want) {
		t.Fatalf("by 11.05 ms the slots ran in the order %v, want %v", fake.sent, want)
	}
	for slot, lc := range s.clients {
		if ran := lc.c != nil; ran != (order[slot] <= 10) || (ran && lc.retries != 1) {
			t.Errorf("slot %d (due at %d): session %v, %d retries", slot, order[slot], ran, lc.retries)
		}
	}
}
