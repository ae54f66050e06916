//go:build linux

package loadtest

import (
	"encoding/binary"
	"fmt"
	"net/netip"
	"sync"
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
// of its own (the Go runtime's poller never sees them) in one epoll set,
// each ready one drained with one recvmmsg call, sends made with
// sendmmsg, both through one transport.FDBatch. The set's wait is
// epoll_pwait2 with a timeout to the nanosecond (epoll_wait's whole
// milliseconds before Linux 5.11); an eventfd in the set wakes it.
type epollSockets struct {
	ep      int
	v6      bool    // the sockets are AF_INET6 (the server is IPv6)
	fds     []int32 // by slot; -1: not open
	batch   *transport.FDBatch
	events  []unix.EpollEvent
	ms      []transport.Message
	pwait2  bool          // epoll_pwait2 is there
	timeout unix.Timespec // epoll_pwait2's, kept here so a wait allocates nothing

	wakeMu sync.Mutex // guards wakeFD against shutdown
	wakeFD int        // the eventfd; -1 after shutdown
}

// wakeSlot is the eventfd's slot in the epoll set.
const wakeSlot = -1

func newEpollSockets(target netip.AddrPort, n int) (*epollSockets, error) {
	ep, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("epoll_create1: %w", err)
	}
	wfd, err := unix.Eventfd(0, unix.EFD_NONBLOCK|unix.EFD_CLOEXEC)
	if err != nil {
		unix.Close(ep)
		return nil, fmt.Errorf("eventfd: %w", err)
	}
	if err := unix.EpollCtl(ep, unix.EPOLL_CTL_ADD, wfd, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: wakeSlot}); err != nil {
		unix.Close(wfd)
		unix.Close(ep)
		return nil, fmt.Errorf("epoll_ctl: %w", err)
	}
	e := &epollSockets{ep: ep, v6: !target.Addr().Unmap().Is4(), fds: make([]int32, n), batch: transport.NewFDBatch(),
		events: make([]unix.EpollEvent, 256), ms: make([]transport.Message, 64), pwait2: true, wakeFD: wfd}
	for i := range e.fds {
		e.fds[i] = -1
	}
	for i := range e.ms {
		e.ms[i].Buf = make([]byte, transport.RecvBufSize)
	}
	return e, nil
}

// open implements socketSet.
func (e *epollSockets) open(slot int, bind netip.Addr, _ uint64) error {
	family := unix.AF_INET
	var sa unix.Sockaddr = &unix.SockaddrInet4{}
	if e.v6 {
		family, sa = unix.AF_INET6, &unix.SockaddrInet6{}
	}
	if bind.IsValid() {
		if e.v6 {
			sa = &unix.SockaddrInet6{Addr: bind.As16()}
		} else {
			sa = &unix.SockaddrInet4{Addr: bind.Unmap().As4()}
		}
	}
	fd, err := unix.Socket(family, unix.SOCK_DGRAM|unix.SOCK_NONBLOCK|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("socket: %w", err)
	}
	if err := unix.Bind(fd, sa); err != nil {
		unix.Close(fd)
		return fmt.Errorf("bind %v: %w", bind, err)
	}
	if err := unix.EpollCtl(e.ep, unix.EPOLL_CTL_ADD, fd, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(slot)}); err != nil {
		unix.Close(fd)
		return fmt.Errorf("epoll_ctl: %w", err)
	}
	e.fds[slot] = int32(fd)
	return nil
}

// send implements socketSet.
func (e *epollSockets) send(slot int, ds []transport.Datagram) error {
	fd := e.fds[slot]
	if fd < 0 {
		return nil
	}
	return e.batch.Send(int(fd), e.v6, ds)
}

// close implements socketSet. Closing the socket takes it out of the
// epoll set.
func (e *epollSockets) close(slot int) {
	if fd := e.fds[slot]; fd >= 0 {
		unix.Close(int(fd))
		e.fds[slot] = -1
	}
}

// wait implements socketSet: each socket epoll says is ready gets one
// recvmmsg call for what waits on it (a socket with more left is ready
// again at the next wait).
func (e *epollSockets) wait(d time.Duration, ev socketEvents) {
	n := e.epollWait(d)
	if n <= 0 {
		return
	}
	now := time.Now()
	for _, pe := range e.events[:n] {
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

// wakeFDLocked reads wakeFD under its lock.
func (e *epollSockets) wakeFDLocked() int {
	e.wakeMu.Lock()
	defer e.wakeMu.Unlock()
	return e.wakeFD
}

// epollWait waits at most d for events, and returns how many it put in
// events (0 on a timeout or a signal).
func (e *epollSockets) epollWait(d time.Duration) int {
	d = max(d, 0)
	if e.pwait2 {
		e.timeout = unix.NsecToTimespec(int64(d))
		r, _, errno := unix.Syscall6(unix.SYS_EPOLL_PWAIT2, uintptr(e.ep), uintptr(unsafe.Pointer(&e.events[0])), uintptr(len(e.events)),
			uintptr(unsafe.Pointer(&e.timeout)), 0, 0)
		switch errno {
		case 0:
			return int(r)
		case unix.ENOSYS:
			e.pwait2 = false // before Linux 5.11
		default:
			return 0 // EINTR
		}
	}
	ms := int((d + time.Millisecond - 1) / time.Millisecond) // rounded up: never early
	n, err := unix.EpollWait(e.ep, e.events, ms)
	if err != nil {
		return 0
	}
	return n
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
	unix.Close(e.ep)
}
