package transport

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"sync"
	"syscall"
	"time"
)

// Datagram is one datagram to send or received, with the peer's address.
type Datagram struct {
	Addr netip.AddrPort
	Data []byte
}

// RecvBufSize is the size of a receive buffer: larger than any valid
// datagram, so an oversize one is seen as such.
const RecvBufSize = 2048

// Transport moves datagrams. Implementations are safe for concurrent use:
// one goroutine may block in Recv while others Send.
type Transport interface {
	// Send sends one datagram. It does not keep b.
	Send(to netip.AddrPort, b []byte) error
	// Recv blocks for the next datagram, copies it into buf and returns its
	// length and source. After Close it returns net.ErrClosed.
	Recv(buf []byte) (int, netip.AddrPort, error)
	// LocalAddr is the address peers send to.
	LocalAddr() netip.AddrPort
	// Close unblocks Recv and releases the transport.
	Close() error
}

// UDP is a Transport over a real UDP socket. It is a BatchTransport: on
// Linux a batch is one recvmmsg or sendmmsg call, elsewhere a loop.
type UDP struct {
	conn *net.UDPConn
	mm   *mmsgConn // nil: no batch system calls here
}

// ListenUDP opens a UDP socket on addr (for example ":7777" or
// "127.0.0.1:0").
func ListenUDP(addr string) (*UDP, error) {
	ua, err := net.ResolveUDPAddr("udp", addr)
	if err != nil {
		return nil, fmt.Errorf("netcode: bad listen address %q: %w", addr, err)
	}
	conn, err := net.ListenUDP("udp", ua)
	if err != nil {
		return nil, err
	}
	// A receive buffer of a few MB rides out a burst (a flood, a stalled
	// tick) that the default ~200 KB drops in the kernel, uncounted. The
	// kernel caps it at net.core.rmem_max; less is no error.
	_ = conn.SetReadBuffer(udpReadBuffer)
	return &UDP{conn: conn, mm: newMmsgConn(conn)}, nil
}

// udpReadBuffer is the receive buffer ListenUDP asks for.
const udpReadBuffer = 4 << 20

// RecvBatch implements BatchTransport.
func (u *UDP) RecvBatch(ms []Message) (int, error) {
	if len(ms) == 0 {
		return 0, nil
	}
	if u.mm != nil {
		return u.mm.RecvBatch(ms)
	}
	n, from, err := u.Recv(ms[0].Buf)
	if err != nil {
		return 0, err
	}
	ms[0].N, ms[0].Addr = n, from
	return 1, nil
}

// SendBatch implements BatchTransport.
func (u *UDP) SendBatch(ds []Datagram) error {
	if u.mm != nil {
		return u.mm.SendBatch(ds)
	}
	for _, d := range ds {
		if err := u.Send(d.Addr, d.Data); err != nil && errors.Is(err, net.ErrClosed) {
			return err
		}
	}
	return nil
}

// Send implements Transport.
func (u *UDP) Send(to netip.AddrPort, b []byte) error {
	_, err := u.conn.WriteToUDPAddrPort(b, to)
	return err
}

// Recv implements Transport.
func (u *UDP) Recv(buf []byte) (int, netip.AddrPort, error) {
	for {
		n, from, err := u.conn.ReadFromUDPAddrPort(buf)
		if err != nil {
			if errors.Is(err, syscall.ECONNREFUSED) {
				continue // an ICMP port-unreachable for an earlier send: not fatal
			}
			return 0, netip.AddrPort{}, err
		}
		if MemPrefix.Contains(from.Addr().Unmap()) {
			continue // the in-memory peers' range never arrives over UDP: a spoof
		}
		return n, netip.AddrPortFrom(from.Addr().Unmap(), from.Port()), nil
	}
}

// LocalAddr implements Transport.
func (u *UDP) LocalAddr() netip.AddrPort {
	return u.conn.LocalAddr().(*net.UDPAddr).AddrPort()
}

// Close implements Transport.
func (u *UDP) Close() error { return u.conn.Close() }

// MemPrefix holds every address a MemNetwork hands out (Listen uses its
// first host, 127.0.77.1, and a fresh port). MuxTransport routes by it.
var MemPrefix = netip.MustParsePrefix("127.0.77.0/24")

// MemNetwork is an in-memory datagram network: transports attached to it
// reach each other by address, with no sockets. Delivery is immediate and
// lossless; wrap a transport with NewSimTransport for impairments.
type MemNetwork struct {
	mu    sync.Mutex
	ports map[netip.AddrPort]*Mem
	next  uint16
}

// NewMemNetwork returns an empty network.
func NewMemNetwork() *MemNetwork {
	return &MemNetwork{ports: map[netip.AddrPort]*Mem{}, next: 10000}
}

// MemQueue is the datagrams a Mem from Listen holds until they are
// received; those sent to a full queue are dropped.
const MemQueue = 1024

// Listen attaches a transport at a fresh loopback-style address, with a
// queue of MemQueue datagrams.
func (n *MemNetwork) Listen() *Mem { return n.ListenQueue(MemQueue) }

