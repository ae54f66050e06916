package netcode

import (
	"container/heap"
	"net/netip"
	"testing"
	"time"
	"ttytanks/internal/ladder"

	"ttytanks/game"
	"ttytanks/netcode/transport"
)

// simnet is a deterministic in-process network for netcode tests: a server
// core and client cores exchanging datagrams through seeded Netsims, on a
// virtual clock stepped in milliseconds. Nothing sleeps and nothing depends
// on the real time, so a run with the same seed is the same run.
type simnet struct {
	t       testing.TB
	now     time.Time
	server  *Server
	saddr   netip.AddrPort
	clients []*simClient
	events  eventQueue
	seq     uint64
	nextSrv time.Time
	// serverHash[tick] is the server world's hash at that tick.
	serverHash   map[game.Tick]uint64
	onServerTick func()
	plan         []time.Time
	added        int // clients ever added: each gets its own address and session

	// onServerSend, if set, sees every datagram the server sends, as it
	// leaves the server (before the network impairs it).
	onServerSend func(d transport.Datagram)
	// onDeliver, if set, sees every datagram delivered to a client, at
	// its delivery on the virtual clock.
	onDeliver func(c *simClient, data []byte)
	// lobbies are the LobbyClients attached with addLobby.
	lobbies []*simLobby
	// board, if set, is the ladder the server's jobs run against, at
	// once, after each server tick.
	board ladder.Board
}

type simClient struct {
	c    *Client
	addr netip.AddrPort
	up   *transport.Netsim // client → server
	down *transport.Netsim // server → client
	in   game.Input
	// frozenUntil: the client's process is stopped (SIGSTOP) until then:
	// it is not advanced, and what reaches it waits in its socket (held)
	// until it wakes.
	frozenUntil time.Time
	held        []event
}

// freeze stops c's process for d from now, as SIGSTOP then SIGCONT do.
func (n *simnet) freeze(c *simClient, d time.Duration) { c.frozenUntil = n.now.Add(d) }

// frozen reports whether c is stopped at now.
func (c *simClient) frozen(now time.Time) bool { return now.Before(c.frozenUntil) }

type event struct {
	at   time.Time
	seq  uint64
	to   netip.AddrPort
	from netip.AddrPort
	data []byte
}

type eventQueue []event

func (q eventQueue) Len() int { return len(q) }
func (q eventQueue) Less(i, j int) bool {
	if !q[i].at.Equal(q[j].at) {
		return q[i].at.Before(q[j].at)
	}
	return q[i].seq < q[j].seq
}
func (q eventQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *eventQueue) Push(x any)   { *q = append(*q, x.(event)) }
func (q *eventQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

var simEpoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func newSimnet(t testing.TB, cfg ServerConfig) *simnet {
	t.Helper()
	if cfg.Seed == 0 {
		cfg.Seed = 1
	}
	if cfg.Secret == nil {
		cfg.Secret = []byte("0123456789abcdef0123456789abcdef")
	}
	if cfg.MaxRooms == 0 {
		cfg.MaxRooms = 1 // one match, as these tests study: a full room refuses, it does not open another
	}
	s, err := NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &simnet{t: t, now: simEpoch, server: s, saddr: netip.MustParseAddrPort("127.0.0.1:7777"),
		nextSrv: simEpoch, serverHash: map[game.Tick]uint64{}}
}

// addClient attaches a client with impairments on its two paths.
func (n *simnet) addClient(cfg ClientConfig, up, down transport.Impairment, seed uint64) *simClient {
	cfg.Server = n.saddr
	if cfg.Session == 0 {
		cfg.Session = 1000 + uint64(n.added)
	}
	sc := &simClient{c: NewClient(cfg), addr: netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), uint16(20000+n.added)),
		up: transport.NewNetsim(up, seed), down: transport.NewNetsim(down, seed^0xabcdef)}
	n.clients = append(n.clients, sc)
	n.added++
	return sc
}

func (n *simnet) route(from netip.AddrPort, sim *transport.Netsim, out []transport.Datagram) {
	for _, d := range out {
		n.plan = sim.Plan(n.now, n.plan[:0])
		for _, at := range n.plan {
			n.seq++
			heap.Push(&n.events, event{at: at, seq: n.seq, to: d.Addr, from: from, data: append([]byte(nil), d.Data...)})
		}
	}
}

func (n *simnet) clientAt(addr netip.AddrPort) *simClient {
	for _, c := range n.clients {
		if c.addr == addr {
			return c
		}
	}
	return nil
}

