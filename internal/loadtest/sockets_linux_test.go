//go:build linux

package loadtest

import (
	"errors"
	"fmt"
	"net/netip"
	"os"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"ttytanks/netcode/transport"
)

func init() {
	socketSetKinds = append(socketSetKinds, socketSetKind{
		name: "epoll",
		make: func(t *testing.T, n int, target netip.AddrPort) socketSet {
			set, err := newEpollSockets(target, n)
			if err != nil {
				t.Fatal(err)
			}
			return set
		},
		addr: func(set socketSet, slot int) netip.AddrPort {
			sa, err := unix.Getsockname(int(set.(*epollSockets).fds[slot]))
			if err != nil {
				panic(err)
			}
			a := sa.(*unix.SockaddrInet4)
			return netip.AddrPortFrom(netip.AddrFrom4(a.Addr), uint16(a.Port))
		},
	})
}

// breakSocket puts /dev/null where fd's socket was: the socket is gone
// (and out of the epoll set), and a send or receive on fd fails with
// ENOTSOCK, as a socket that fails under its owner would.
func breakSocket(t *testing.T, fd int32) {
	t.Helper()
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if err := unix.Dup3(int(null.Fd()), int(fd), unix.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
}

// A send from a socket that failed is an error (the epoll set's own
// sockets say so; the other slots still send).
func TestEpollSocketsSendFailure(t *testing.T) {
	set, err := newEpollSockets(netip.MustParseAddrPort("127.0.0.1:7777"), 2)
	if err != nil {
		t.Fatal(err)
	}
	defer set.shutdown()
	for slot := 0; slot < 2; slot++ {
		if err := set.open(slot, netip.MustParseAddr("127.0.0.1"), 0); err != nil {
			t.Fatal(err)
		}
	}
	breakSocket(t, set.fds[0])
	ds := []transport.Datagram{{Addr: netip.MustParseAddrPort("127.0.0.1:9"), Data: []byte("x")}}
	if err := set.send(0, ds); !errors.Is(err, unix.ENOTSOCK) {
		t.Errorf("a send from the broken socket: %v, want ENOTSOCK", err)
	}
	if err := set.send(1, ds); err != nil {
		t.Errorf("a send from the sound socket: %v", err)
	}
}

// A client whose socket fails mid-game is reported with that error, and
// the others play on: 8 clients in two 4-seat rooms of a real server,
// the loop driven a pass at a time; once all play, client 5's socket is
// broken under it.
func TestRunReportsAFailedSocket(t *testing.T) {
	target := serve(t, 4)
	cfg := &Config{Clients: 8, Duration: time.Hour, Ramp: 100, PerAddr: 4}
	sockets, err := newSocketSet(target, cfg, 8)
	if err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	s := newShard(0, 1, target, cfg, began, sockets)
	stepUntil(t, s, 20*time.Second, "every client playing", func() bool { return s.playing.Load() == 8 })
	broken := s.clients[5]
	breakSocket(t, sockets.(*epollSockets).fds[5])
	stepUntil(t, s, 10*time.Second, "client 5 failing", func() bool { return broken.failed })
	// The others play on for a while (a tick's deadlines at least).
	ticks := s.late.n
	stepUntil(t, s, 10*time.Second, "the others' next ticks", func() bool { return s.late.n >= ticks+7*6 })
	s.finish()
	rep := collect([]*shard{s}, cfg, target, time.Since(began))
	want := "socket failed: " + unix.ENOTSOCK.Error()
	if rep.Errors[want] != 1 || rep.ErrorsTotal() != 1 {
		t.Errorf("errors %v, want 1 %q", rep.Errors, want)
	}
	if rep.Connected != 8 || broken.playingAtEnd || rep.PlayingAtEnd < 7 {
		t.Errorf("%d connected, %d playing at the end (the broken one: %v); want 8, and the 7 others", rep.Connected, rep.PlayingAtEnd, broken.playingAtEnd)
	}
	if s.playing.Load() != int32(rep.PlayingAtEnd) {
		t.Errorf("the progress line counted %d playing, the report %d", s.playing.Load(), rep.PlayingAtEnd)
	}
}

// A socket is connected to the server, so it hears nobody else, until
// its client sends elsewhere (sent on to another server): then it hears
// the other server too, from the same address.
func TestEpollSocketsFollowAClientElsewhere(t *testing.T) {
	server, err := transport.ListenUDP("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	other, err := transport.ListenUDP("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	set, err := newEpollSockets(server.LocalAddr(), 1)
	if err != nil {
		t.Fatal(err)
	}
	defer set.shutdown()
	if err := set.open(0, netip.MustParseAddr("127.0.0.1"), 0); err != nil {
		t.Fatal(err)
	}
	addr := socketSetKinds[len(socketSetKinds)-1].addr(set, 0)
	r := newRecorder()
	_ = other.Send(addr, []byte("too early")) // dropped: not the server
	_ = server.Send(addr, []byte("from the server"))
	waitFor(t, set, r, 10*time.Second, "the server's datagram", func() bool { return r.n >= 1 })
	if err := set.send(0, []transport.Datagram{{Addr: other.LocalAddr(), Data: []byte("hello other")}}); err != nil {
		t.Fatal(err)
	}
	// Disconnected, the socket keeps its address; the kernel may give it
	// another port, as it had one it chose itself.
	buf := make([]byte, 64)
	n, from, err := other.Recv(buf)
	if err != nil || string(buf[:n]) != "hello other" || from.Addr() != addr.Addr() {
		t.Fatalf("the other server got %q from %v (%v)", buf[:n], from, err)
	}
	_ = other.Send(from, []byte("from the other"))
	waitFor(t, set, r, 10*time.Second, "the other server's answer", func() bool { return r.n >= 2 })
	if got := fmt.Sprint(r.got[0]); got != "[from the server from the other]" {
		t.Fatalf("slot 0 heard %s", got)
	}
}
