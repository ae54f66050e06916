package netcode

import (
	"container/heap"
	"fmt"
	"net/netip"
	"strings"
	"time"

	"ttytanks/game"
	"ttytanks/netcode/transport"
	"ttytanks/proto"
)

// The walk's network: its own event loop over the simnet's server and
// clients, so it can see (and re-deliver) what the server sends, and cut,
// move and drop clients between events.

func (w *walk) clientAt(addr netip.AddrPort) *walkClient {
	for _, c := range w.clients {
		if c.sc.addr == addr && !c.gone {
			return c
		}
	}
	return nil
}

func (w *walk) send(from, to netip.AddrPort, sim *transport.Netsim, d []byte) {
	w.plan = sim.Plan(w.now, w.plan[:0])
	for _, at := range w.plan {
		w.seq++
		heap.Push(&w.q, walkPacket{at: at, seq: w.seq, from: from, to: to, data: append([]byte(nil), d...)})
	}
}

// fromServer routes the server's datagrams to live clients, keeping a copy
// of each State.
func (w *walk) fromServer(out []transport.Datagram) {
	for _, d := range out {
		c := w.clientAt(d.Addr)
		if c == nil {
			continue
		}
		t := typeOf(d.Data) // readable in a sealed header
		if w.rc != nil && t == proto.TypeLeave {
			c.toldAt = w.now // the server ends its place: until the client hears it, or notices, it believes otherwise
		}
		if c.silent(w.now) {
			continue
		}
		if t == proto.TypeState {
			h, _, _ := w.tap.of(d.Data)
			w.capture(c, h.Match, d.Data)
		}
		w.send(walkServerAddr, d.Addr, c.sc.down, d.Data)
	}
}

func (w *walk) capture(c *walkClient, match uint32, data []byte) {
	var tick game.Tick
	if sw := w.n.server.World(); sw != nil {
		tick = sw.Tick()
	}
	cs := capturedState{at: w.now, tick: tick, match: match, data: append([]byte(nil), data...)}
	if len(c.recent) < 32 {
		c.recent = append(c.recent, cs)
	} else {
		c.recent[c.captured%32] = cs
	}
	if c.captured%64 == 0 {
		if len(c.older) == 8 {
			copy(c.older, c.older[1:])
			c.older = c.older[:7]
		}
		c.older = append(c.older, cs)
	}
	c.captured++
}

// fromClient routes a client's datagrams to the server, unless it is cut.
func (w *walk) fromClient(c *walkClient, out []transport.Datagram) {
	if c.silent(w.now) {
		return
	}
	for _, d := range out {
		w.send(c.sc.addr, d.Addr, c.sc.up, d.Data)
	}
}

// step advances virtual time by 1 ms: deliveries, the server's tick when
// due, every running client's Advance, the silences that end, and the
// periodic invariant check.
func (w *walk) step() {
	for w.q.Len() > 0 && !w.q[0].at.After(w.now) {
		p := heap.Pop(&w.q).(walkPacket)
		if p.to == walkServerAddr {
			limited := w.n.server.drops[DropRateLimited]
			out := w.n.server.Receive(w.now, p.from, p.data)
			if w.n.server.drops[DropRateLimited] != limited {
				// The server shed this request under its per-address
				// limits (a burst of rejoins from one address): the
				// client is not routed normally while that lasts.
				if c := w.clientAt(p.from); c != nil && !c.gone {
					if w.now.Sub(c.routedSince) > time.Second {
						w.logf("%v: a request of its is shed by the rate limit", c)
					}
					c.routedSince = w.now
				}
			}
			if w.rc != nil {
				w.observe()
			}
			w.fromServer(out)
		} else if c := w.clientAt(p.to); c != nil && !c.silent(w.now) {
			w.fromClient(c, c.sc.c.Receive(w.now, p.from, p.data))
		}
	}
	if !w.now.Before(w.nextSrv) {
		w.nextSrv = w.nextSrv.Add(TickDuration)
		if w.rc != nil {
			w.roomTick()
		} else {
			w.fromServer(w.n.server.Tick(w.now))
		}
		if sw := w.n.server.World(); w.rc == nil && sw != nil {
			w.n.serverHash[sw.Tick()] = sw.Hash()
			if len(w.n.serverHash) > 8192 {
				for t := range w.n.serverHash {
					if sw.Tick().Diff(t) > 2048 {
						delete(w.n.serverHash, t)
					}
				}
			}
			if r := sw.State().Round.Number; r != w.lastRound {
				w.lastRound = r
				w.stats.rounds++
			}
		}
		if w.rc != nil {
			w.updateRoomOracle()
		} else {
			w.updateOracle()
		}
	}
	for _, c := range w.clients {
		if c.gone {
			continue
		}
		if !c.silentUntil.IsZero() && !w.now.Before(c.silentUntil) && !w.holdResumes {
			c.silentUntil = time.Time{}
			c.routedSince = w.now
			w.logf("%v is heard again", c)
		}
		if (w.ms+c.id)%2 == 0 { // a driver loop of 2 ms, staggered
			w.fromClient(c, c.sc.c.Advance(w.now, game.Input{}))
		}
		w.noteStatus(c)
	}
	w.now = w.now.Add(time.Millisecond)
	w.ms++
	w.stats.virtual += time.Millisecond
	if !w.now.Before(w.nextCheck) && w.failure == "" {
		w.nextCheck = w.now.Add(250 * time.Millisecond)
		if v := w.check(); v != "" {
			w.fail(v)
		}
	}
}

