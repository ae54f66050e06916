package loadtest

import (
	"fmt"
	"math/rand/v2"
	"net/netip"
	"sync/atomic"
	"time"

	"ttytanks/game/bot"
	"ttytanks/netcode/transport"
)

// shard is one event loop of a load test and the clients it owns: of n
// shards, shard i owns clients i, i+n, i+2n… in its slots 0, 1, 2…. One
// goroutine runs it (loop): it waits on all its clients' sockets at once
// until the earliest of their deadlines, hands each datagram that
// arrived to its client, and advances a client only when it is due.
// Only halt and the count of clients playing are for other goroutines.
type shard struct {
	cfg        *Config
	target     netip.AddrPort
	began, end time.Time

	clients []*loadClient // by slot
	sockets socketSet
	timers  timers
	late    lateness // how late the clients' ticks ran

	playing atomic.Int32 // clients playing now, for the progress line
	halted  atomic.Bool
	openErr error // a socket that did not open: the run ends
}

// newShard returns shard i of n for a run that began at began, each of
// its clients due to open its socket when the ramp reaches it.
func newShard(i, n int, target netip.AddrPort, cfg *Config, began time.Time, sockets socketSet) *shard {
	slots := (cfg.Clients - i + n - 1) / n
	s := &shard{cfg: cfg, target: target, began: began, end: began.Add(cfg.Duration), sockets: sockets,
		clients: make([]*loadClient, slots), timers: newTimers(slots)}
	every := time.Duration(float64(time.Second) / cfg.Ramp)
	for slot := range s.clients {
		id := i + slot*n
		seed := cfg.Seed + uint64(id)*0x9e3779b97f4a7c15
		lc := &loadClient{id: id, seed: seed, rng: rand.New(rand.NewPCG(seed, uint64(id))), playingN: &s.playing}
		if cfg.Bot {
			lc.bot = bot.New(seed)
		}
		s.clients[slot] = lc
		s.timers.set(slot, int64(time.Duration(id)*every))
	}
	return s
}

// halt ends the loop soon: it is safe for concurrent use.
func (s *shard) halt() {
	s.halted.Store(true)
	s.sockets.wake()
}

// loop runs the shard's clients until the run's end (or halt, or a
// socket that does not open), then sends each its Leave and closes its
// socket.
func (s *shard) loop() {
	defer s.finish()
	for s.step() {
	}
}

// step is one pass of the loop: it runs the clients due, then waits on
// their sockets until the next is due, handing each datagram that
// arrives to its client. It returns false when the shard is done.
func (s *shard) step() bool {
	if s.halted.Load() {
		return false
	}
	now := time.Now()
	if !now.Before(s.end) {
		return false
	}
	s.fireDue(now)
	if s.openErr != nil {
		return false
	}
	now = time.Now()
	wait := s.end.Sub(now)
	if s.timers.Len() > 0 {
		wait = min(wait, time.Duration(s.timers.peek().at-s.since(now)))
	}
	s.sockets.wait(wait, s)
	return true
}

// since is now in the timers' nanoseconds.
func (s *shard) since(now time.Time) int64 { return int64(now.Sub(s.began)) }

// fireDue runs every client due by now, earliest first.
func (s *shard) fireDue(now time.Time) {
	at := s.since(now)
	for s.timers.Len() > 0 && s.timers.peek().at <= at && s.openErr == nil {
		s.fire(int(s.timers.peek().slot), now)
	}
}

// fire runs the client in slot, due now: the ramp reaches it (its socket
// opens and its first session starts), a retry starts, or its session's
// deadline has come, whose lateness is counted.
func (s *shard) fire(slot int, now time.Time) {
	lc := s.clients[slot]
	switch {
	case !lc.opened:
		if err := s.sockets.open(slot, loadSource(s.target, lc.id, s.cfg.PerAddr), lc.seed); err != nil {
			s.openErr = fmt.Errorf("client %d: %w", lc.id, err)
			return
		}
		lc.opened = true
		lc.start(now, s.target, s.cfg)
	case lc.c == nil:
		lc.retry(now, s.target, s.cfg)
	default:
		due, _ := s.timers.at(slot)
		s.late.record(time.Duration(s.since(now) - due))
	}
	s.send(slot, lc.advance(now))
	s.schedule(slot, now)
}

// received implements socketEvents: the datagram goes to its client.
func (s *shard) received(slot int, now time.Time, from netip.AddrPort, b []byte) {
	lc := s.clients[slot]
	if lc.c == nil {
		return // between sessions, or failed: nobody to hear it
	}
	s.send(slot, lc.receive(now, from, b))
	s.schedule(slot, now)
}

// failed implements socketEvents: the client is over, its error
// reported, its socket closed.
func (s *shard) failed(slot int, err error) {
	s.clients[slot].fail(err)
	s.sockets.close(slot)
	s.timers.remove(slot)
}

// send sends what slot's client sent; a socket that cannot send fails
// the client.
func (s *shard) send(slot int, ds []transport.Datagram) {
	if len(ds) == 0 {
		return
	}
	if err := s.sockets.send(slot, ds); err != nil {
		s.failed(slot, err)
	}
}

// schedule sets when slot's client, just run at now, is next due. A time
// not after now (the zero time: at once) is the next pass of the loop,
// so a pass ends.
func (s *shard) schedule(slot int, now time.Time) {
	due, ok := s.clients[slot].due()
	if !ok {
		s.timers.remove(slot)
		return
	}
	at := s.since(now) + 1
	if !due.IsZero() {
		at = max(at, s.since(due))
	}
	s.timers.set(slot, at)
}

// finish ends the shard's clients: each session's figures are taken, its
// Leave sent once, and every socket closed.
func (s *shard) finish() {
	for slot, lc := range s.clients {
		if ds := lc.end(); len(ds) > 0 {
			_ = s.sockets.send(slot, ds)
		}
	}
	s.sockets.shutdown()
}
