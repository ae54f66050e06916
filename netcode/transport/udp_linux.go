//go:build linux

package transport

import (
	"net"
	"net/netip"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// mmsgConn moves batches of datagrams over a UDP socket with recvmmsg(2)
// and sendmmsg(2): one system call for as many datagrams as are waiting
// (receiving) or as a tick produced (sending). Its headers, iovecs and
// address buffers are allocated once, and the functions handed to the
// socket's RawConn are bound once, so a batch allocates nothing.
type mmsgConn struct {
	rc syscall.RawConn
	v6 bool // an AF_INET6 socket: IPv4 peers are v4-mapped

	rmu  sync.Mutex // the receiving side
	recv mmsgBufs
	rfn  func(fd uintptr) bool
	rn   int
	rgot int
	rerr syscall.Errno

	smu  sync.Mutex // the sending side
	send mmsgBufs
	sfn  func(fd uintptr) bool
	sn   int
	sgot int
	serr syscall.Errno
}

// mmsghdr is struct mmsghdr: a msghdr and the length the call fills in.
type mmsghdr struct {
	hdr unix.Msghdr
	n   uint32
}

type mmsgBufs struct {
	hs    []mmsghdr
	iovs  []unix.Iovec
	names []unix.RawSockaddrInet6 // room for an IPv4 address too
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

// newMmsgConn prepares batch IO on conn; nil if the socket cannot have it.
func newMmsgConn(conn *net.UDPConn) *mmsgConn {
	rc, err := conn.SyscallConn()
	if err != nil {
		return nil
	}
	m := &mmsgConn{rc: rc, recv: newMmsgBufs(recvBatchMax), send: newMmsgBufs(sendBatchMax)}
	var serr error
	if err := rc.Control(func(fd uintptr) {
		var sa unix.Sockaddr
		sa, serr = unix.Getsockname(int(fd))
		_, m.v6 = sa.(*unix.SockaddrInet6)
	}); err != nil || serr != nil {
		return nil
	}
	m.rfn, m.sfn = m.recvmmsg, m.sendmmsg
	return m
}

func (m *mmsgConn) recvmmsg(fd uintptr) bool {
	for {
		r, _, e := unix.Syscall6(unix.SYS_RECVMMSG, fd, uintptr(unsafe.Pointer(&m.recv.hs[0])), uintptr(m.rn), unix.MSG_DONTWAIT, 0, 0)
		switch e {
		case unix.EINTR:
			continue
		case unix.EAGAIN:
			return false // nothing waiting: the poller wakes us
		}
		m.rgot, m.rerr = int(r), e
		return true
	}
}

func (m *mmsgConn) sendmmsg(fd uintptr) bool {
	for {
		r, _, e := unix.Syscall6(unix.SYS_SENDMMSG, fd, uintptr(unsafe.Pointer(&m.send.hs[0])), uintptr(m.sn), unix.MSG_DONTWAIT, 0, 0)
		switch e {
		case unix.EINTR:
			continue
		case unix.EAGAIN:
			return false // the socket's buffer is full: wait until it drains
		}
		m.sgot, m.serr = int(r), e
		return true
	}
}

// recvBatch receives into ms (see BatchTransport.RecvBatch); datagrams
// from the in-memory range are dropped as spoofs.
func (m *mmsgConn) RecvBatch(ms []Message) (int, error) {
	m.rmu.Lock()
	defer m.rmu.Unlock()
	n := min(len(ms), len(m.recv.hs))
	if n == 0 {
		return 0, nil
	}
	for {
		for i := 0; i < n; i++ {
			if len(ms[i].Buf) == 0 {
				n = i
				break
			}
			m.recv.iovs[i].Base = &ms[i].Buf[0]
			m.recv.iovs[i].SetLen(len(ms[i].Buf))
			m.recv.hs[i].hdr.Namelen = unix.SizeofSockaddrInet6
			m.recv.hs[i].hdr.Flags = 0
			m.recv.hs[i].n = 0
		}
		if n == 0 {
			return 0, nil
		}
		m.rn = n
		if err := m.rc.Read(m.rfn); err != nil {
			return 0, err
		}
		if m.rerr != 0 {
			if m.rerr == unix.ECONNREFUSED {
				continue // an ICMP port-unreachable for an earlier send
			}
			return 0, m.rerr
		}
		kept := 0
		for i := 0; i < m.rgot; i++ {
			from, ok := sockaddrPort(&m.recv.names[i])
			if !ok || MemPrefix.Contains(from.Addr()) {
				continue
			}
			ms[i].N, ms[i].Addr = int(m.recv.hs[i].n), from
			ms[i], ms[kept] = ms[kept], ms[i]
			kept++
		}
		if kept > 0 {
			return kept, nil
		}
	}
}

// sendBatch sends ds (see BatchTransport.SendBatch).
func (m *mmsgConn) SendBatch(ds []Datagram) error {
	m.smu.Lock()
	defer m.smu.Unlock()
	for len(ds) > 0 {
		n := 0
		for _, d := range ds[:min(len(ds), len(m.send.hs))] {
			h := &m.send.hs[n]
			nl, ok := m.putSockaddr(&m.send.names[n], d.Addr)
			if !ok {
				break // an address this socket cannot reach: skipped below
			}
			h.hdr.Namelen = nl
			m.send.iovs[n].Base = nil
			if len(d.Data) > 0 {
				m.send.iovs[n].Base = &d.Data[0]
			}
			m.send.iovs[n].SetLen(len(d.Data))
			n++
		}
		if n == 0 {
			ds = ds[1:]
			continue
		}
		m.sn = n
		if err := m.rc.Write(m.sfn); err != nil {
			return err
		}
		if m.serr != 0 {
			// The first datagram failed (no route, refused, too big):
			// skip it as a lost one; the rest go on.
			ds = ds[1:]
			continue
		}
		ds = ds[m.sgot:]
	}
	return nil
}

// putSockaddr writes to into sa for this socket's family and returns the
// length to pass; false if the socket cannot send there.
func (m *mmsgConn) putSockaddr(sa *unix.RawSockaddrInet6, to netip.AddrPort) (uint32, bool) {
	ip := to.Addr()
	port := to.Port()
	if m.v6 {
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
