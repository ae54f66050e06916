package netcode

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"net"
	"sync"
	"time"

	"ttytanks/game"
	"ttytanks/proto"
)

// ServerDriver binds a Server to a transport and the wall clock: one
// goroutine receives datagrams, Run ticks at 60 Hz. Calls into the Server
// are serialised by a mutex.
type ServerDriver struct {
	mu sync.Mutex
	s  *Server
	t  Transport
}

// NewServerDriver returns a driver for s on t.
func NewServerDriver(s *Server, t Transport) *ServerDriver { return &ServerDriver{s: s, t: t} }

// Do runs f with the server locked, for inspection.
func (d *ServerDriver) Do(f func(s *Server)) {
	d.mu.Lock()
	defer d.mu.Unlock()
	f(d.s)
}

// Run serves until ctx is done, then sends every peer a Leave, closes the
// transport and returns nil once its goroutines have ended. It returns
// early with an error if the transport fails.
func (d *ServerDriver) Run(ctx context.Context) error {
	recvErr := make(chan error, 1)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		recvErr <- d.receive()
	}()
	defer func() {
		_ = d.t.Close()
		wg.Wait()
	}()
	timer := time.NewTimer(0)
	defer timer.Stop()
	next := time.Now()
	for {
		select {
		case <-ctx.Done():
			d.mu.Lock()
			out := d.s.Shutdown()
			d.sendAll(out)
			d.mu.Unlock()
			return nil
		case err := <-recvErr:
			return err
		case <-timer.C:
		}
		// Run the ticks that are due: normally one; a few in a row after a
		// stall, so the match keeps its 60 Hz cadence; beyond
		// MaxCatchUpTicks the schedule restarts from now instead.
		for n := 0; !time.Now().Before(next); n++ {
			if n == MaxCatchUpTicks {
				next = time.Now()
				break
			}
			d.mu.Lock()
			began := time.Now()
			out := d.s.Tick(next) // the scheduled time: input deadlines follow the schedule
			d.s.ObserveTickDuration(time.Since(began))
			d.sendAll(out)
			d.mu.Unlock()
			next = next.Add(TickDuration)
		}
		timer.Reset(time.Until(next))
	}
}

func (d *ServerDriver) receive() error {
	buf := make([]byte, 2048)
	for {
		n, from, err := d.t.Recv(buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			return err
		}
		d.mu.Lock()
		out := d.s.Receive(time.Now(), from, buf[:n])
		d.sendAll(out)
		d.mu.Unlock()
	}
}

func (d *ServerDriver) sendAll(out []Datagram) {
	for _, dg := range out {
		_ = d.t.Send(dg.Addr, dg.Data)
	}
}

// ClientDriver binds a Client to a transport and the wall clock, and is
// safe for concurrent use: a renderer reads View and sets the held input
// while the driver's goroutines tick and receive. It implements the
// tui.Session interface.
type ClientDriver struct {
	mu        sync.Mutex
	c         *Client
	t         Transport
	in        game.Input
	done      chan struct{}
	stop      chan struct{}
	once      sync.Once // closes done
	closeOnce sync.Once
	wg        sync.WaitGroup
}

// RandomSession returns a random session ID.
func RandomSession() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:]) | 1
}

// StartClient starts driving c on t. Stop it with Close.
func StartClient(c *Client, t Transport) *ClientDriver {
	if c.cfg.Session == 0 {
		c.cfg.Session = RandomSession()
	}
	d := &ClientDriver{c: c, t: t, done: make(chan struct{}), stop: make(chan struct{})}
	d.wg.Add(2)
	go d.receive()
	go d.tick()
	return d
}

func (d *ClientDriver) tick() {
	defer d.wg.Done()
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-d.stop:
			return
		case <-timer.C:
		}
		now := time.Now()
		d.mu.Lock()
		out := d.c.Advance(now, d.in)
		d.sendAll(out)
		wait := 5 * time.Millisecond
		if d.c.status == StatusPlaying {
			wait = min(wait, d.c.clock.Until(now))
		}
		d.checkDone()
		d.mu.Unlock()
		timer.Reset(max(wait, 200*time.Microsecond))
	}
}

func (d *ClientDriver) receive() {
	defer d.wg.Done()
	buf := make([]byte, 2048)
	for {
		n, from, err := d.t.Recv(buf)
		select {
		case <-d.stop:
			return
		default:
		}
		if err != nil {
			d.mu.Lock()
			if d.c.status != StatusClosed {
				d.c.status, d.c.message = StatusClosed, "network error: "+err.Error()
			}
			d.checkDone()
			d.mu.Unlock()
			return
		}
		d.mu.Lock()
		out := d.c.Receive(time.Now(), from, buf[:n])
		d.sendAll(out)
		d.checkDone()
		d.mu.Unlock()
	}
}

// checkDone closes Done when the client has closed. Call with mu held.
func (d *ClientDriver) checkDone() {
	if d.c.status == StatusClosed {
		d.once.Do(func() { close(d.done) })
	}
}

func (d *ClientDriver) sendAll(out []Datagram) {
	for _, dg := range out {
		_ = d.t.Send(dg.Addr, dg.Data)
	}
}

// View implements tui.Session.
func (d *ClientDriver) View(dst *View) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.c.View(dst)
}

// SetInput implements tui.Session.
func (d *ClientDriver) SetInput(in game.Input) {
	d.mu.Lock()
	d.in = in
	d.mu.Unlock()
}

// Done implements tui.Session: closed when the session is over.
func (d *ClientDriver) Done() <-chan struct{} { return d.done }

// Do runs f with the client locked, for inspection.
func (d *ClientDriver) Do(f func(c *Client)) {
	d.mu.Lock()
	defer d.mu.Unlock()
	f(d.c)
}

// Close tells the server we leave, stops the goroutines and closes the
// transport. It is idempotent, and every call returns only once the
// goroutines have stopped.
func (d *ClientDriver) Close() {
	d.closeOnce.Do(func() {
		d.mu.Lock()
		if d.c.status != StatusClosed {
			d.sendAll(d.c.Close("quit"))
		}
		d.checkDone()
		d.mu.Unlock()
		close(d.stop)
		_ = d.t.Close()
		d.wg.Wait()
	})
}

// compile-time check that the proto packets satisfy packet.
var _ packet = (*proto.State)(nil)
