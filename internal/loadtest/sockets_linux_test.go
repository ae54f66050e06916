//go:build linux

package loadtest

import (
	"errors"
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
		make: func(t *testing.T, n int) socketSet {
			set, err := newEpollSockets(netip.MustParseAddrPort("127.0.0.1:7777"), n)
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
