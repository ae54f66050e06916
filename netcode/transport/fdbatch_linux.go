//go:build linux

package transport

import (
	"net/netip"

	"golang.org/x/sys/unix"
)

// FDBatch moves batches of datagrams over non-blocking UDP sockets given
// by their file descriptors, for a driver that polls many sockets itself
// (an event loop over them, as the load generator's): one recvmmsg(2) or
// sendmmsg(2) call a batch, never waiting. It is the same batch IO as
// UDP's, with its buffers allocated once; any number of sockets may
// share one FDBatch. Its calls are raw system calls: the goroutine keeps
// its P through them, as they never wait. Not safe for concurrent use.
type FDBatch struct {
	recv, send mmsgBufs
	fd         uintptr // the socket of the send under way
	call       func() error
}

// NewFDBatch returns an FDBatch that receives up to 64 datagrams a call
// and sends up to 256.
func NewFDBatch() *FDBatch {
	b := &FDBatch{recv: newMmsgBufs(recvBatchMax), send: newMmsgBufs(sendBatchMax)}
	b.recv.raw, b.send.raw = true, true
	b.call = b.sendOnce
	return b
}

// Recv receives into ms as many datagrams as wait on socket fd and fit
// (up to 64), without waiting, and returns how many: 0 when none waits.
// Datagrams from the in-memory range are dropped as spoofs, and an ICMP
// port-unreachable for an earlier send is passed over; any other error
// is the socket's, returned as a syscall.Errno.
func (b *FDBatch) Recv(fd int, ms []Message) (int, error) {
	for {
		if b.recv.loadRecv(ms) == 0 {
			return 0, nil
		}
		if !b.recv.recvmmsg(uintptr(fd)) {
			return 0, nil
		}
		if b.recv.errno != 0 {
			if b.recv.errno == unix.ECONNREFUSED {
				continue
			}
			return 0, b.recv.errno
		}
		if kept := b.recv.received(ms); kept > 0 {
			return kept, nil
		}
	}
}

// Send sends every datagram of ds, in order, from socket fd (an AF_INET6
// socket when v6, where IPv4 peers are v4-mapped), without waiting; it
// does not keep them. Datagrams to peer, the address fd is connected to
// (the zero AddrPort: none), go without an address, so the kernel skips
// its route lookup. A datagram the network refuses (no route, another
// address family, a full socket buffer) is skipped, as a lost one would
// be. The error is that of a socket that cannot send at all (closed, or
// not a socket), a syscall.Errno.
func (b *FDBatch) Send(fd int, v6 bool, peer netip.AddrPort, ds []Datagram) error {
	b.fd = uintptr(fd)
	return b.send.sendAll(v6, peer, ds, b.call)
}

// sendOnce makes one send call of the loaded headers; a full socket
// buffer fails its first datagram, as a lost one.
func (b *FDBatch) sendOnce() error {
	if !b.send.sendmmsg(b.fd) {
		b.send.got, b.send.errno = 0, unix.EAGAIN
	}
	return nil
}
