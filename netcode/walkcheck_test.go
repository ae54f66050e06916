package netcode

import (
	"fmt"
	"time"

	"ttytanks/game"
	"ttytanks/netcode/transport"
)

// The walk's invariants: checked after every event and every 250 ms of
// virtual time, and at quiet points.

// owners returns the clients that have used addr: one, unless a client
// was restarted at the address of one that had ended.
func (w *walk) owners(addr string) []*walkClient {
	var found []*walkClient
	for _, c := range w.clients {
		for _, a := range c.addrs {
			if a.String() == addr {
				found = append(found, c)
				break
			}
		}
	}
	return found
}

// mayHold reports whether c may still hold a place on the server: it runs
// and has not ended, or it ended less than FreeAfter (and some slack) ago.
func (w *walk) mayHold(c *walkClient) bool {
	if !c.gone && c.sc.c.Status() != StatusClosed {
		return true
	}
	return w.now.Sub(w.endOf(c)) <= FreeAfter+walkSlack
}

// endOf returns when an ended client stopped talking: when it closed, or
// when its process ended.
func (w *walk) endOf(c *walkClient) time.Time {
	end := c.closedAt
	if end.IsZero() || (c.gone && c.goneAt.Before(end)) {
		end = c.goneAt
	}
	return end
}

// stable reports whether c has run, routed normally, in its present status
// for at least d (and, in the rooms walk, since the server last sent it a
// Leave).
func (w *walk) stable(c *walkClient, d time.Duration) bool {
	return c.live(w.now) && w.now.Sub(c.routedSince) >= d && w.now.Sub(c.statusSince) >= d && w.now.Sub(c.toldAt) >= d
}

// check returns a description of the first violated invariant, or "".
func (w *walk) check() string {
	if w.rc != nil {
		return w.checkRooms()
	}
	s := w.n.server
	st := s.Stats()
	// Seats: within the limit, one owner each; bots where they belong.
	if len(st.Players) > w.cfg.players {
		return fmt.Sprintf("%d seats taken, the limit is %d", len(st.Players), w.cfg.players)
	}
	if st.Need != w.cfg.players-len(st.Players) {
		return fmt.Sprintf("Stats().Need %d with %d of %d seats taken", st.Need, len(st.Players), w.cfg.players)
	}
	if !s.Running() && st.Need == 0 {
		return "every seat is taken and the match does not run"
	}
	if st.Spectators > w.cfg.maxSpec {
		return fmt.Sprintf("%d spectators, the limit is %d", st.Spectators, w.cfg.maxSpec)
	}
	bots := 0
	seen := map[int]bool{}
	addrs := map[string]int{}
	for _, p := range st.Players {
		if p.Slot < 0 || p.Slot >= w.cfg.players || seen[p.Slot] {
			return fmt.Sprintf("seat %d is out of range or listed twice", p.Slot)
		}
		seen[p.Slot] = true
		if p.Bot {
			bots++
			if p.Slot < w.cfg.players-w.cfg.bots {
				return fmt.Sprintf("a bot in seat %d, bots sit in the last %d", p.Slot, w.cfg.bots)
			}
			continue
		}
		if q, dup := addrs[p.Addr]; dup {
			return fmt.Sprintf("seats %d and %d are both held from %s", q, p.Slot, p.Addr)
		}
		addrs[p.Addr] = p.Slot
		cs := w.owners(p.Addr)
		if len(cs) == 0 {
			return fmt.Sprintf("seat %d is held from %s, an address no client used", p.Slot, p.Addr)
		}
		var c *walkClient
		for _, o := range cs {
			if o.spectate {
				return fmt.Sprintf("seat %d is held by spectator %v", p.Slot, o.describe())
			}
			if w.mayHold(o) {
				c = o
			}
		}
		if c == nil {
			o := cs[len(cs)-1]
			return fmt.Sprintf("seat %d is still held by %v, which ended %v ago (FreeAfter is %v)", p.Slot, o.describe(),
				w.now.Sub(w.endOf(o)), FreeAfter)
		}
	}
	if bots != w.cfg.bots {
		return fmt.Sprintf("%d bots seated, want %d", bots, w.cfg.bots)
	}
	// Spectators: never seated; counted within the places spectator
	// clients may hold. (A client that moves before its Start arrives may
	// hold a place at each address: the server cannot tell that the Join
	// from the new address is the same client; the old place lingers until
	// FreeAfter. The same holds for seats.)
	if msg := w.checkSpectators(st.Spectators); msg != "" {
		return msg
	}
	// Every client: a known status, a message when closed, never stuck.
	for _, c := range w.clients {
		cs, msg, open := w.checkClient(c)
		if msg != "" {
			return msg
		}
		if !open {
			continue
		}
		// A seated client that has been routed normally for long enough to
		// notice a silence and reconnect holds the seat it believes it
		// holds, at its address.
		if sl := c.sc.c.Slot(); sl >= 0 && (cs == StatusWaiting || cs == StatusPlaying) && w.stable(c, SilenceReconnecting+2*time.Second) {
			held := false
			for _, p := range st.Players {
				if p.Slot == sl && !p.Bot && p.Addr == c.sc.addr.String() {
					held = true
				}
			}
			if !held {
				return fmt.Sprintf("%v believes it holds seat %d, the server disagrees: %+v", c.describe(), sl, st.Players)
			}
		}
	}
	return ""
}

