package netcode

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"net/netip"
	"sync"
	"time"

	"ttytanks/game"
	"ttytanks/netcode/transport"
)

// wallClock is the real clock, for drivers and for cores left without one.
type wallClock struct{}

func (wallClock) Now() time.Time { return time.Now() }

// systemEntropy is the operating system's random source, for cores left
// without one.
func systemEntropy() io.Reader { return rand.Reader }

// ServerDriver binds a Server to a transport and the wall clock. One
// goroutine, the loop in Run, owns the Server: it takes each batch of
// datagrams the receiving goroutine hands it, runs Advance at each
// Deadline, and runs the functions given to Do, Kick and Ban between the
// two. So the receive path takes no lock: a datagram goes from the socket
// to its room through one channel and one map lookup. On a
// BatchTransport a receive is one system call for every datagram waiting,
// the answers to a batch go out in one call, and so do all the rooms'
// datagrams of a tick. It owns no game logic.
type ServerDriver struct {
	s    *Server
	t    transport.Transport
	in   chan *inbound
	free chan *inbound
	do   chan func(*Server)
	stop chan struct{}       // closed when Run is about to return
	q    transport.SendQueue // the answers to one batch
	// mu guards running; while the loop does not run, Do runs its
	// function under mu instead.
	mu      sync.Mutex
	running bool
}

// shutdownCopies is how many copies of its Leave a peer is sent when the
// server stops.
const shutdownCopies = 3

// Receive batches: inboundBatch datagrams at most per batch, and
// inboundBatches batches may wait for the loop (or be filled meanwhile).
const (
	inboundBatch   = 64
	inboundBatches = 8
)

// inbound is a batch of received datagrams, with their buffers.
type inbound struct {
	ms   [inboundBatch]transport.Message
	bufs [inboundBatch][transport.RecvBufSize]byte
	n    int
	at   time.Time
}

// NewServerDriver returns a driver for s on t.
func NewServerDriver(s *Server, t transport.Transport) *ServerDriver {
	d := &ServerDriver{s: s, t: t, in: make(chan *inbound, inboundBatches), free: make(chan *inbound, inboundBatches),
		do: make(chan func(*Server)), stop: make(chan struct{})}
	for i := 0; i < cap(d.free); i++ {
		b := new(inbound)
		for j := range b.ms {
			b.ms[j].Buf = b.bufs[j][:]
		}
		d.free <- b
	}
	return d
}

// Do runs f on the Server in the loop, between datagrams and ticks, and
// waits for it; before Run starts and after it ends, it runs f at once.
func (d *ServerDriver) Do(f func(s *Server)) {
	d.mu.Lock()
	if !d.running {
		defer d.mu.Unlock()
		f(d.s)
		return
	}
	d.mu.Unlock()
	ran := make(chan struct{})
	select {
	case d.do <- func(s *Server) { f(s); close(ran) }:
		<-ran
	case <-d.stop:
		d.mu.Lock() // Run is ending: wait until it has
		defer d.mu.Unlock()
		f(d.s)
	}
}

// Run serves until ctx is done, then sends every peer a Leave (in
// shutdownCopies copies), closes the transport and returns nil once its
// goroutines have ended. It returns early with an error if the transport
// fails. Run may be called once.
func (d *ServerDriver) Run(ctx context.Context) error {
	d.mu.Lock()
	d.running = true
	d.mu.Unlock()
	recvErr := make(chan error, 1)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		recvErr <- d.receive()
	}()
	defer func() {
		d.mu.Lock() // held until the loop's end is settled
		close(d.stop)
		_ = d.t.Close()
		wg.Wait()
		d.running = false
		d.mu.Unlock()
	}()
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			// Nobody repeats these Leaves: each goes out in
			// shutdownCopies copies (each sealed anew), as one lost would
			// leave its player waiting SilenceGone for a server that is
			// gone.
			for range shutdownCopies {
				d.sendAll(d.s.Shutdown())
			}
			return nil
		case err := <-recvErr:
			return err
		case f := <-d.do:
			f(d.s)
			continue
		case b := <-d.in:
			for i := range b.ms[:b.n] {
				m := &b.ms[i]
				d.q.Add(d.s.Receive(b.at, m.Addr, m.Buf[:m.N]))
			}
			d.q.Flush(d.t)
			d.free <- b
			continue
		case <-timer.C:
		}
		began := time.Now()
		d.sendAll(d.s.Advance(began))
		d.s.ObserveTickDuration(time.Since(began))
		timer.Reset(time.Until(d.s.Deadline()))
	}
}