// roomTick is the server's tick in the rooms walk, checked before and
// after.
func (w *walk) roomTick() {
	m := &w.rc.memo
	w.beforeTick(m)
	out := w.n.server.Tick(w.now)
	for _, d := range out {
		w.checkSent(m, d)
	}
	w.afterTick(m)
	w.observe()
	w.fromServer(out)
}

// noteStatus logs a client's status transitions.
func (w *walk) noteStatus(c *walkClient) {
	st := c.sc.c.Status()
	if w.rc != nil && st != StatusClosed {
		// In the rooms walk a match follows a match (a rematch) with no
		// lobby between: a new match is a new status, whose world the
		// client builds from its Start or its first State.
		if id := c.sc.c.sess.matchID(); id != c.match {
			c.match, c.statusSince = id, w.now
		}
	}
	if st == c.status {
		return
	}
	line := fmt.Sprintf("%v %v → %v", c, c.status, st)
	switch {
	case st == StatusClosed:
		var v View
		c.sc.c.View(&v)
		line += fmt.Sprintf(": %q", v.Message)
		c.closedAt = w.now
		if w.rc != nil && w.failure == "" {
			defer func() {
				if v := w.checkEnd(c); v != "" {
					w.fail(v)
				}
			}()
		}
	case c.sc.c.Slot() >= 0:
		line += fmt.Sprintf(", slot %d", c.sc.c.Slot())
	}
	if st == StatusWaiting || st == StatusPlaying {
		if name, _, _ := c.sc.c.Room(); w.rc != nil {
			line += " in room " + name
			if !c.placed && c.req.Kind == RoomCode {
				w.rc.stats.codeJoins++
			}
			if !c.placed {
				c.placedAt = w.now
			}
			c.placed = true
		}
		if c.spectate {
			w.stats.spectated++
		} else {
			w.stats.seated++
		}
	}
	w.logf("%s", line)
	c.status, c.statusSince = st, w.now
}

// updateOracle recomputes which seats play scripted inputs: bots, and
// seats whose owner is a live, playing client in that seat.
func (w *walk) updateOracle() {
	w.liveSlot = [game.MaxPlayers]bool{}
	for _, p := range w.n.server.Stats().Players {
		if p.Bot {
			w.liveSlot[p.Slot] = true
			continue
		}
		for _, c := range w.clients {
			if c.live(w.now) && c.sc.addr.String() == p.Addr && c.sc.c.Status() == StatusPlaying && c.sc.c.Slot() == p.Slot {
				w.liveSlot[p.Slot] = true
			}
		}
	}
}

// run advances virtual time by d, stopping at a failure.
func (w *walk) run(d time.Duration) {
	end := w.now.Add(d)
	for w.now.Before(end) && w.failure == "" {
		w.step()
	}
}

// runUntil advances until cond holds or d passes.
func (w *walk) runUntil(d time.Duration, cond func() bool) bool {
	end := w.now.Add(d)
	for w.now.Before(end) && w.failure == "" {
		if cond() {
			return true
		}
		w.step()
	}
	return cond()
}

func (w *walk) fail(msg string) {
	if w.failure == "" {
		w.failure = msg
		w.logf("FAILED: %s", strings.SplitN(msg, "\n", 2)[0])
	}
}
