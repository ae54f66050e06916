package netcode

import (
	"sync"
	"time"

	"ttytanks/game"
	"ttytanks/netcode/transport"
)

// ClientDriver binds a Client to a transport and the wall clock, and is
// safe for concurrent use: a renderer reads View and sets the held input
// while the driver's goroutines tick and receive. It implements the
// tui.Session interface.
type ClientDriver struct {
	mu        sync.Mutex
	c         *Client
	t         transport.Transport
	clk       Clock
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

// StartClient starts driving c on t by the wall clock. Stop it with
// Close.
func StartClient(c *Client, t transport.Transport) *ClientDriver {
	return StartClientClock(c, t, wallClock{})
}

// StartClientClock is StartClient by clk: a PauseClock the client shares
// with its embedded server pauses both.
func StartClientClock(c *Client, t transport.Transport, clk Clock) *ClientDriver {
	d := &ClientDriver{c: c, t: t, clk: clk, wake: make(chan struct{}, 1), left: make(chan struct{}), done: make(chan struct{}),
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
		now := d.clk.Now()
		d.mu.Lock()
		d.sendAll(d.c.Advance(now, d.in))
		next := d.c.Deadline()
		d.checkDone()
		d.mu.Unlock()
		timer.Reset(waitFor(d.clk, next, 200*time.Microsecond))
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
		d.sendAll(d.c.Receive(d.clk.Now(), from, buf[:n]))
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

// Say sends text to the room as a chat line (see Client.Say).
func (d *ClientDriver) Say(text string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	out, err := d.c.Say(d.clk.Now(), text)
	d.sendAll(out)
	return err
}

// AskLadder asks the server for a page of its leaderboard and our card
// (see Client.AskLadder); the answer shows in View.Ladder.
func (d *ClientDriver) AskLadder(offset, count int, forget bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.c.AskLadder(offset, count, forget)
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