// Kick kicks the player in slot of the named room (see Server.Kick).
func (d *ServerDriver) Kick(room string, slot int) {
	d.Do(func(s *Server) { d.sendAll(s.Kick(room, slot)) })
}

// Ban bans addr (see Server.Ban).
func (d *ServerDriver) Ban(addr netip.Addr) {
	d.Do(func(s *Server) { d.sendAll(s.Ban(addr)) })
}

// receive reads batches of datagrams and hands them to the loop; when the
// loop falls behind by every batch, datagrams wait in the socket's buffer
// (and the kernel drops what does not fit, as it would for a slow reader).
func (d *ServerDriver) receive() error {
	for {
		var b *inbound
		select {
		case b = <-d.free:
		case <-d.stop:
			return nil
		}
		n, err := transport.RecvBatch(d.t, b.ms[:])
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			return err
		}
		b.n, b.at = n, time.Now()
		select {
		case d.in <- b:
		case <-d.stop:
			return nil
		}
	}
}

// sendAll sends one call's datagrams, in one batch where the transport
// can.
func (d *ServerDriver) sendAll(out []transport.Datagram) { transport.SendBatch(d.t, out) }

// ClientDriver binds a Client to a transport and the wall clock, and is
// safe for concurrent use: a renderer reads View and sets the held input
// while the driver's goroutines tick and receive. It implements the
// tui.Session interface.
type ClientDriver struct {
	mu        sync.Mutex
	c         *Client
	t         transport.Transport
	in        game.Input
	wake      chan struct{} // a datagram changed the client's deadline
	left      chan struct{} // closed once a closing client's Leave is settled
	closing   bool
	leftOnce  sync.Once
	done      chan struct{}
	stop      chan struct{}
	once      sync.Once // closes done
	closeOnce sync.Once
	wg        sync.WaitGroup
}

// StartClient starts driving c on t. Stop it with Close.
func StartClient(c *Client, t transport.Transport) *ClientDriver {
	d := &ClientDriver{c: c, t: t, wake: make(chan struct{}, 1), left: make(chan struct{}), done: make(chan struct{}),
		stop: make(chan struct{})}
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
		case <-d.wake:
		}
		now := time.Now()
		d.mu.Lock()
		d.sendAll(d.c.Advance(now, d.in))
		next := d.c.Deadline()
		d.checkDone()
		d.mu.Unlock()
		timer.Reset(max(time.Until(next), 200*time.Microsecond))
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
			if d.c.Status() != StatusClosed {
				d.c.Abort(err)
			}
			d.checkDone()
			d.mu.Unlock()
			return
		}
		d.mu.Lock()
		d.sendAll(d.c.Receive(time.Now(), from, buf[:n]))
		d.checkDone()
		d.mu.Unlock()
		select {
		case d.wake <- struct{}{}:
		default:
		}
	}
}

// checkDone closes Done when the client has closed, and, once Close has
// begun, left when its Leave is settled. Call with mu held.
func (d *ClientDriver) checkDone() {
	if d.c.Status() == StatusClosed {
		d.once.Do(func() { close(d.done) })
	}
	if d.closing && !d.c.Leaving() {
		d.leftOnce.Do(func() { close(d.left) })
	}
}

func (d *ClientDriver) sendAll(out []transport.Datagram) {
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

// Err returns why the session ended (nil before it has): see Client.Err.
func (d *ClientDriver) Err() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.c.Err()
}

