package netcode

import (
	"fmt"
	"net/netip"
	"time"

	"ttytanks/game"
	"ttytanks/netcode/transport"
)

// The walk's events: how each is drawn and applied.

// between draws a duration in [lo, hi] in ms steps.
func (w *walk) between(lo, hi time.Duration) time.Duration {
	span := int((hi - lo) / time.Millisecond)
	if span <= 0 {
		return lo
	}
	if span >= 65536 {
		return lo + time.Duration(w.ch.intn(65536))*(hi-lo)/65536
	}
	return lo + time.Duration(w.ch.intn(span+1))*time.Millisecond
}

// pick returns a random client for which ok holds, or nil.
func (w *walk) pick(ok func(c *walkClient) bool) *walkClient {
	var cand []*walkClient
	for _, c := range w.clients {
		if ok(c) {
			cand = append(cand, c)
		}
	}
	if len(cand) == 0 {
		return nil
	}
	return cand[w.ch.intn(len(cand))]
}

// newAddr returns a fresh address: in the rooms walk, behind household's
// IP.
func (w *walk) newAddr(household int) netip.AddrPort {
	k := w.made // unique within the walk: made only grows
	w.made++
	if w.rc != nil {
		return householdAddr(household, k)
	}
	return netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, byte(k >> 16), byte(k >> 8), byte(k)}), uint16(30000+k%30000))
}

// join starts a client process: a player or a spectator, at a fresh
// address (or at addr when it is valid). In the rooms walk it asks for a
// room (like, when it is a restart, the client it replaces: from, else
// nil) and lives behind one of the households' IPs.
func (w *walk) join(name string, spectate bool, addr netip.AddrPort, from *walkClient) *walkClient {
	id := w.made
	var req RoomRequest
	household, voter := 0, false
	if w.rc != nil {
		if from != nil {
			req, household, voter = from.req, from.household, from.voter
		} else {
			req, household, voter = w.drawRequest(spectate), w.ch.intn(w.rc.cfg.households), !spectate && w.ch.intn(3) != 0
		}
	}
	if !addr.IsValid() {
		addr = w.newAddr(household)
	} else {
		w.made++
	}
	path := transport.Impairment{Latency: time.Duration(5+w.ch.intn(40)) * time.Millisecond}
	if w.cfg.lossy {
		path.Jitter = time.Duration(w.ch.intn(21)) * time.Millisecond
		path.Loss = float64(w.ch.intn(9)) / 100
		path.Dup = float64(w.ch.intn(6)) / 100
		path.Reorder = float64(w.ch.intn(6)) / 100
	}
	c := &walkClient{id: id, name: name, spectate: spectate, path: path, addrs: []netip.AddrPort{addr},
		routedSince: w.now, statusSince: w.now, req: req, household: household, voter: voter}
	cfg := ClientConfig{Server: walkServerAddr, Session: 1000 + uint64(id), Name: name, Spectate: spectate,
		// History: the default rings (68 s of snapshots) cost more to
		// allocate and clear than a whole walk of a client; 10 s is plenty
		// for the leads and State delays of the walk's network.
		History:   600,
		Predictor: walkOracle{w}, LocalInput: func(gw *game.World, slot int) game.Input { return scripted(w.inputSeed, slot, gw.Tick()) }}
	if w.rc != nil {
		cfg.Room = req
		cfg.Predictor = roomOracle{w, c}
		cfg.LocalInput = func(gw *game.World, slot int) game.Input {
			in := scripted(w.inputSeed, slot, gw.Tick())
			if voter {
				in.Buttons |= game.ButtonRematch
			}
			return in
		}
	}
	sc := &simClient{c: NewClient(cfg), addr: addr, up: transport.NewNetsim(path, w.cfg.seed+uint64(id)*2), down: transport.NewNetsim(path, w.cfg.seed+uint64(id)*2+1)}
	c.sc = sc
	w.clients = append(w.clients, c)
	w.n.clients = append(w.n.clients, sc)
	kind := "player"
	if spectate {
		kind = "spectator"
	}
	if w.rc != nil {
		kind += " of " + describeRequest(req)
		if voter {
			kind += ", a voter,"
		}
	}
	w.logf("%v joins as %s %q from %v (path %+v)", c, kind, name, addr, path)
	return c
}

