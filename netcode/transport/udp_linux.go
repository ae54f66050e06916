//go:build linux

package transport

import (
	"net"
	"net/netip"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// mmsgConn moves batches of datagrams over a UDP socket with recvmmsg(2)
// and sendmmsg(2): one system call for as many datagrams as are waiting
// (receiving) or as a tick produced (sending). Its buffers (mmsgBufs)
// are allocated once, and the functions handed to the socket's RawConn
// are bound once, so a batch allocates nothing.
type mmsgConn struct {
	rc syscall.RawConn
	v6 bool // an AF_INET6 socket: IPv4 peers are v4-mapped

	rmu  sync.Mutex // the receiving side
	recv mmsgBufs
	rfn  func(fd uintptr) bool

	smu   sync.Mutex // the sending side
	send  mmsgBufs
	sfn   func(fd uintptr) bool
	write func() error // one send call through rc, waiting while the buffer is full
}

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
	m.rfn, m.sfn = m.recv.recvmmsg, m.send.sendmmsg
	m.write = func() error { return m.rc.Write(m.sfn) }
	return m
}

// RecvBatch receives into ms (see BatchTransport.RecvBatch); datagrams
// from the in-memory range are dropped as spoofs.
func (m *mmsgConn) RecvBatch(ms []Message) (int, error) {
	m.rmu.Lock()
	defer m.rmu.Unlock()
	for {
		if m.recv.loadRecv(ms) == 0 {
			return 0, nil
		}
		if err := m.rc.Read(m.rfn); err != nil { // EAGAIN: the poller wakes us
			return 0, err
		}
		if m.recv.errno != 0 {
			if m.recv.errno == unix.ECONNREFUSED {
				continue // an ICMP port-unreachable for an earlier send
			}
			return 0, m.recv.errno
		}
		if kept := m.recv.received(ms); kept > 0 {
			return kept, nil
		}
	}
}

// SendBatch sends ds (see BatchTransport.SendBatch).
func (m *mmsgConn) SendBatch(ds []Datagram) error {
	m.smu.Lock()
	defer m.smu.Unlock()
	return m.send.sendAll(m.v6, netip.AddrPort{}, ds, m.write)
}
