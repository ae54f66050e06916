package netcode

import (
	"net/netip"

	"ttytanks/netcode/transport"
	"ttytanks/proto"
)

// packet is what the cores send: any proto packet, which travels in the
// clear (Append) or sealed (proto.Packet).
type packet interface {
	proto.Packet
	Append([]byte) []byte
}

// sealFunc seals pkt for connection conn, appending the sealed datagram
// to dst; it returns where the datagram goes and the grown dst, or ok
// false to drop it.
type sealFunc func(conn uint32, dst []byte, pkt proto.Packet) (to netip.AddrPort, out []byte, ok bool)

// outbox collects the datagrams one call of a core returns. Their bytes
// live in one arena reused by the next call, so sending allocates nothing
// in steady state.
type outbox struct {
	seal  sealFunc
	out   []transport.Datagram
	arena []byte
	bytes uint64 // total bytes ever put
	count uint64 // datagrams ever put
	// rejects counts the Rejects put, by reason.
	rejects [proto.MaxRejectReason + 1]uint64
}

// newOutbox returns an outbox whose arena starts with room for n bytes
// and whose sealed packets seal is given.
func newOutbox(n int, seal sealFunc) outbox { return outbox{arena: make([]byte, 0, n), seal: seal} }

// total returns the bytes ever put.
func (o *outbox) total() uint64 { return o.bytes }

// sent returns the number of datagrams ever put.
func (o *outbox) sent() uint64 { return o.count }

// reset empties the outbox for the next call; the previous result is no
// longer valid.
func (o *outbox) reset() { o.out, o.arena = o.out[:0], o.arena[:0] }

// clear encodes pkt for to in the clear and returns its size: a
// handshake packet, the room list, a Reject that answers a Join.
func (o *outbox) clear(to netip.AddrPort, pkt packet) int {
	o.countReject(pkt)
	start := len(o.arena)
	o.arena = pkt.Append(o.arena)
	return o.add(to, start)
}

// sealed seals pkt for connection conn and returns its size (0: dropped,
// by the seal function's word).
func (o *outbox) sealed(conn uint32, pkt proto.Packet) int {
	start := len(o.arena)
	to, out, ok := o.seal(conn, o.arena, pkt)
	if !ok {
		o.arena = o.arena[:start]
		return 0
	}
	o.arena = out
	o.countReject(pkt)
	return o.add(to, start)
}

// countReject counts pkt if it is a Reject.
func (o *outbox) countReject(pkt proto.Packet) {
	if rj, ok := pkt.(*proto.Reject); ok && rj.Reason <= proto.MaxRejectReason {
		o.rejects[rj.Reason]++
	}
}

// refused returns the Rejects ever put, by reason.
func (o *outbox) refused() [proto.MaxRejectReason + 1]uint64 { return o.rejects }

// add records the datagram at arena[start:] for to.
func (o *outbox) add(to netip.AddrPort, start int) int {
	o.out = append(o.out, transport.Datagram{Addr: to, Data: o.arena[start:len(o.arena):len(o.arena)]})
	n := len(o.arena) - start
	o.bytes += uint64(n)
	o.count++
	return n
}

// datagrams returns what was put since the last reset.
func (o *outbox) datagrams() []transport.Datagram { return o.out }
