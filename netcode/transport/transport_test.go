package transport

import (
	"bytes"
	"net/netip"
	"testing"
	"time"
)

// TestSimTransportCloseFlushesAndNeverPanics: closing a simulated link
// with datagrams in flight both ways sends the outgoing ones at once (a
// final Leave must not be lost) and drops the incoming ones, without the
// late timers panicking; repeated, closing at different moments of the
// incoming flight, to give a race a chance to show. The outgoing delay is
// an hour, so a Close that waited for it instead of flushing could not
// pass for a fast one: it would hit the safety net.
func TestSimTransportCloseFlushesAndNeverPanics(t *testing.T) {
	for i := 0; i < 50; i++ {
		net := NewMemNetwork()
		peer := net.Listen()
		in := Impairment{Latency: 30 * time.Millisecond, Jitter: 20 * time.Millisecond}
		sim := NewSimTransport(net.Listen(), Impairment{Latency: time.Hour}, in, uint64(i))
		for k := 0; k < 20; k++ { // incoming traffic, delayed
			peer.Send(sim.LocalAddr(), []byte("in"))
		}
		if err := sim.Send(peer.LocalAddr(), []byte("leave")); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(i%5) * 10 * time.Millisecond) // close at different moments of the incoming flight
		closed := make(chan error, 1)
		go func() { closed <- sim.Close() }()
		select {
		case err := <-closed:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(10 * time.Second): // a safety net: the wait it catches is an hour
			t.Fatal("Close waited for the outgoing delay instead of flushing")
		}
		buf := make([]byte, 64)
		n, _, err := peer.Recv(buf)
		if err != nil || !bytes.Equal(buf[:n], []byte("leave")) {
			t.Fatalf("run %d: the datagram in flight at Close was not sent: %q, %v", i, buf[:n], err)
		}
		if err := sim.Send(peer.LocalAddr(), []byte("late")); err == nil {
			t.Fatal("Send after Close succeeded")
		}
		peer.Close()
	}
}

// TestUDPDropsTheInMemoryRange: a datagram that arrives over UDP from the
// in-memory peers' range (a local sender bound to 127.0.77.x, posing as an
// SSH player) is dropped; one from elsewhere is received.
func TestUDPDropsTheInMemoryRange(t *testing.T) {
	srv, err := ListenUDP("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	spoof, err := ListenUDP(netip.AddrPortFrom(MemPrefix.Addr().Next().Next(), 0).String())
	if err != nil {
		t.Fatalf("binding in the in-memory range on loopback: %v", err)
	}
	defer spoof.Close()
	honest, err := ListenUDP("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer honest.Close()
	if err := spoof.Send(srv.LocalAddr(), []byte("spoof")); err != nil {
		t.Fatal(err)
	}
	if err := honest.Send(srv.LocalAddr(), []byte("honest")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	n, from, err := srv.Recv(buf) // loopback keeps the order: the spoof came first
	if err != nil {
		t.Fatal(err)
	}
	if string(buf[:n]) != "honest" || from != honest.LocalAddr() {
		t.Fatalf("received %q from %v, want only the honest datagram", buf[:n], from)
	}
}
