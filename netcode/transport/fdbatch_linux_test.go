//go:build linux

package transport

import (
	"errors"
	"fmt"
	"net/netip"
	"testing"

	"golang.org/x/sys/unix"
)

// rawSocket opens a non-blocking IPv4 UDP socket on 127.0.0.1 for the
// test and returns it with its address.
func rawSocket(t *testing.T) (int, netip.AddrPort) {
	t.Helper()
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	// Room for the whole batch (the default holds about 256 small
	// datagrams; the kernel caps this at net.core.rmem_max).
	_ = unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_RCVBUF, 1<<20)
	if err := unix.Bind(fd, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	sa, err := unix.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	return fd, netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 0, 0, 1}), uint16(sa.(*unix.SockaddrInet4).Port))
}

// An FDBatch on raw non-blocking sockets: a receive with nothing waiting
// returns 0 at once; a batch sent arrives whole and in order from the
// sender's address, over several receive calls; a datagram to an address
// of another family is skipped and the rest go; a connected socket sends
// to its peer without an address, and to others with theirs; a closed
// socket's send is an error, EBADF.
func TestFDBatch(t *testing.T) {
	a, aAddr := rawSocket(t)
	b, bAddr := rawSocket(t)
	fb := NewFDBatch()
	ms := newMessages(64)
	if n, err := fb.Recv(b, ms); n != 0 || err != nil {
		t.Fatalf("Recv with nothing waiting: %d, %v; want 0, nil", n, err)
	}
	const n = 300 // more than a send call's batch, and several receive calls'
	ds := make([]Datagram, 0, n+1)
	for i := 0; i < n; i++ {
		ds = append(ds, Datagram{Addr: bAddr, Data: []byte(fmt.Sprintf("datagram %03d", i))})
		if i == 100 {
			ds = append(ds, Datagram{Addr: netip.MustParseAddrPort("[2001:db8::1]:9"), Data: []byte("nowhere")})
		}
	}
	if err := fb.Send(a, false, netip.AddrPort{}, ds); err != nil {
		t.Fatal(err)
	}
	got := 0
	for calls := 0; got < n; calls++ {
		k, err := fb.Recv(b, ms)
		if err != nil {
			t.Fatal(err)
		}
		if k == 0 || calls > n {
			t.Fatalf("%d of %d datagrams arrived", got, n)
		}
		for _, m := range ms[:k] {
			if want := fmt.Sprintf("datagram %03d", got); string(m.Buf[:m.N]) != want || m.Addr != aAddr {
				t.Fatalf("got %q from %v, want %q from %v", m.Buf[:m.N], m.Addr, want, aAddr)
			}
			got++
		}
	}
	if k, err := fb.Recv(b, ms); k != 0 || err != nil {
		t.Fatalf("Recv after the batch: %d, %v; want 0, nil", k, err)
	}
	// Connected to b: datagrams to b go without an address, one to
	// another socket with its own, and both arrive.
	if err := unix.Connect(a, &unix.SockaddrInet4{Addr: bAddr.Addr().As4(), Port: int(bAddr.Port())}); err != nil {
		t.Fatal(err)
	}
	c, cAddr := rawSocket(t)
	if err := fb.Send(a, false, bAddr, []Datagram{{Addr: bAddr, Data: []byte("to b")}, {Addr: cAddr, Data: []byte("to c")}}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []struct {
		fd   int
		data string
	}{{b, "to b"}, {c, "to c"}} {
		k, err := fb.Recv(want.fd, ms)
		if err != nil || k != 1 || string(ms[0].Buf[:ms[0].N]) != want.data || ms[0].Addr != aAddr {
			t.Fatalf("from the connected socket: %d datagrams (%v), the first %q from %v; want %q from %v", k, err, ms[0].Buf[:ms[0].N], ms[0].Addr, want.data, aAddr)
		}
	}
	closed, _ := rawSocket(t)
	unix.Close(closed)
	if err := fb.Send(closed, false, netip.AddrPort{}, ds[:1]); !errors.Is(err, unix.EBADF) {
		t.Fatalf("Send on a closed socket: %v, want EBADF", err)
	}
}