// checkSpectators checks the n spectator places the server counts:
// never seated, within the places spectator clients may hold, and at
// least those that have been watching undisturbed.
func (w *walk) checkSpectators(n int) string {
	specMay, specMust := 0, 0
	for _, c := range w.clients {
		if !c.spectate {
			continue
		}
		if c.gone {
			if w.mayHold(c) {
				specMay += len(c.addrs)
			}
			continue
		}
		if c.sc.c.Slot() >= 0 {
			return fmt.Sprintf("spectator %v has seat %d", c, c.sc.c.Slot())
		}
		if w.mayHold(c) {
			specMay += len(c.addrs) // a place may linger at each address it used
		}
		if w.stable(c, SilenceReconnecting+2*time.Second) && (c.status == StatusWaiting || c.status == StatusPlaying) {
			specMust++
		}
	}
	if n > specMay {
		return fmt.Sprintf("the server counts %d spectators, spectator clients may hold only %d places", n, specMay)
	}
	if n < specMust {
		return fmt.Sprintf("the server counts %d spectators, %d spectator clients are watching", n, specMust)
	}
	return ""
}

// checkClient checks one client: a known status, a message when closed,
// never stuck connecting, never playing without a world. open reports
// whether the client is in a session to check further (not gone, not
// closed), with its status cs.
func (w *walk) checkClient(c *walkClient) (cs Status, msg string, open bool) {
	if c.gone {
		return 0, "", false
	}
	cs = c.sc.c.Status()
	if cs > StatusClosed {
		return cs, fmt.Sprintf("%v has an unknown status %d", c, cs), false
	}
	if cs == StatusClosed {
		var v View
		c.sc.c.View(&v)
		if v.Message == "" {
			return cs, fmt.Sprintf("%v is closed without a message", c), false
		}
		return cs, "", false
	}
	if (cs == StatusConnecting || cs == StatusReconnecting) && w.stable(c, 3*time.Second) {
		return cs, fmt.Sprintf("%v is stuck %v: routed normally for %v", c.describe(), cs, w.now.Sub(maxTime(c.routedSince, c.statusSince))), false
	}
	if cs == StatusPlaying && w.stable(c, 3*time.Second) && c.sc.c.World() == nil {
		return cs, fmt.Sprintf("%v plays without a world for %v", c.describe(), w.now.Sub(c.statusSince)), false
	}
	return cs, "", true
}

// maxTime returns the later of two times.
func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// quiet heals every running client's path and holds silences, runs 1 s,
// then checks that within 3 s every client that has been playing for 1 s
// agrees with the server: a seated client's snapshot at the server's tick
// hashes equal to the server's (replay with the exact inputs), a
// spectator's world is the server's state at its tick.
func (w *walk) quiet() {
	w.stats.quietChecks++
	w.holdResumes = true
	for _, c := range w.clients {
		c.sc.up.Impairment, c.sc.down.Impairment = transport.Impairment{Latency: 20 * time.Millisecond}, transport.Impairment{Latency: 20 * time.Millisecond}
	}
	defer func() {
		w.holdResumes = false
		for _, c := range w.clients {
			c.sc.up.Impairment, c.sc.down.Impairment = c.path, c.path
		}
	}()
	w.run(time.Second)
	if w.runUntil(3*time.Second, func() bool { return w.converged() == "" }) || w.failure != "" {
		return
	}
	w.fail("no convergence within 4 s of the network healing: " + w.converged())
}

// converged returns "" when every eligible client agrees with the server,
// else why not.
func (w *walk) converged() string {
	if w.rc != nil {
		return w.convergedRooms()
	}
	s := w.n.server
	for _, c := range w.clients {
		if !w.stable(c, time.Second) || c.sc.c.Status() != StatusPlaying {
			continue
		}
		if !s.Running() {
			return fmt.Sprintf("%v plays, the server is in a lobby", c.describe())
		}
		cw := c.sc.c.World()
		if cw == nil {
			return fmt.Sprintf("%v plays without a world", c.describe())
		}
		if c.sc.c.Slot() < 0 {
			if h, ok := w.n.serverHash[cw.Tick()]; !ok || h != cw.Hash() {
				return fmt.Sprintf("spectator %v: its world at tick %d differs from the server's (server at %d)", c, cw.Tick(), s.World().Tick())
			}
			continue
		}
		t := s.World().Tick()
		if snap, ok := c.sc.c.SnapshotAt(t); ok {
			if game.Hash(&snap) != s.World().Hash() {
				return fmt.Sprintf("%v: its snapshot at tick %d differs from the server's", c.describe(), t)
			}
			continue
		}
		if h, ok := w.n.serverHash[cw.Tick()]; !ok || h != cw.Hash() {
			return fmt.Sprintf("%v: no snapshot at the server's tick %d, world at %d", c.describe(), t, cw.Tick())
		}
	}
	return ""
}
