package netcode

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"sync"
	"time"
	"ttytanks/internal/ladder"

	"ttytanks/netcode/transport"
)

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
	clk  Clock
	in   chan *inbound
	free chan *inbound
	do   chan func(*Server)
	stop chan struct{}       // closed when Run is about to return
	q    transport.SendQueue // the answers to one batch
	// mu guards running; while the loop does not run, Do runs its
	// function under mu instead.
	mu      sync.Mutex
	running bool
	// board is the ladder's store (SetLadder; nil: none), ljobs the
	// jobs of one hand-over.
	board ladder.Board
	ljobs []LadderJob
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
	d := &ServerDriver{s: s, t: t, clk: wallClock{}, in: make(chan *inbound, inboundBatches), free: make(chan *inbound, inboundBatches),
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

// SetClock makes the driver read clk instead of the wall clock (a
// PauseClock shared with the client of ttytanks play pauses both). Call it
// before Run.
func (d *ServerDriver) SetClock(clk Clock) { d.clk = clk }

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
	ljobs, lres := make(chan LadderJob, maxLadderJobs), make(chan LadderResult)
	if d.board != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d.runLadder(ljobs, lres, d.stop)
		}()
	}
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
			d.handLadder(ljobs)
			continue
		case res := <-lres:
			d.sendAll(d.s.LadderDone(d.clk.Now(), res))
			d.handLadder(ljobs)
			continue
		case b := <-d.in:
			for i := range b.ms[:b.n] {
				m := &b.ms[i]
				d.q.Add(d.s.Receive(b.at, m.Addr, m.Buf[:m.N]))
			}
			d.q.Flush(d.t)
			d.free <- b
			d.handLadder(ljobs)
			continue
		case <-timer.C:
		}
		began := time.Now()
		d.sendAll(d.s.Advance(d.clk.Now()))
		d.s.ObserveTickDuration(time.Since(began))
		d.handLadder(ljobs)
		timer.Reset(waitFor(d.clk, d.s.Deadline(), 0))
	}
}

// Kick kicks the player in slot of the named room (see Server.Kick).
func (d *ServerDriver) Kick(room string, slot int) {
	d.Do(func(s *Server) { d.sendAll(s.Kick(d.clk.Now(), room, slot)) })
}

// Mute mutes or unmutes the player in slot of the named room (see
// Server.Mute).
func (d *ServerDriver) Mute(room string, slot int, on bool) (ok bool) {
	d.Do(func(s *Server) { ok = s.Mute(room, slot, on) })
	return ok
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
		b.n, b.at = n, d.clk.Now()
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

// Drain starts the server's drain (see Server.Drain) and sends what it
// says.
func (d *ServerDriver) Drain() {
	d.Do(func(s *Server) { d.sendAll(s.Drain(d.clk.Now())) })
}
