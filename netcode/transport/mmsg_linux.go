//go:build linux

package transport

import (
	"net/netip"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// mmsghdr is struct mmsghdr: a msghdr and the length the call fills in.
type mmsghdr struct {
	hdr unix.Msghdr
	n   uint32
}

// mmsgBufs is one direction of batch IO: the headers, iovecs and address
// buffers of a recvmmsg(2) or sendmmsg(2) call, allocated once, and the
// call's arguments and result, so the function that makes the call can
// be bound once and a batch allocates nothing. Both a UDP's mmsgConn and
// an FDBatch are made of two.
type mmsgBufs struct {
	hs    []mmsghdr
	iovs  []unix.Iovec
	names []unix.RawSockaddrInet6 // room for an IPv4 address too
	n     int                     // headers loaded for the next call
	got   int                     // datagrams the last call moved
	errno syscall.Errno           // the last call's error
	// raw makes the calls raw system calls: the goroutine keeps its P
	// through them, as suits an event loop's short calls that never
	// wait (FDBatch). Otherwise the runtime may hand the P on during a
	// call that spans its monitor's 20 µs tick, and its monitor, having
	// done so, keeps waking at that rate.
	raw bool
}

func newMmsgBufs(n int) mmsgBufs {
	b := mmsgBufs{hs: make([]mmsghdr, n), iovs: make([]unix.Iovec, n), names: make([]unix.RawSockaddrInet6, n)}
	for i := range b.hs {
		b.hs[i].hdr.Name = (*byte)(unsafe.Pointer(&b.names[i]))
		b.hs[i].hdr.Iov = &b.iovs[i]
		b.hs[i].hdr.SetIovlen(1)
	}
	return b
}

// Batch sizes: a receive call takes at most recvBatchMax datagrams (the
// driver's batch), a send call at most sendBatchMax (Linux caps a call at
// 1024).
const (
	recvBatchMax = 64
	sendBatchMax = 256
)

// loadRecv points the headers at the buffers of ms, up to the first
// empty one or as many as there are headers, and returns how many.
func (b *mmsgBufs) loadRecv(ms []Message) int {
	n := min(len(ms), len(b.hs))
	for i := 0; i < n; i++ {
		if len(ms[i].Buf) == 0 {
			n = i
			break
		}
		b.iovs[i].Base = &ms[i].Buf[0]
		b.iovs[i].SetLen(len(ms[i].Buf))
		b.hs[i].hdr.Namelen = unix.SizeofSockaddrInet6
		b.hs[i].hdr.Flags = 0
		b.hs[i].n = 0
	}
	b.n = n
	return n
}

// recvmmsg makes one non-blocking recvmmsg call on fd into the loaded
// headers and notes its result in got and errno; false when nothing is
// waiting (EAGAIN).
func (b *mmsgBufs) recvmmsg(fd uintptr) bool { return b.call(unix.SYS_RECVMMSG, fd) }

// call makes one non-blocking call of trap (SYS_RECVMMSG or
// SYS_SENDMMSG) on fd with the loaded headers, again if interrupted, and
// notes its result in got and errno; false on EAGAIN (nothing waiting,
// or the socket's buffer full).
func (b *mmsgBufs) call(trap, fd uintptr) bool {
	for {
		var r uintptr
		var e syscall.Errno
		if b.raw {
			r, _, e = unix.RawSyscall6(trap, fd, uintptr(unsafe.Pointer(&b.hs[0])), uintptr(b.n), unix.MSG_DONTWAIT, 0, 0)
		} else {
			r, _, e = unix.Syscall6(trap, fd, uintptr(unsafe.Pointer(&b.hs[0])), uintptr(b.n), unix.MSG_DONTWAIT, 0, 0)
		}
		switch e {
		case unix.EINTR:
			continue
		case unix.EAGAIN:
			return false
		}
		b.got, b.errno = int(r), e
		if e != 0 {
			b.got = 0
		}
		return true
	}
}

// received fills ms with what the last receive call got, in order, and
// returns how many it kept: datagrams from the in-memory range are
// dropped as spoofs, and so are those of an unknown address family.
func (b *mmsgBufs) received(ms []Message) int {
	kept := 0
	for i := 0; i < b.got; i++ {
		from, ok := sockaddrPort(&b.names[i])
		if !ok || MemPrefix.Contains(from.Addr()) {
			continue
		}
		ms[i].N, ms[i].Addr = int(b.hs[i].n), from
		ms[i], ms[kept] = ms[kept], ms[i]
		kept++
	}
	return kept
}

// loadSend points the headers at the first datagrams of ds, as many as
// there are headers, stopping at one that a socket of this family (v6:
// AF_INET6) cannot reach, and returns how many. A datagram to peer, the
// address a connected socket is connected to (if valid), goes without an
// address, so the kernel uses the connection's cached route.
func (b *mmsgBufs) loadSend(v6 bool, peer netip.AddrPort, ds []Datagram) int {
	n := 0
	for _, d := range ds[:min(len(ds), len(b.hs))] {
		var nl uint32
		if !peer.IsValid() || d.Addr != peer {
			var ok bool
			if nl, ok = putSockaddr(v6, &b.names[n], d.Addr); !ok {
				break
			}
		}
		b.hs[n].hdr.Namelen = nl
		b.iovs[n].Base = nil
		if len(d.Data) > 0 {
			b.iovs[n].Base = &d.Data[0]
		}
		b.iovs[n].SetLen(len(d.Data))
		n++
	}
	b.n = n
	return n
}

// sendmmsg makes one non-blocking sendmmsg call on fd of the loaded
// headers and notes its result in got and errno; false when the socket's
// buffer is full (EAGAIN).
func (b *mmsgBufs) sendmmsg(fd uintptr) bool { return b.call(unix.SYS_SENDMMSG, fd) }

// sendAll sends every datagram of ds in order, through call, which makes
// one send call of the loaded headers (or returns the error of a closed
// socket); peer is as for loadSend. A datagram the network refuses (no
// route, say, or another address family) is skipped, as a lost one
// would be; a socket that cannot send at all (socketFailed) ends it with
// that error.
func (b *mmsgBufs) sendAll(v6 bool, peer netip.AddrPort, ds []Datagram, call func() error) error {
	for len(ds) > 0 {
		if b.loadSend(v6, peer, ds) == 0 {
			ds = ds[1:] // an address this socket cannot reach
			continue
		}
		if err := call(); err != nil {
			return err
		}
		if b.errno != 0 {
			if socketFailed(b.errno) {
				return b.errno
			}
			ds = ds[1:] // the first datagram failed: lost
			continue
		}
		ds = ds[b.got:]
	}
	return nil
}

// socketFailed reports whether a send's error is the socket's rather
// than one datagram's: no such socket, or not a socket.
func socketFailed(e syscall.Errno) bool { return e == unix.EBADF || e == unix.ENOTSOCK }

// putSockaddr writes to into sa for a socket of this family (v6:
// AF_INET6, where IPv4 peers are v4-mapped) and returns the length to
// pass; false if the socket cannot send there.
func putSockaddr(v6 bool, sa *unix.RawSockaddrInet6, to netip.AddrPort) (uint32, bool) {
	ip := to.Addr()
	port := to.Port()
	if v6 {
		*sa = unix.RawSockaddrInet6{Family: unix.AF_INET6, Addr: ip.As16()}
		p := (*[2]byte)(unsafe.Pointer(&sa.Port))
		p[0], p[1] = byte(port>>8), byte(port)
		return unix.SizeofSockaddrInet6, true
	}
	ip = ip.Unmap()
	if !ip.Is4() {
		return 0, false
	}
	sa4 := (*unix.RawSockaddrInet4)(unsafe.Pointer(sa))
	*sa4 = unix.RawSockaddrInet4{Family: unix.AF_INET, Addr: ip.As4()}
	p := (*[2]byte)(unsafe.Pointer(&sa4.Port))
	p[0], p[1] = byte(port>>8), byte(port)
	return unix.SizeofSockaddrInet4, true
}

// sockaddrPort reads a received source address (IPv4-mapped ones
// unmapped).
func sockaddrPort(sa *unix.RawSockaddrInet6) (netip.AddrPort, bool) {
	switch sa.Family {
	case unix.AF_INET6:
		p := (*[2]byte)(unsafe.Pointer(&sa.Port))
		return netip.AddrPortFrom(netip.AddrFrom16(sa.Addr).Unmap(), uint16(p[0])<<8|uint16(p[1])), true
	case unix.AF_INET:
		sa4 := (*unix.RawSockaddrInet4)(unsafe.Pointer(sa))
		p := (*[2]byte)(unsafe.Pointer(&sa4.Port))
		return netip.AddrPortFrom(netip.AddrFrom4(sa4.Addr), uint16(p[0])<<8|uint16(p[1])), true
	}
	return netip.AddrPort{}, false
}