// step advances virtual time by 1 ms: deliveries, the server's tick when
// due, every client's Advance.
func (n *simnet) step() {
	for n.events.Len() > 0 && !n.events[0].at.After(n.now) {
		e := heap.Pop(&n.events).(event)
		if e.to == n.saddr {
			src := n.clientAt(e.from)
			out := n.server.Receive(n.now, e.from, e.data)
			n.routeFromServer(out, src)
		} else if c := n.clientAt(e.to); c != nil {
			if c.frozen(n.now) {
				c.held = append(c.held, e)
				continue
			}
			if n.onDeliver != nil {
				n.onDeliver(c, e.data)
			}
			n.route(c.addr, c.up, c.c.Receive(n.now, e.from, e.data))
		} else if l := n.lobbyAt(e.to); l != nil {
			n.route(l.addr, l.up, l.receive(n.now, e.from, e.data))
		}
	}
	if !n.now.Before(n.nextSrv) {
		n.nextSrv = n.nextSrv.Add(TickDuration)
		out := n.server.Tick(n.now)
		if w := n.server.World(); w != nil {
			n.serverHash[w.Tick()] = w.Hash()
		}
		n.routeFromServer(out, nil)
		if n.board != nil {
			for _, j := range n.server.TakeLadderJobs(nil) {
				n.routeFromServer(n.server.LadderDone(n.now, RunLadderJob(n.board, j)), nil)
			}
		}
		if n.onServerTick != nil {
			n.onServerTick()
		}
	}
	for _, c := range n.clients {
		if c.frozen(n.now) {
			continue
		}
		for _, e := range c.held { // woken: the socket's queue first
			n.route(c.addr, c.up, c.c.Receive(n.now, e.from, e.data))
		}
		c.held = nil
		n.route(c.addr, c.up, c.c.Advance(n.now, c.in))
	}
	for _, l := range n.lobbies {
		n.route(l.addr, l.up, l.advance(n.now))
	}
	n.now = n.now.Add(time.Millisecond)
}

func (n *simnet) routeFromServer(out []transport.Datagram, _ *simClient) {
	for _, d := range out {
		if n.onServerSend != nil {
			n.onServerSend(d)
		}
		c := n.clientAt(d.Addr)
		if c == nil {
			if l := n.lobbyAt(d.Addr); l != nil {
				n.route(n.saddr, l.down, []transport.Datagram{d})
			}
			continue
		}
		n.route(n.saddr, c.down, []transport.Datagram{d})
	}
}

// run advances virtual time by d.
func (n *simnet) run(d time.Duration) {
	end := n.now.Add(d)
	for n.now.Before(end) {
		n.step()
	}
}

// runUntil advances until cond holds or d passes; it reports whether cond
// held.
func (n *simnet) runUntil(d time.Duration, cond func() bool) bool {
	end := n.now.Add(d)
	for n.now.Before(end) {
		if cond() {
			return true
		}
		n.step()
	}
	return cond()
}

// playing reports whether every client is in a running match with a world.
func (n *simnet) playing() bool {
	for _, c := range n.clients {
		if c.c.Status() != StatusPlaying || c.c.World() == nil {
			return false
		}
	}
	return true
}

// scripted returns a deterministic input for slot at tick t: a direction
// held for 20–50 ticks, fire now and then. Tests use it as the true input
// of a player and, as an oracle, as the prediction of it.
func scripted(seed uint64, slot int, t game.Tick) game.Input {
	r := game.RNG{State: seed ^ uint64(slot)*0x9e3779b97f4a7c15 ^ uint64(uint32(t)/32)*0xbf58476d1ce4e5b9}
	d := r.Intn(9)
	in := game.Input{Tick: t, MoveX: int8(d%3 - 1), MoveY: int8(d/3 - 1)}
	f := game.RNG{State: seed*31 + uint64(t)*7 + uint64(slot)}
	if f.Intn(12) == 0 {
		in.Buttons = game.ButtonFire
	}
	return in
}

// oracle is a RemotePredictor that knows the true inputs.
type oracle struct{ seed uint64 }

func (o oracle) Update(*game.Snapshot, game.Tick) {}
func (o oracle) Predict(slot int, t game.Tick) game.Input {
	return scripted(o.seed, slot, t)
}

// errText returns the message a player sees for why c's session ended
// (or why it is reconnecting).
func errText(c *Client) string {
	var v View
	c.View(&v)
	return v.Message
}

// room0 returns the server's first room, for tests that look inside it.
func (s *Server) room0() *room { return s.rooms.first() }
