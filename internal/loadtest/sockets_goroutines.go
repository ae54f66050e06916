package loadtest

import (
	"errors"
	"net"
	"net/netip"
	"sync"
	"time"

	"ttytanks/netcode/transport"
)

// goroutineSockets is the portable socket set: a transport.UDP a client
// (wrapped in the network simulator when Config.Sim is active), each
// with a goroutine blocked reading it that hands what arrives, copied,
// to the shard's loop through one channel. It is what a load test runs
// on where there is no epoll, and around a simulated network.
type goroutineSockets struct {
	cfg   *Config
	ts    []transport.Transport // by slot; nil: not open
	in    chan arrival
	wakeC chan struct{}
	done  chan struct{} // closed at shutdown: the readers stop handing over
	timer *time.Timer
	wg    sync.WaitGroup
}

// arrival is what a reader hands the loop: a datagram, or its socket's
// error.
type arrival struct {
	slot int
	from netip.AddrPort
	b    []byte
	err  error
}

func newGoroutineSockets(cfg *Config, n int) *goroutineSockets {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	return &goroutineSockets{cfg: cfg, ts: make([]transport.Transport, n), in: make(chan arrival, 1024),
		wakeC: make(chan struct{}, 1), done: make(chan struct{}), timer: timer}
}

// open implements socketSet.
func (g *goroutineSockets) open(slot int, bind netip.Addr, seed uint64) error {
	addr := ":0"
	if bind.IsValid() {
		addr = netip.AddrPortFrom(bind, 0).String()
	}
	u, err := transport.ListenUDP(addr)
	if err != nil {
		return err
	}
	t := g.cfg.wrap(u, seed)
	g.ts[slot] = t
	g.wg.Go(func() { g.read(slot, t) })
	return nil
}

// read hands what arrives on t to the loop until t closes or fails.
func (g *goroutineSockets) read(slot int, t transport.Transport) {
	buf := make([]byte, transport.RecvBufSize)
	for {
		n, from, err := t.Recv(buf)
		if errors.Is(err, net.ErrClosed) {
			return // closed by the loop
		}
		a := arrival{slot: slot, from: from, err: err}
		if err == nil {
			a.b = append([]byte(nil), buf[:n]...)
		}
		select {
		case g.in <- a:
		case <-g.done:
			return
		}
		if err != nil {
			return
		}
	}
}

// send implements socketSet. A UDP send's error is one datagram's (no
// route, say), lost as the network would lose it.
func (g *goroutineSockets) send(slot int, ds []transport.Datagram) error {
	if t := g.ts[slot]; t != nil {
		for _, d := range ds {
			_ = t.Send(d.Addr, d.Data)
		}
	}
	return nil
}

// close implements socketSet.
func (g *goroutineSockets) close(slot int) {
	if t := g.ts[slot]; t != nil {
		_ = t.Close()
		g.ts[slot] = nil
	}
}

// wait implements socketSet.
func (g *goroutineSockets) wait(d time.Duration, ev socketEvents) {
	if d > 0 {
		g.timer.Reset(d)
		select {
		case a := <-g.in:
			g.hand(a, ev)
		case <-g.timer.C:
		case <-g.wakeC:
		}
		g.timer.Stop()
	}
	for {
		select {
		case a := <-g.in:
			g.hand(a, ev)
		default:
			return
		}
	}
}

// hand gives ev an arrival, unless its socket has closed since.
func (g *goroutineSockets) hand(a arrival, ev socketEvents) {
	if g.ts[a.slot] == nil {
		return
	}
	if a.err != nil {
		ev.failed(a.slot, a.err)
		return
	}
	ev.received(a.slot, time.Now(), a.from, a.b)
}

// wake implements socketSet.
func (g *goroutineSockets) wake() {
	select {
	case g.wakeC <- struct{}{}:
	default:
	}
}

// shutdown implements socketSet.
func (g *goroutineSockets) shutdown() {
	for slot := range g.ts {
		g.close(slot)
	}
	close(g.done)
	g.wg.Wait()
}
