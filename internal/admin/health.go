package admin

import (
	"fmt"
	"net/http"

	"ttytanks/netcode"
)

// SetDraining marks the server draining: /readyz answers 503 from now on.
func (s *Server) SetDraining() { s.draining.Store(true) }

// live reports whether the game loop ticks: the newest sample is recent
// (a stuck loop holds the sampler up in the driver's Do) and its ticks
// grew since the one before. It says why not.
func (s *Server) live() (bool, string) {
	p := s.last.Load()
	switch {
	case p == nil:
		return false, "starting: no sample yet"
	case s.cfg.Now().Sub(p.at) > s.cfg.LiveWithin:
		return false, fmt.Sprintf("the loop has not answered for %v", s.cfg.Now().Sub(p.at).Round(1e6))
	case !p.advanced:
		return false, "the loop does not tick"
	}
	return true, "ticking"
}

// ready reports whether the server takes new players: it is live, does
// not drain, and its ticks keep up (tick p99 within a tick's budget). It
// says why not.
func (s *Server) ready() (bool, string) {
	if s.draining.Load() {
		return false, "draining"
	}
	if ok, why := s.live(); !ok {
		return false, why
	}
	st := &s.last.Load().figs.Server
	switch {
	case st.Draining:
		return false, "draining"
	case st.TickP99 > netcode.TickDuration:
		return false, fmt.Sprintf("falling behind: tick p99 %v over the budget of %v", st.TickP99, netcode.TickDuration)
	}
	return true, "ready"
}

// livez is /livez: 200 while the loop ticks, else 503.
func (s *Server) livez(w http.ResponseWriter, _ *http.Request) { answer(w, s.live) }

// readyz is /readyz: 200 while the server takes new players, else 503.
func (s *Server) readyz(w http.ResponseWriter, _ *http.Request) { answer(w, s.ready) }

// answer writes a health check's status and its reason.
func answer(w http.ResponseWriter, check func() (bool, string)) {
	ok, why := check()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if !ok {
		w.WriteHeader(http.StatusServiceUnavailable)
	}
	fmt.Fprintln(w, why)
}
