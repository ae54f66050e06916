package cli

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"golang.org/x/term"

	"ttytanks/tui"
)

// serveLog returns serve's logger, in format (text or json): onto
// stderr, or with ring (the dashboard's) into a log pane, whose last
// lines flush writes to stderr at exit.
func serveLog(ring bool, stderr io.Writer, format string) (logger *slog.Logger, logRing *tui.LogRing, flush func()) {
	var logOut io.Writer = stderr
	flush = func() {}
	if ring {
		logRing = tui.NewLogRing(256)
		logOut = logRing
		flush = func() {
			for _, l := range logRing.Lines(20) {
				fmt.Fprintln(stderr, l)
			}
		}
	}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(logOut, nil)), logRing, flush
	}
	return slog.New(slog.NewTextHandler(logOut, nil)), logRing, flush
}

// watch is serve's loop without --play: until the server stops or is
// told to, it shows the operator how it goes (the dashboard on a
// terminal, else a status line every 5 s), takes the operator's keys on
// the dashboard, samples the load every second and rewrites the stats
// file every --stats-every; on SIGTERM it drains (serve_drain.go) and
// stops when the drain is done. It returns the exit code.
func (s *serving) watch(stdout io.Writer) int {
	every := 5 * time.Second
	if s.tty {
		every = 500 * time.Millisecond
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	// The load meter samples once a second; --stats-every rewrites the
	// file on its own beat.
	meterTick := time.NewTicker(time.Second)
	defer meterTick.Stop()
	var statsTick <-chan time.Time
	if s.f.statsEvery > 0 {
		t := time.NewTicker(s.f.statsEvery)
		defer t.Stop()
		statsTick = t.C
	}
	// On a terminal the operator can kick and ban from the dashboard.
	var keys <-chan byte
	restore := func() {}
	if s.tty {
		keys, restore = rawKeys(os.Stdin)
	}
	defer restore()
	var ops operatorKeys
	var note string
	var drainTick <-chan time.Time
	for {
		select {
		case <-s.drainAsked:
			s.beginDrain()
			t := time.NewTicker(250 * time.Millisecond)
			defer t.Stop()
			drainTick = t.C
		case <-drainTick:
			if s.drainDone() {
				drainTick = nil
				s.fleet.close() // out of the fleet's lobby now, not when its lease runs out
				s.stop()
			}
		case b, ok := <-keys:
			if !ok {
				keys = nil
				continue
			}
			switch a, num := ops.key(b); a {
			case opStop:
				s.stop()
			case opKick, opBan, opMute, opUnmute:
				note = operate(s.sd, s.ssh, a, num, s.shown, s.f.server.kickHold)
				s.logger.Info("operator", "action", note)
			}
			if p := ops.prompt(); p != "" {
				s.showNote(p, stdout)
			} else {
				s.showNote(note, stdout)
			}
		case err := <-s.served:
			if err != nil {
				s.logger.Error("server stopped", "err", err)
				return 1
			}
			if s.ctx.Err() != nil {
				// Told to stop, the driver finished first: the rest of
				// the shutdown is still to do.
				s.shutdown(restore, stdout, true)
			}
			return 0
		case <-s.ctx.Done():
			s.shutdown(restore, stdout, false)
			return 0
		case <-meterTick.C:
			s.stats.sample()
		case <-statsTick:
			if err := s.stats.write(s.f.statsFile); err != nil {
				s.logger.Error("--stats-json", "err", err)
			}
		case <-tick.C:
			if p := ops.prompt(); p != "" {
				s.showNote(p, stdout) // the list under a prompt stays the one the operator reads
			} else {
				s.show(note, stdout)
			}
		}
	}
}

// show draws the dashboard on a terminal, with the operator's last note,
// or logs a status line.
func (s *serving) show(note string, stdout io.Writer) {
	st := s.stats.sample()
	if !s.tty {
		logStatus(s.logger, &st, s.stats.load(&st), s.drainNote(&st), s.fleetNote(&st))
		return
	}
	s.shown = st.Players
	s.last = st
	s.draw(note, stdout)
}

// showNote redraws the dashboard's last sample with a new note (an
// operator's prompt or outcome), so the numbers the operator reads do
// not move under the prompt.
func (s *serving) showNote(note string, stdout io.Writer) {
	if !s.tty {
		return
	}
	s.draw(note, stdout)
}

// draw draws the dashboard of the last sample with note.
func (s *serving) draw(note string, stdout io.Writer) {
	st := &s.last
	w, h, _ := term.GetSize(int(os.Stdout.Fd()))
	s.dash.Note = note
	s.dash.Drain = s.drainNote(st)
	if n := s.fleetNote(st); n != "" {
		if s.dash.Drain != "" {
			s.dash.Drain += " · "
		}
		s.dash.Drain += "fleet: " + n
	}
	s.dash.Load = s.stats.load(st).String()
	out := tui.RenderDashboard(st, s.dash, s.logRing.Lines(h), w, h, os.Getenv("NO_COLOR") != "")
	// Redraw in place (no clear: no flicker), erasing each line's
	// rest; no newline after the last line, so nothing scrolls.
	fmt.Fprint(stdout, "\x1b[H"+strings.ReplaceAll(out, "\r\n", "\x1b[K\r\n")+"\x1b[K\x1b[J")
}

// shutdown waits (a second at most, in all) for the server to stop once
// told to (unless stopped says it has), and for the SSH server to end its
// sessions meanwhile; then it gives the terminal back (restore) and says
// so.
func (s *serving) shutdown(restore func(), stdout io.Writer, stopped bool) {
	if s.admin != nil {
		s.admin.SetDraining() // stopping: no load balancer sends anyone more
	}
	s.notify("STOPPING=1")
	// The driver sends every client a Leave and returns; the SSH
	// server ends its sessions and connections meanwhile.
	sshClosed := make(chan struct{})
	go func() {
		if s.ssh != nil {
			s.ssh.Close()
		}
		close(sshClosed)
	}()
	deadline := time.NewTimer(time.Second) // one bound for both waits
	defer deadline.Stop()
	expired := false
	if !stopped {
		select {
		case <-s.served:
		case <-deadline.C:
			expired = true
		}
	}
	if !expired {
		select {
		case <-sshClosed:
		case <-deadline.C:
		}
	}
	restore() // the terminal is ours again before the last words
	if !s.tty {
		s.logger.Info("shut down")
	} else {
		fmt.Fprint(stdout, "\x1b[H\x1b[2J")
		fmt.Fprintln(stdout, "ttytanks server shut down")
	}
}
