package loadtest

import (
	"net/netip"
	"time"

	"ttytanks/netcode/transport"
)

// socketSet is the sockets of a shard's clients, by slot, and the wait
// for what arrives on them: on Linux non-blocking sockets in one epoll
// set, drained with recvmmsg (epollSockets); elsewhere, and around a
// simulated network, a goroutine a socket (goroutineSockets). Only the
// shard's loop calls its methods, except wake.
type socketSet interface {
	// open opens slot's socket, bound to bind (the zero address: the
	// host's, of the server's family); seed seeds its network simulator,
	// if any.
	open(slot int, bind netip.Addr, seed uint64) error
	// send sends ds from slot's socket; the error is that of a socket
	// that cannot send at all.
	send(slot int, ds []transport.Datagram) error
	// close closes slot's socket; what it still had is dropped.
	close(slot int)
	// wait waits at most d (none when d <= 0) for datagrams to arrive or
	// for wake, and hands what arrived to ev, with the time the wait
	// ended.
	wait(d time.Duration, ev socketEvents)
	// wake ends a wait under way, or the next one. It is safe for
	// concurrent use, also after shutdown.
	wake()
	// shutdown closes every socket.
	shutdown()
}

// socketEvents is what a socketSet's wait hands over: a datagram that
// arrived on slot's socket (b is valid during the call), or the socket's
// failure.
type socketEvents interface {
	received(slot int, now time.Time, from netip.AddrPort, b []byte)
	failed(slot int, err error)
}
