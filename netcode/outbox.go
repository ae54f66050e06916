package netcode

import (
	"net/netip"

	"ttytanks/proto"
)

// packet is what the server and client send: any proto packet.
type packet interface {
	Append([]byte) []byte
	Head() *proto.Header
}

// outbox collects the datagrams one call of a core returns. Their bytes
// live in one arena reused by the next call, so sending allocates nothing
// in steady state.
type outbox struct {
	out   []Datagram
	arena []byte
	bytes uint64 // total bytes ever put
	count uint64 // datagrams ever put
}

// newOutbox returns an outbox whose arena starts with room for n bytes.
func newOutbox(n int) outbox { return outbox{arena: make([]byte, 0, n)} }

// total returns the bytes ever put.
func (o *outbox) total() uint64 { return o.bytes }

// sent returns the number of datagrams ever put.
func (o *outbox) sent() uint64 { return o.count }

// reset empties the outbox for the next call; the previous result is no
// longer valid.
func (o *outbox) reset() { o.out, o.arena = o.out[:0], o.arena[:0] }

// put encodes pkt (its header complete) for to and returns its size.
func (o *outbox) put(to netip.AddrPort, pkt packet) int {
	start := len(o.arena)
	o.arena = pkt.Append(o.arena)
	o.out = append(o.out, Datagram{Addr: to, Data: o.arena[start:len(o.arena):len(o.arena)]})
	n := len(o.arena) - start
	o.bytes += uint64(n)
	o.count++
	return n
}

// datagrams returns what was put since the last reset.
func (o *outbox) datagrams() []Datagram { return o.out }