// running counts the client processes still running.
func (w *walk) running() int {
	k := 0
	for _, c := range w.clients {
		if !c.gone {
			k++
		}
	}
	return k
}

// leave ends a client process. With delivered, its Leave (if it sends
// one) reaches the server at once; otherwise it is lost.
func (w *walk) leave(c *walkClient, delivered bool) {
	out := c.sc.c.Close()
	c.gone, c.goneAt = true, w.now
	if c.closedAt.IsZero() {
		c.closedAt = w.now
	}
	switch {
	case len(out) == 0:
		w.logf("%v quits (%v): no Leave to send", c, c.status)
	case !delivered:
		w.logf("%v quits (%v): its Leave is lost", c, c.status)
	default:
		w.logf("%v quits (%v): its Leave reaches the server", c, c.status)
		c.leftFrom = c.sc.addr
		for _, d := range out {
			back := w.n.server.Receive(w.now, c.sc.addr, d.Data)
			if w.rc != nil {
				w.observe()
			}
			w.fromServer(back)
		}
		for _, p := range w.n.server.Stats().Players {
			if !p.Bot && p.Addr == c.sc.addr.String() {
				w.fail(fmt.Sprintf("seat %d is still held by %v after its Leave reached the server", p.Slot, c))
			}
		}
	}
	w.noteStatus(c)
	c.sc.c = nil // its histories are large, and many clients come and go
}

