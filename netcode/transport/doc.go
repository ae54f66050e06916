// Package transport moves the netcode cores' datagrams: real UDP, an
// in-memory network for the SSH front end's in-process clients, a
// multiplexer that puts the two behind one server, and a seeded network
// simulator (latency, jitter, loss, duplicates, reordering) that wraps
// any of them. Every Transport is safe for concurrent use: a driver
// receives on one goroutine and sends from another.
//
//	transport.go     Datagram, Transport; UDP, MemNetwork and Mem, SimTransport
//	udp_linux.go     recvmmsg and sendmmsg: many datagrams a system call
//	mmsg_linux.go    the batch calls' buffers, shared by UDP and FDBatch
//	fdbatch_linux.go FDBatch: the batch calls on sockets an event loop polls
//	udp_other.go     elsewhere, one datagram a call
//	batch.go         Message, BatchTransport, RecvBatch, SendBatch, SendQueue
//	mux.go           MuxTransport: UDP and the in-memory network as one
//	netsim.go        Impairment, Netsim: the simulator's seeded plan for each datagram
//
// A driver's receive loop, batched where the transport can:
//
//	ms := make([]transport.Message, 64)
//	for i := range ms {
//		ms[i].Buf = make([]byte, transport.RecvBufSize)
//	}
//	for {
//		n, err := transport.RecvBatch(t, ms)
//		if err != nil {
//			return err // net.ErrClosed once the transport is closed
//		}
//		for _, m := range ms[:n] {
//			transport.SendBatch(t, core.Receive(time.Now(), m.Addr, m.Buf[:m.N]))
//		}
//	}
//
// The in-memory peers' addresses are in MemPrefix; UDP drops any datagram
// that claims one, so nobody on the network can pose as an SSH player.
package transport
