package cli

import (
	"fmt"
	"os"
	"syscall"
	"time"

	"ttytanks/netcode"
)

// serve's drain: the first SIGTERM (with --drain-timeout > 0) makes the
// server take nobody new and let its running matches end (netcode's
// Server.Drain); /readyz turns 503 at once. The server stops when its
// last match has ended, or at the timeout, when every peer is told. A
// SIGINT, or a second SIGTERM, stops it at once.

// notifySignals returns the channel of serve's SIGINT and SIGTERM.
func notifySignals() chan os.Signal {
	sigs := make(chan os.Signal, 2)
	signalNotify(sigs)
	return sigs
}

// signals takes serve's signals until the server stops: the first
// SIGTERM drains (when serve drains at all), anything else stops.
func (s *serving) signals(sigs <-chan os.Signal) {
	asked := false
	for {
		select {
		case <-s.ctx.Done():
			return
		case sig := <-sigs:
			if sig == syscall.SIGTERM && !asked && s.f.svc.drainTimeout > 0 && !s.f.play {
				asked = true
				if s.admin != nil {
					s.admin.SetDraining() // first: readyz is 503 before anything else happens
				}
				s.drainAsked <- struct{}{}
				continue
			}
			s.stop()
			return
		}
	}
}

// drainClock is a drain under way: when it began and when it gives up.
type drainClock struct {
	began, deadline time.Time
}

// on reports whether the drain has begun.
func (d *drainClock) on() bool { return !d.began.IsZero() }

// beginDrain starts the drain: the server refuses newcomers and sends
// the players of waiting rooms away; systemd and the log are told.
func (s *serving) beginDrain() {
	now := time.Now()
	s.drain = drainClock{began: now, deadline: now.Add(s.f.svc.drainTimeout)}
	s.notify("STOPPING=1\nSTATUS=draining: the running matches end, nobody new")
	s.logger.Info("drain started", "timeout", s.f.svc.drainTimeout)
	s.sd.Drain()
}

// drainDone reports whether the drain is over: every match ended, or the
// timeout passed; it logs which.
func (s *serving) drainDone() bool {
	var drained bool
	var live int
	s.sd.Do(func(srv *netcode.Server) { drained, live = srv.Drained(), liveMatches(srv) })
	switch {
	case drained:
		s.logger.Info("drained", "after", time.Since(s.drain.began).Round(time.Millisecond))
		return true
	case !time.Now().Before(s.drain.deadline):
		s.logger.Warn("drain timed out", "after", s.f.svc.drainTimeout, "matches", live)
		return true
	}
	return false
}

// liveMatches counts the rooms whose match still runs (countdown,
// playing or results).
func liveMatches(srv *netcode.Server) int {
	st := srv.Stats()
	return runningRooms(&st)
}

// runningRooms counts the rooms of st whose match runs.
func runningRooms(st *netcode.ServerStats) int {
	n := 0
	for i := range st.Rooms {
		if st.Rooms[i].State != netcode.RoomWaiting {
			n++
		}
	}
	return n
}

// drainNote is the dashboard's and the status line's word on the drain.
func (s *serving) drainNote(st *netcode.ServerStats) string {
	if !s.drain.on() {
		return ""
	}
	left := max(time.Until(s.drain.deadline), 0).Round(time.Second)
	return fmt.Sprintf("draining: %d matches to end · exits in %v at the latest", runningRooms(st), left)
}

// notify tells systemd state (sdNotify); a failure is logged.
func (s *serving) notify(state string) {
	if err := sdNotify(state); err != nil {
		s.logger.Warn("sd_notify", "err", err)
	}
}
