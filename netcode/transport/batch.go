package transport

import (
	"net/netip"
)

// Message is one datagram of a received batch: Buf is where it is
// received (its length is the room there is), N its size and Addr its
// source.
type Message struct {
	Buf  []byte
	N    int
	Addr netip.AddrPort
}

// BatchTransport is a Transport that moves many datagrams per system
// call (recvmmsg and sendmmsg on Linux). A server driver uses it when its
// transport has it: one receive call for every datagram waiting, one send
// call for all the rooms stepped in a tick.
type BatchTransport interface {
	Transport
	// RecvBatch blocks until a datagram arrives, then receives into ms
	// as many as are waiting and fit, and returns how many. After Close
	// it returns net.ErrClosed.
	RecvBatch(ms []Message) (int, error)
	// SendBatch sends every datagram of ds, in order; it does not keep
	// them. A datagram the network refuses (no route, say) is skipped,
	// as a lost one would be; the error is that of a failed socket.
	SendBatch(ds []Datagram) error
}

// RecvBatch receives into ms through t's batch call, or one datagram
// through Recv when t has none.
func RecvBatch(t Transport, ms []Message) (int, error) {
	if bt, ok := t.(BatchTransport); ok {
		return bt.RecvBatch(ms)
	}
	n, from, err := t.Recv(ms[0].Buf)
	if err != nil {
		return 0, err
	}
	ms[0].N, ms[0].Addr = n, from
	return 1, nil
}

// SendBatch sends ds through t's batch call, or one by one through Send
// when t has none.
func SendBatch(t Transport, ds []Datagram) {
	if len(ds) == 0 {
		return
	}
	if bt, ok := t.(BatchTransport); ok {
		_ = bt.SendBatch(ds)
		return
	}
	for _, d := range ds {
		_ = t.Send(d.Addr, d.Data)
	}
}

// SendQueue gathers the datagrams of several calls of a core (each valid
// only until the next) by copying them, to send them in one batch.
type SendQueue struct {
	ds    []Datagram
	arena []byte
}

// Add copies ds into the queue.
func (q *SendQueue) Add(ds []Datagram) {
	for _, d := range ds {
		if len(q.arena)+len(d.Data) > cap(q.arena) {
			// A new arena: the queued datagrams keep the old one alive.
			q.arena = make([]byte, 0, max(2*cap(q.arena), 64<<10, len(d.Data)))
		}
		start := len(q.arena)
		q.arena = append(q.arena, d.Data...)
		q.ds = append(q.ds, Datagram{Addr: d.Addr, Data: q.arena[start:len(q.arena):len(q.arena)]})
	}
}

// Flush sends the queue through t and empties it.
func (q *SendQueue) Flush(t Transport) {
	SendBatch(t, q.ds)
	clear(q.ds) // drop references to an arena that may be replaced
	q.ds, q.arena = q.ds[:0], q.arena[:0]
}
