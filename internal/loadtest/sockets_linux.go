//go:build linux

package loadtest

import (
	"encoding/binary"
	"fmt"
	"net/netip"
	"os"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"ttytanks/netcode/transport"
)

// newSocketSet returns the socket set of a shard of n clients: epoll
// over non-blocking sockets, or a goroutine a socket around a simulated
// network (whose delays are timers on goroutines of its own).
func newSocketSet(target netip.AddrPort, cfg *Config, n int) (socketSet, error) {
	if cfg.Sim.Active() {
		return newGoroutineSockets(cfg, n), nil
	}
	return newEpollSockets(target, n)
}

// epollSockets is a shard's sockets on Linux: non-blocking UDP sockets
// of its own (the Go runtime's poller never sees them), each connected
// to the server, in one epoll set; each ready one is drained with one
// recvmmsg call, and sends are sendmmsg calls without an address, both
// through one transport.FDBatch. The epoll set is itself in the Go
// runtime's poller, so a wait parks the loop's goroutine with a read
// deadline (the runtime's timers are good to about a millisecond) rather
// than blocking a thread in a system call; an eventfd in the set wakes
// it.
type epollSockets struct {
	ep      *os.File // the epoll set
	epfd    int
	rc      syscall.RawConn // the epoll set's, for waiting on it
	harvest func(fd uintptr) bool
	target  netip.AddrPort // the server: every socket is connected to it
	v6      bool           // the sockets are AF_INET6 (the server is IPv6)
	fds     []int32        // by slot; -1: not open
	peers   []bool         // by slot: the socket is still connected to target
	batch   *transport.FDBatch
	events  []unix.EpollEvent
	got     int // events harvested by the last wait
	ms      []transport.Message

	wakeMu sync.Mutex // guards wakeFD against shutdown
	wakeFD int        // the eventfd; -1 after shutdown
}

// wakeSlot is the eventfd's slot in the epoll set.
const wakeSlot = -1

// eventsPerWait is the most ready sockets a wait hands over: the loop
// runs the clients due between two waits, so a burst of States (a
// server's tick sends one to half its players at once) holds up their
// deadlines by at most this many receives, about a third of a
// millisecond.
const eventsPerWait = 64

func newEpollSockets(target netip.AddrPort, n int) (*epollSockets, error) {
	epfd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("epoll_create1: %w", err)
	}
	wfd, err := unix.Eventfd(0, unix.EFD_NONBLOCK|unix.EFD_CLOEXEC)
	if err != nil {
		unix.Close(epfd)
		return nil, fmt.Errorf("eventfd: %w", err)
	}
	if err := unix.EpollCtl(epfd, unix.EPOLL_CTL_ADD, wfd, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: wakeSlot}); err != nil {
		unix.Close(wfd)
		unix.Close(epfd)
		return nil, fmt.Errorf("epoll_ctl: %w", err)
	}
	// Non-blocking, the epoll set goes into the runtime's poller: it is
	// readable while any of its sockets is.
	if err := unix.SetNonblock(epfd, true); err != nil {
		unix.Close(wfd)
		unix.Close(epfd)
		return nil, err
	}
	ep := os.NewFile(uintptr(epfd), "epoll")
	rc, err := ep.SyscallConn()
	if err != nil {
		unix.Close(wfd)
		ep.Close()
		return nil, err
	}
	e := &epollSockets{ep: ep, epfd: epfd, rc: rc, target: target, v6: !target.Addr().Unmap().Is4(), fds: make([]int32, n),
		peers: make([]bool, n), batch: transport.NewFDBatch(), events: make([]unix.EpollEvent, eventsPerWait),
		ms: make([]transport.Message, 64), wakeFD: wfd}
	e.harvest = e.harvestReady
	for i := range e.fds {
		e.fds[i] = -1
	}
	for i := range e.ms {
		e.ms[i].Buf = make([]byte, transport.RecvBufSize)
	}
	return e, nil
}

// sockaddr is a for a socket of the set's family.
func (e *epollSockets) sockaddr(a netip.AddrPort) unix.Sockaddr {
	if e.v6 {
		return &unix.SockaddrInet6{Addr: a.Addr().As16(), Port: int(a.Port())}
	}
	return &unix.SockaddrInet4{Addr: a.Addr().Unmap().As4(), Port: int(a.Port())}
}

// open implements socketSet: the socket is bound to bind (any address
// when zero) and connected to the server.
func (e *epollSockets) open(slot int, bind netip.Addr, _ uint64) error {
	family := unix.AF_INET
	if e.v6 {
		family = unix.AF_INET6
	}
	if !bind.IsValid() {
		bind = netip.IPv4Unspecified()
		if e.v6 {
			bind = netip.IPv6Unspecified()
		}
	}
	fd, err := unix.Socket(family, unix.SOCK_DGRAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("socket: %w", err)
	}
	if err := unix.Bind(fd, e.sockaddr(netip.AddrPortFrom(bind, 0))); err != nil {
		unix.Close(fd)
		return fmt.Errorf("bind %v: %w", bind, err)
	}
	if err := unix.Connect(fd, e.sockaddr(e.target)); err != nil {
		unix.Close(fd)
		return fmt.Errorf("connect %v: %w", e.target, err)
	}
	if err := unix.EpollCtl(e.epfd, unix.EPOLL_CTL_ADD, fd, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(slot)}); err != nil {
		unix.Close(fd)
		return fmt.Errorf("epoll_ctl: %w", err)
	}
	e.fds[slot], e.peers[slot] = int32(fd), true
	return nil
}

