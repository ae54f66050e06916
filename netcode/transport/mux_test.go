package transport

import (
	"errors"
	"net"
	"net/netip"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// recvTimeout is Recv with a bound, for tests.
func recvTimeout(t *testing.T, tr Transport, d time.Duration) (string, netip.AddrPort) {
	t.Helper()
	type got struct {
		data string
		from netip.AddrPort
		err  error
	}
	ch := make(chan got, 1)
	go func() {
		buf := make([]byte, 2048)
		n, from, err := tr.Recv(buf)
		ch <- got{string(buf[:n]), from, err}
	}()
	select {
	case g := <-ch:
		if g.err != nil {
			t.Fatalf("Recv: %v", g.err)
		}
		return g.data, g.from
	case <-time.After(d):
		t.Fatalf("Recv: nothing within %v", d)
		return "", netip.AddrPort{}
	}
}

// TestMuxRoutes: datagrams from a UDP peer and from an in-memory peer
// both reach Recv with their source, and Send routes each reply to the
// side its address belongs to.
func TestMuxRoutes(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	udp, err := ListenUDP("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	mux := NewMuxTransport(udp)
	if mux.LocalAddr() != udp.LocalAddr() {
		t.Errorf("LocalAddr %v, want the UDP side's %v", mux.LocalAddr(), udp.LocalAddr())
	}
	if !MemPrefix.Contains(mux.MemAddr().Addr()) {
		t.Errorf("MemAddr %v is outside MemPrefix %v", mux.MemAddr(), MemPrefix)
	}
	peerUDP, err := ListenUDP("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer peerUDP.Close()
	peerMem := mux.Network().Listen()
	defer peerMem.Close()

	if err := peerUDP.Send(udp.LocalAddr(), []byte("from udp")); err != nil {
		t.Fatal(err)
	}
	data, from := recvTimeout(t, mux, 2*time.Second)
	if data != "from udp" || from != peerUDP.LocalAddr() {
		t.Errorf("got %q from %v, want \"from udp\" from %v", data, from, peerUDP.LocalAddr())
	}
	if err := peerMem.Send(mux.MemAddr(), []byte("from mem")); err != nil {
		t.Fatal(err)
	}
	data, from = recvTimeout(t, mux, 2*time.Second)
	if data != "from mem" || from != peerMem.LocalAddr() {
		t.Errorf("got %q from %v, want \"from mem\" from %v", data, from, peerMem.LocalAddr())
	}

	if err := mux.Send(peerMem.LocalAddr(), []byte("to mem")); err != nil {
		t.Fatal(err)
	}
	if data, from := recvTimeout(t, peerMem, 2*time.Second); data != "to mem" || from != mux.MemAddr() {
		t.Errorf("in-memory peer got %q from %v", data, from)
	}
	if err := mux.Send(peerUDP.LocalAddr(), []byte("to udp")); err != nil {
		t.Fatal(err)
	}
	if data, from := recvTimeout(t, peerUDP, 2*time.Second); data != "to udp" || from != udp.LocalAddr() {
		t.Errorf("UDP peer got %q from %v", data, from)
	}

	if err := mux.Close(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := mux.Recv(make([]byte, 16)); !errors.Is(err, net.ErrClosed) {
		t.Errorf("Recv after Close: %v, want net.ErrClosed", err)
	}
	if err := mux.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// TestMuxDropsSpoofedMemSources: a datagram that arrives on the network
// side with an in-memory source address is dropped. The network side is
// itself an in-memory transport here, whose peers have such addresses;
// the test stays on loopback 127.0.0.1 for real sockets.
func TestMuxDropsSpoofedMemSources(t *testing.T) {
	outside := NewMemNetwork()
	side := outside.Listen()
	mux := NewMuxTransport(side)
	defer mux.Close()
	spoofer := outside.Listen()
	defer spoofer.Close()
	if err := spoofer.Send(side.LocalAddr(), []byte("spoofed")); err != nil {
		t.Fatal(err)
	}
	peer := mux.Network().Listen()
	defer peer.Close()
	if err := peer.Send(mux.MemAddr(), []byte("genuine")); err != nil {
		t.Fatal(err)
	}
	if data, _ := recvTimeout(t, mux, 2*time.Second); data != "genuine" {
		t.Errorf("Recv got %q first, want the spoofed datagram dropped", data)
	}
	// The spoofed datagram was sent first, but the two sides are pumped
	// concurrently: it must not come after "genuine" either.
	got := make(chan string, 1)
	go func() {
		buf := make([]byte, 2048)
		if n, _, err := mux.Recv(buf); err == nil {
			got <- string(buf[:n])
		}
	}()
	select {
	case data := <-got:
		t.Errorf("Recv got %q after the genuine datagram, want the spoofed one dropped", data)
	case <-time.After(100 * time.Millisecond):
	}
}

// errTransport fails its Recv with a non-close error.
type errTransport struct{ Transport }

var errBroken = errors.New("broken socket")

func (errTransport) Recv([]byte) (int, netip.AddrPort, error) { return 0, netip.AddrPort{}, errBroken }
func (errTransport) Close() error                             { return nil }

// TestMuxReportsNetworkErrors: a failing network side fails Recv, so the
// server driver stops as it would without SSH.
func TestMuxReportsNetworkErrors(t *testing.T) {
	mux := NewMuxTransport(errTransport{})
	defer mux.Close()
	if _, _, err := mux.Recv(make([]byte, 16)); !errors.Is(err, errBroken) {
		t.Errorf("Recv: %v, want the network side's error", err)
	}
}