// next draws and applies one event, then lets a little time pass.
func (w *walk) next() {
	weights, most := &walkWeights, w.cfg.players+w.cfg.maxSpec+2
	if w.rc != nil {
		weights, most = &roomWeights, 2*w.cfg.players+w.cfg.maxSpec+2
	}
	total := 0
	for _, wt := range weights {
		total += wt
	}
	r := w.ch.intn(total)
	kind := 0
	for r >= weights[kind] {
		r -= weights[kind]
		kind++
	}
	running := w.running()
	if (kind == evJoin || kind == evSpectate || kind == evRejoin) && running >= most {
		// Keep the population small: a closed client's process ends, or
		// else a running one quits and its Leave is lost.
		if c := w.pick(func(c *walkClient) bool { return !c.gone && c.sc.c.Status() == StatusClosed }); c != nil {
			w.stats.kinds[kind]++
			w.eventAt = append(w.eventAt, len(w.log))
			w.log = append(w.log, fmt.Sprintf("#%d %8.3fs %s (too many clients)", w.event, w.now.Sub(simEpoch).Seconds(), walkKindNames[evLeave]))
			w.leave(c, true)
			w.run(time.Millisecond)
			return
		}
		kind = evLeaveLost
	}
	w.stats.kinds[kind]++
	w.eventAt = append(w.eventAt, len(w.log))
	w.log = append(w.log, fmt.Sprintf("#%d %8.3fs %s", w.event, w.now.Sub(simEpoch).Seconds(), walkKindNames[kind]))
	alive := func(c *walkClient) bool { return !c.gone }
	switch kind {
	case evJoin:
		w.join(fmt.Sprintf("p%d", w.made), false, netip.AddrPort{}, nil)
	case evSpectate:
		w.join(fmt.Sprintf("s%d", w.made), true, netip.AddrPort{}, nil)
	case evLeave, evLeaveLost:
		if c := w.pick(alive); c != nil {
			w.leave(c, kind == evLeave)
		}
	case evSilence:
		if c := w.pick(func(c *walkClient) bool { return c.live(w.now) }); c != nil {
			var d time.Duration
			switch k := w.ch.intn(20); {
			case k < 12:
				d = w.between(100*time.Millisecond, 2500*time.Millisecond)
			case k < 19:
				d = w.between(LostAfter, LostAfter+3*time.Second) // lost, not freed
			default:
				d = w.between(FreeAfter, FreeAfter+3*time.Second) // freed
			}
			c.silentUntil = w.now.Add(d)
			c.longestSilent = max(c.longestSilent, d)
			w.logf("%v goes silent for %v", c, d)
		}
	case evNewAddr:
		if c := w.pick(alive); c != nil {
			old := c.sc.addr
			c.sc.addr = w.newAddr(c.household)
			c.addrs = append(c.addrs, c.sc.addr)
			c.routedSince = w.now
			w.logf("%v moves from %v to %v", c, old, c.sc.addr)
		}
	case evRejoin:
		c := w.pick(func(c *walkClient) bool { return c.gone || c.sc.c.Status() == StatusClosed })
		if c == nil {
			w.logf("no client has ended yet: a new player instead")
			w.join(fmt.Sprintf("p%d", w.made), false, netip.AddrPort{}, nil)
			break
		}
		if !c.gone {
			w.leave(c, true) // a closed client's process ends first
		}
		var addr netip.AddrPort
		if w.ch.intn(4) == 0 && w.clientAt(c.sc.addr) == nil {
			addr = c.sc.addr // a restarted client bound to the same port
		}
		n := w.join(c.name, c.spectate, addr, c)
		w.logf("%v is %v rejoining as a new client", n, c)
	case evRun:
		d := w.between(time.Second, 4*time.Second)
		if w.ch.intn(10) == 0 {
			d = w.between(FreeAfter, FreeAfter+5*time.Second)
		}
		w.logf("time passes: %v", d)
		w.run(d)
	case evRedeliver:
		c := w.pick(func(c *walkClient) bool { return c.live(w.now) && len(c.recent) > 0 })
		if c == nil {
			w.logf("no client has been sent a State yet")
			break
		}
		var cs capturedState
		switch k := w.ch.intn(4); {
		case k == 0: // the newest, again
			cs = c.recent[(c.captured-1)%len(c.recent)]
		case k == 1 && len(c.older) > 0: // an old one, maybe of another match
			cs = c.older[w.ch.intn(len(c.older))]
		default:
			cs = c.recent[w.ch.intn(len(c.recent))]
		}
		w.logf("%v is delivered again a State of tick %d, match %08x, sent %v ago", c, cs.tick, cs.match, w.now.Sub(cs.at))
		// A genuine State the client never opened, however late, is a
		// sign of life from the server (a copy of one it opened is a
		// replay, dropped unopened): the client's silence timers may
		// restart, so the clocks of the checks that wait for it to notice
		// a silence restart too.
		c.routedSince = w.now
		w.fromClient(c, c.sc.c.Receive(w.now, walkServerAddr, cs.data))
		w.noteStatus(c)
	case evQuiet:
		w.quiet()
	case evFault, evKick, evIdle, evChat:
		w.roomEvent(kind)
	}
	if w.failure != "" {
		return
	}
	// A little time passes before the next event.
	var gap time.Duration
	switch k := w.ch.intn(100); {
	case k < 80:
		gap = w.between(time.Millisecond, 20*time.Millisecond)
	case k < 98:
		gap = w.between(20*time.Millisecond, 150*time.Millisecond)
	default:
		gap = w.between(200*time.Millisecond, time.Second)
	}
	w.run(gap)
	if w.failure == "" {
		if v := w.check(); v != "" {
			w.fail(v)
		}
	}
	w.prune()
}

// prune forgets clients that are gone and can no longer hold a place.
func (w *walk) prune() {
	keep := w.clients[:0]
	for _, c := range w.clients {
		if c.gone && w.now.Sub(c.goneAt) > FreeAfter+walkSlack+time.Second {
			continue
		}
		keep = append(keep, c)
	}
	for i := len(keep); i < len(w.clients); i++ {
		w.clients[i] = nil
	}
	w.clients = keep
	scs := w.n.clients[:0]
	for _, c := range w.clients {
		if !c.gone {
			scs = append(scs, c.sc)
		}
	}
	w.n.clients = scs
}