// send implements socketSet. A socket that must send elsewhere than the
// server (a client sent on to another server) is disconnected first, for
// good, so that it hears the other server too (it keeps its address;
// the kernel may give it another port, as it chose the first).
func (e *epollSockets) send(slot int, ds []transport.Datagram) error {
	fd := e.fds[slot]
	if fd < 0 {
		return nil
	}
	peer := e.target
	if e.peers[slot] {
		for _, d := range ds {
			if d.Addr != e.target {
				if err := disconnect(int(fd)); err != nil {
					return err
				}
				e.peers[slot] = false
				break
			}
		}
	}
	if !e.peers[slot] {
		peer = netip.AddrPort{}
	}
	return e.batch.Send(int(fd), e.v6, peer, ds)
}

// disconnect dissolves UDP socket fd's connection: connect(2) to an
// AF_UNSPEC address.
func disconnect(fd int) error {
	sa := unix.RawSockaddr{Family: unix.AF_UNSPEC}
	if _, _, e := unix.Syscall(unix.SYS_CONNECT, uintptr(fd), uintptr(unsafe.Pointer(&sa)), unsafe.Sizeof(sa)); e != 0 {
		return fmt.Errorf("disconnect: %w", e)
	}
	return nil
}

// close implements socketSet. Closing the socket takes it out of the
// epoll set.
func (e *epollSockets) close(slot int) {
	if fd := e.fds[slot]; fd >= 0 {
		unix.Close(int(fd))
		e.fds[slot] = -1
	}
}

// wait implements socketSet: each socket the epoll set says is ready
// gets one recvmmsg call for what waits on it (a socket with more left
// is ready again at the next wait).
func (e *epollSockets) wait(d time.Duration, ev socketEvents) {
	// What is ready already, then, if nothing is, a wait in the runtime's
	// poller (which does not look when the deadline has passed before it
	// starts). A deadline error is the timeout; the epoll set's failure
	// would show as no event ever, and every client's silence.
	if !e.harvestReady(uintptr(e.epfd)) && d > 0 {
		_ = e.ep.SetReadDeadline(time.Now().Add(d))
		_ = e.rc.Read(e.harvest)
	}
	if e.got == 0 {
		return
	}
	now := time.Now()
	for _, pe := range e.events[:e.got] {
		slot := int(pe.Fd)
		if slot == wakeSlot {
			var b [8]byte
			_, _ = unix.Read(e.wakeFDLocked(), b[:])
			continue
		}
		fd := e.fds[slot]
		if fd < 0 {
			continue // closed by an earlier event of this wait
		}
		k, err := e.batch.Recv(int(fd), e.ms)
		if err != nil {
			ev.failed(slot, err)
			continue
		}
		for i := range e.ms[:k] {
			m := &e.ms[i]
			ev.received(slot, now, m.Addr, m.Buf[:m.N])
		}
	}
}

// harvestReady takes the epoll set's ready events into events without
// waiting, and reports whether there were any (the runtime's poller then
// waits for the set to be readable). It is a raw system call, as are
// FDBatch's: it never waits, so the loop's goroutine keeps its P.
func (e *epollSockets) harvestReady(fd uintptr) bool {
	r, _, errno := unix.RawSyscall6(unix.SYS_EPOLL_PWAIT, fd, uintptr(unsafe.Pointer(&e.events[0])), uintptr(len(e.events)), 0, 0, 0)
	e.got = 0
	if errno == 0 {
		e.got = int(r)
	}
	return e.got > 0
}

// wakeFDLocked reads wakeFD under its lock.
func (e *epollSockets) wakeFDLocked() int {
	e.wakeMu.Lock()
	defer e.wakeMu.Unlock()
	return e.wakeFD
}

// wake implements socketSet.
func (e *epollSockets) wake() {
	e.wakeMu.Lock()
	defer e.wakeMu.Unlock()
	if e.wakeFD >= 0 {
		var one [8]byte
		binary.NativeEndian.PutUint64(one[:], 1)
		_, _ = unix.Write(e.wakeFD, one[:])
	}
}

// shutdown implements socketSet.
func (e *epollSockets) shutdown() {
	for slot := range e.fds {
		e.close(slot)
	}
	e.wakeMu.Lock()
	unix.Close(e.wakeFD)
	e.wakeFD = -1
	e.wakeMu.Unlock()
	e.ep.Close()
}