// ListenQueue is Listen with a queue of queue datagrams (at least 1): a
// client, which the server sends a few datagrams a tick, needs far fewer
// than a server, and each queued datagram is 56 bytes held for the
// transport's life.
func (n *MemNetwork) ListenQueue(queue int) *Mem {
	n.mu.Lock()
	defer n.mu.Unlock()
	var addr netip.AddrPort
	for { // the next free port, skipping 0 when the counter wraps
		n.next++
		addr = netip.AddrPortFrom(MemPrefix.Addr().Next(), n.next)
		if _, taken := n.ports[addr]; n.next != 0 && !taken {
			break
		}
	}
	m := &Mem{net: n, addr: addr, in: make(chan Datagram, max(queue, 1)), done: make(chan struct{})}
	n.ports[addr] = m
	return m
}

// Mem is a transport on a MemNetwork.
type Mem struct {
	net       *MemNetwork
	addr      netip.AddrPort
	in        chan Datagram
	done      chan struct{}
	closeOnce sync.Once
}

// Send implements Transport. A datagram to an unknown address, or to a
// full queue, is dropped silently, as UDP would.
func (m *Mem) Send(to netip.AddrPort, b []byte) error {
	select {
	case <-m.done:
		return net.ErrClosed
	default:
	}
	m.net.mu.Lock()
	dst := m.net.ports[to]
	m.net.mu.Unlock()
	if dst == nil {
		return nil
	}
	d := Datagram{Addr: m.addr, Data: append([]byte(nil), b...)}
	select {
	case dst.in <- d:
	case <-dst.done:
	default:
	}
	return nil
}

// Recv implements Transport.
func (m *Mem) Recv(buf []byte) (int, netip.AddrPort, error) {
	select {
	case d := <-m.in:
		return copy(buf, d.Data), d.Addr, nil
	case <-m.done:
		return 0, netip.AddrPort{}, net.ErrClosed
	}
}

// LocalAddr implements Transport.
func (m *Mem) LocalAddr() netip.AddrPort { return m.addr }

// Close implements Transport.
func (m *Mem) Close() error {
	m.closeOnce.Do(func() {
		close(m.done)
		m.net.mu.Lock()
		delete(m.net.ports, m.addr)
		m.net.mu.Unlock()
	})
	return nil
}

// SimTransport wraps a transport with a network-condition simulator on its
// outgoing path and its incoming path, in real time: delayed datagrams are
// delivered by timers. It is what the --sim-* flags build.
type SimTransport struct {
	Transport
	mu       sync.Mutex
	out      *Netsim
	in       *Netsim
	inQ      chan Datagram // never closed: late timers may still deliver
	closed   bool
	stopCh   chan struct{}
	pumpDone chan struct{} // closed when the wrapped transport's Recv fails
	pumpErr  error
	outWG    sync.WaitGroup // pending outgoing datagrams
	inWG     sync.WaitGroup // pending incoming datagrams and the pump
	plan     []time.Time
}

// NewSimTransport impairs datagrams sent through t with out and datagrams
// received from it with in, seeded by seed.
func NewSimTransport(t Transport, out, in Impairment, seed uint64) *SimTransport {
	s := &SimTransport{Transport: t, out: NewNetsim(out, seed), in: NewNetsim(in, seed+1),
		inQ: make(chan Datagram, 4096), stopCh: make(chan struct{}), pumpDone: make(chan struct{})}
	s.inWG.Add(1)
	go s.pump()
	return s
}

// Send implements Transport.
func (s *SimTransport) Send(to netip.AddrPort, b []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return net.ErrClosed
	}
	now := time.Now()
	s.plan = s.out.Plan(now, s.plan[:0])
	for _, at := range s.plan {
		data := append([]byte(nil), b...)
		s.outWG.Add(1)
		go func(t *time.Timer) {
			defer s.outWG.Done()
			select {
			case <-t.C:
			case <-s.stopCh:
				t.Stop() // closing: send it now, so a last Leave still goes out
			}
			_ = s.Transport.Send(to, data)
		}(time.NewTimer(at.Sub(now)))
	}
	return nil
}

// pump reads the wrapped transport and schedules impaired delivery.
func (s *SimTransport) pump() {
	defer s.inWG.Done()
	buf := make([]byte, 2048)
	var plan []time.Time
	for {
		n, from, err := s.Transport.Recv(buf)
		if err != nil {
			s.pumpErr = err
			close(s.pumpDone)
			return
		}
		now := time.Now()
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			continue
		}
		plan = s.in.Plan(now, plan[:0])
		for _, at := range plan {
			d := Datagram{Addr: from, Data: append([]byte(nil), buf[:n]...)}
			s.inWG.Add(1)
			go func(t *time.Timer) {
				defer s.inWG.Done()
				select {
				case <-t.C:
					select {
					case s.inQ <- d:
					default: // a full queue drops, as a socket buffer would
					}
				case <-s.stopCh:
					t.Stop()
				}
			}(time.NewTimer(at.Sub(now)))
		}
		s.mu.Unlock()
	}
}

// Recv implements Transport.
func (s *SimTransport) Recv(buf []byte) (int, netip.AddrPort, error) {
	select {
	case d := <-s.inQ:
		return copy(buf, d.Data), d.Addr, nil
	case <-s.stopCh:
		return 0, netip.AddrPort{}, net.ErrClosed
	case <-s.pumpDone:
		return 0, netip.AddrPort{}, s.pumpErr
	}
}

// Close implements Transport. Datagrams still delayed on the way out are
// sent at once (a final Leave must not be lost to the simulator); those on
// the way in are discarded.
func (s *SimTransport) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.stopCh)
	s.mu.Unlock()
	s.outWG.Wait()
	err := s.Transport.Close()
	s.inWG.Wait()
	return err
}
