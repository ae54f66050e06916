package netcode

import (
	"net/netip"
	"slices"

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
	// seal, if set, seals a session's packet (clear datagram b, for the
	// address to) for its connection and says where it goes; ok false
	// drops it.
	seal  func(to netip.AddrPort, b []byte) (dst netip.AddrPort, sealed []byte, ok bool)
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

// sealWith makes f the outbox's seal function.
func (o *outbox) sealWith(f func(to netip.AddrPort, b []byte) (netip.AddrPort, []byte, bool)) {
	o.seal = f
}

// put encodes pkt (its header complete) for to and returns its size (0:
// dropped). A packet of a session (proto.Type.Sealed, and Reject) is
// sealed by the seal function, which also says where it goes.
func (o *outbox) put(to netip.AddrPort, pkt packet) int {
	start := len(o.arena)
	o.arena = pkt.Append(o.arena)
	t := proto.Type(o.arena[start+3])
	if o.seal != nil && (t.Sealed() || t == proto.TypeReject) {
		o.arena = slices.Grow(o.arena, proto.SealTagLen)
		dst, sealed, ok := o.seal(to, o.arena[start:])
		if !ok {
			o.arena = o.arena[:start]
			return 0
		}
		o.arena = o.arena[:start+len(sealed)]
		to = dst
	}
	return o.add(to, start)
}

// putClear encodes pkt for to in the clear, whatever its type: a Reject
// that answers a Join.
func (o *outbox) putClear(to netip.AddrPort, pkt packet) int {
	start := len(o.arena)
	o.arena = pkt.Append(o.arena)
	return o.add(to, start)
}

// add records the datagram at arena[start:] for to.
func (o *outbox) add(to netip.AddrPort, start int) int {
	o.out = append(o.out, Datagram{Addr: to, Data: o.arena[start:len(o.arena):len(o.arena)]})
	n := len(o.arena) - start
	o.bytes += uint64(n)
	o.count++
	return n
}

// datagrams returns what was put since the last reset.
func (o *outbox) datagrams() []Datagram { return o.out }