// Done implements tui.Session: closed when the session is over.
func (d *ClientDriver) Done() <-chan struct{} { return d.done }

// Do runs f with the client locked, for inspection.
func (d *ClientDriver) Do(f func(c *Client)) {
	d.mu.Lock()
	defer d.mu.Unlock()
	f(d.c)
}

// Close tells the server we leave, and waits (at most about a second)
// until the server has acknowledged it, so the seat is free when Close
// returns; then it stops the goroutines and closes the transport. It is
// idempotent, and every call returns only once the goroutines have
// stopped.
func (d *ClientDriver) Close() { d.close(leaveFor + leaveEvery) }

// CloseNow is Close without waiting for the acknowledgement: the Leave
// goes out once. For a process told to stop, whose server may be stopping
// too (serve --play); should the Leave be lost, the seat frees when the
// server's silence limit passes.
func (d *ClientDriver) CloseNow() { d.close(0) }

func (d *ClientDriver) close(wait time.Duration) {
	d.closeOnce.Do(func() {
		d.mu.Lock()
		if d.c.Status() != StatusClosed {
			d.sendAll(d.c.Close())
		}
		d.closing = true
		d.checkDone()
		d.mu.Unlock()
		select {
		case d.wake <- struct{}{}: // the tick goroutine takes the Leave's schedule
		default:
		}
		// The tick goroutine repeats the Leave; the receive goroutine takes
		// the acknowledgement; the client gives up by itself after leaveFor.
		bound := time.NewTimer(wait)
		select {
		case <-d.left:
		case <-bound.C:
		}
		bound.Stop()
		close(d.stop)
		_ = d.t.Close()
		d.wg.Wait()
	})
}

// Lobby drives a LobbyClient on a transport and the wall clock; it is
// safe for concurrent use, and implements the lobby screen's source.
type Lobby struct {
	mu   sync.Mutex
	c    *LobbyClient
	t    transport.Transport
	stop chan struct{}
	wake chan struct{}
	wg   sync.WaitGroup
	once sync.Once
}

// StartLobby asks server for its rooms over t until Close.
func StartLobby(server netip.AddrPort, t transport.Transport, entropy io.Reader) (*Lobby, error) {
	if entropy == nil {
		entropy = systemEntropy()
	}
	var b [8]byte
	if _, err := io.ReadFull(entropy, b[:]); err != nil {
		return nil, err
	}
	l := &Lobby{c: NewLobbyClient(server, binary.LittleEndian.Uint64(b[:])), t: t, stop: make(chan struct{}), wake: make(chan struct{}, 1)}
	l.wg.Add(2)
	go l.receive()
	go l.run()
	return l, nil
}

// Rooms copies the newest room list into dst.
func (l *Lobby) Rooms(dst *RoomList) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.c.Rooms(dst)
}

// Close stops the lobby and closes its transport.
func (l *Lobby) Close() {
	l.once.Do(func() {
		close(l.stop)
		_ = l.t.Close()
		l.wg.Wait()
	})
}

func (l *Lobby) run() {
	defer l.wg.Done()
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-timer.C:
		case <-l.wake:
		}
		l.mu.Lock()
		for _, d := range l.c.Advance(time.Now()) {
			_ = l.t.Send(d.Addr, d.Data)
		}
		next := l.c.Deadline()
		l.mu.Unlock()
		timer.Reset(max(time.Until(next), time.Millisecond))
	}
}

func (l *Lobby) receive() {
	defer l.wg.Done()
	buf := make([]byte, transport.RecvBufSize)
	for {
		n, from, err := l.t.Recv(buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			select {
			case <-l.stop:
				return
			default:
				continue
			}
		}
		l.mu.Lock()
		for _, d := range l.c.Receive(time.Now(), from, buf[:n]) {
			_ = l.t.Send(d.Addr, d.Data)
		}
		l.mu.Unlock()
		select {
		case l.wake <- struct{}{}:
		default:
		}
	}
}
