package transport

import (
	"errors"
	"net"
	"net/netip"
	"sync"
)

// MuxTransport is the game server's transport when it also serves SSH
// players: it joins a network transport (the UDP socket, possibly wrapped
// by the simulator) and an in-memory transport on a MemNetwork of its own,
// where the SSH sessions' clients live, into one Transport that a
// single ServerDriver can run on.
//
// Recv fans in: one goroutine per side copies datagrams into a shared
// queue. Send routes by address: to MemPrefix goes to the in-memory side,
// anything else to the network. A datagram arriving from the network with
// a source in MemPrefix is dropped, so a local UDP sender cannot pose as
// an SSH player (the cost: a UDP client bound to 127.0.77.x cannot play).
// LocalAddr is the network side's. It is safe for concurrent use.
type MuxTransport struct {
	net  Transport
	mem  *Mem
	mnet *MemNetwork

	in   chan Datagram
	smu  sync.Mutex
	nets []Datagram // SendBatch's datagrams for the network side
	errc chan error // the network side's first non-close error
	done chan struct{}
	once sync.Once
	wg   sync.WaitGroup
}

// NewMuxTransport returns a transport on t and on a new in-memory network;
// Network and MemAddr say where in-memory clients reach the server. Close
// closes t too.
func NewMuxTransport(t Transport) *MuxTransport {
	mnet := NewMemNetwork()
	return newMux(t, mnet.Listen(), mnet)
}

// JoinMem returns the transport of an in-memory client that may also
// reach servers over the network t: an SSH session's client on a
// fleet's front end, which plays on the front end's own server through
// mem and on the fleet's others over UDP. Network is nil; Close closes
// both.
func JoinMem(t Transport, mem *Mem) *MuxTransport { return newMux(t, mem, nil) }

func newMux(t Transport, mem *Mem, mnet *MemNetwork) *MuxTransport {
	m := &MuxTransport{net: t, mem: mem, mnet: mnet,
		in: make(chan Datagram, 1024), errc: make(chan error, 1), done: make(chan struct{})}
	m.wg.Add(2)
	go m.pump(t, true)
	go m.pump(m.mem, false)
	return m
}

// Network is the in-memory network the SSH sessions' clients attach to.
func (m *MuxTransport) Network() *MemNetwork { return m.mnet }

// MemAddr is the server's address on Network: the ClientConfig.Server of
// an in-memory client.
func (m *MuxTransport) MemAddr() netip.AddrPort { return m.mem.LocalAddr() }

func (m *MuxTransport) pump(t Transport, fromNet bool) {
	defer m.wg.Done()
	buf := make([]byte, 2048)
	for {
		n, from, err := t.Recv(buf)
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				select {
				case m.errc <- err:
				default:
				}
			}
			return
		}
		if fromNet && MemPrefix.Contains(from.Addr()) {
			continue // spoofing an in-memory peer
		}
		select {
		case m.in <- Datagram{Addr: from, Data: append([]byte(nil), buf[:n]...)}:
		case <-m.done:
			return
		}
	}
}

// Send implements Transport.
func (m *MuxTransport) Send(to netip.AddrPort, b []byte) error {
	if MemPrefix.Contains(to.Addr()) {
		return m.mem.Send(to, b)
	}
	return m.net.Send(to, b)
}

// SendBatch implements BatchTransport: the in-memory side's datagrams one
// by one, the network side's in one batch if it has batches.
func (m *MuxTransport) SendBatch(ds []Datagram) error {
	m.smu.Lock()
	defer m.smu.Unlock()
	m.nets = m.nets[:0]
	for _, d := range ds {
		if MemPrefix.Contains(d.Addr.Addr()) {
			_ = m.mem.Send(d.Addr, d.Data)
		} else {
			m.nets = append(m.nets, d)
		}
	}
	defer clear(m.nets)
	if bt, ok := m.net.(BatchTransport); ok {
		return bt.SendBatch(m.nets)
	}
	for _, d := range m.nets {
		_ = m.net.Send(d.Addr, d.Data)
	}
	return nil
}

// RecvBatch implements BatchTransport: what the sides' pumps have queued,
// up to len(ms), waiting for the first.
func (m *MuxTransport) RecvBatch(ms []Message) (int, error) {
	if len(ms) == 0 {
		return 0, nil
	}
	n, from, err := m.Recv(ms[0].Buf)
	if err != nil {
		return 0, err
	}
	ms[0].N, ms[0].Addr = n, from
	k := 1
	for ; k < len(ms); k++ {
		select {
		case d := <-m.in:
			ms[k].N, ms[k].Addr = copy(ms[k].Buf, d.Data), d.Addr
		default:
			return k, nil
		}
	}
	return k, nil
}

// Recv implements Transport. It returns the network side's error
// if that fails, and net.ErrClosed after Close.
func (m *MuxTransport) Recv(buf []byte) (int, netip.AddrPort, error) {
	select {
	case d := <-m.in:
		return copy(buf, d.Data), d.Addr, nil
	case err := <-m.errc:
		return 0, netip.AddrPort{}, err
	case <-m.done:
		return 0, netip.AddrPort{}, net.ErrClosed
	}
}

// LocalAddr implements Transport: the network side's address.
func (m *MuxTransport) LocalAddr() netip.AddrPort { return m.net.LocalAddr() }

// Close closes both sides and waits for the pumps. It is idempotent.
func (m *MuxTransport) Close() error {
	var err error
	m.once.Do(func() {
		close(m.done)
		err = m.net.Close()
		_ = m.mem.Close()
		m.wg.Wait()
	})
	return err
}
