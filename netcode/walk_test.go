package netcode

import (
	"container/heap"
	"flag"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/proto"
)

// This file is the model-based lifecycle test of STYLE.md rule 12a: a
// seeded random walk over the events of a session's life (join, spectate,
// leave with the Leave delivered or lost, silence, a new address, rejoin,
// time passing across the LostAfter and FreeAfter thresholds, a State
// arriving late or twice) on a deterministic virtual-clock network, with
// invariants checked after every event and every 250 ms of virtual time.
// TestLifecycleWalk walks many seeds; FuzzLifecycleWalk drives the same
// walk from fuzz bytes.
//
// The walk uses the cores' exported API only (Server.Receive/Tick/Stats/
// World/Running, Client.Advance/Receive/Status/Slot/World/SnapshotAt/View/
// Close), so it survives a redesign of their insides. It runs its own
// event loop over the simnet's server and clients, because it needs to see
// (and re-deliver) what the server sends, and to cut, move and drop
// clients between events.

var walkFullLog = flag.Bool("walk.log", false, "print a failing walk's whole log, not only its last events")

var walkCorpusDir = flag.String("walk.corpus", "", "write the choice bytes of a failing TestLifecycleWalk seed as a FuzzLifecycleWalk corpus file into this directory")

// walkServerAddr is the server's address on the walk's network.
var walkServerAddr = netip.MustParseAddrPort("127.0.0.1:7777")

// walkSlack is how long after FreeAfter a seat whose owner went away may
// still be held: the server frees on its next Tick, and datagrams still in
// flight when the owner went away count as signs of life.
const walkSlack = time.Second

// walkChoices is the walk's source of decisions: a seeded RNG, or fuzz
// bytes. Every decision is intn(n) with n ≤ 65536.
type walkChoices interface {
	intn(n int) int
	exhausted() bool
}

// seededChoices draws from a game.RNG and records each choice as the bytes
// that make byteChoices decide the same, so a failing seed can be saved as
// a fuzz corpus entry.
type seededChoices struct {
	rng game.RNG
	rec []byte
}

func (c *seededChoices) intn(n int) int {
	v := c.rng.Intn(n)
	if n > 256 {
		c.rec = append(c.rec, byte(v>>8))
	}
	c.rec = append(c.rec, byte(v))
	return v
}

func (c *seededChoices) exhausted() bool { return false }

// byteChoices reads decisions from fuzz bytes, one byte per choice (two
// when n > 256), and zeros once they run out.
type byteChoices struct {
	b []byte
	i int
}

func (c *byteChoices) next() int {
	if c.i >= len(c.b) {
		c.i++
		return 0
	}
	v := c.b[c.i]
	c.i++
	return int(v)
}

func (c *byteChoices) intn(n int) int {
	v := c.next()
	if n > 256 {
		v = v<<8 | c.next()
	}
	return v % n
}

func (c *byteChoices) exhausted() bool { return c.i >= len(c.b) }

// walkConfig is a walk's server and network, drawn from its choices.
type walkConfig struct {
	players, bots, maxSpec int
	mazeW, mazeH           int
	lossy                  bool
	seed                   uint64
}

func (c walkConfig) String() string {
	s := fmt.Sprintf("players %d, bots %d, spectators ≤ %d, maze %dx%d", c.players, c.bots, c.maxSpec, c.mazeW, c.mazeH)
	if c.lossy {
		s += ", lossy paths"
	}
	return s
}

// walkPacket is a datagram in flight on the walk's network.
type walkPacket struct {
	at       time.Time
	seq      uint64
	from, to netip.AddrPort
	data     []byte
}

type walkQueue []walkPacket

func (q walkQueue) Len() int { return len(q) }
func (q walkQueue) Less(i, j int) bool {
	if !q[i].at.Equal(q[j].at) {
		return q[i].at.Before(q[j].at)
	}
	return q[i].seq < q[j].seq
}
func (q walkQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *walkQueue) Push(x any)   { *q = append(*q, x.(walkPacket)) }
func (q *walkQueue) Pop() any {
	old := *q
	p := old[len(old)-1]
	*q = old[:len(old)-1]
	return p
}

// capturedState is a State the server sent to a client, kept to be
// delivered again later.
type capturedState struct {
	at    time.Time
	tick  game.Tick
	match uint32
	data  []byte
}

// walkClient is the model of one client process.
type walkClient struct {
	id       int
	name     string
	sc       *simClient
	spectate bool
	path     Impairment
	addrs    []netip.AddrPort // every address it has used
	// gone: the process ended (Leave delivered or lost); it is no longer
	// advanced or routed. goneAt is when.
	gone   bool
	goneAt time.Time
	// leftFrom is the address a delivered Leave came from.
	leftFrom netip.AddrPort
	// silentUntil: the network drops everything both ways until then.
	silentUntil time.Time
	// routedSince is when the client last started being routed normally
	// (created, silence over, new address).
	routedSince time.Time
	status      Status
	statusSince time.Time
	closedAt    time.Time
	recent      []capturedState // the newest States, a ring
	older       []capturedState // one in 64, the newest 8
	captured    int
}

func (c *walkClient) String() string { return fmt.Sprintf("c%d", c.id) }

// silent reports whether the client's network is cut: from a silence
// event until step ends it (a quiet check holds it).
func (c *walkClient) silent(time.Time) bool { return !c.silentUntil.IsZero() }

// live reports whether the client runs and is routed.
func (c *walkClient) live(now time.Time) bool { return !c.gone && !c.silent(now) }

func (c *walkClient) describe() string {
	if c.gone {
		return fmt.Sprintf("%v (gone, %v)", c, c.sc.addr)
	}
	s := c.sc.c.Status().String()
	if sl := c.sc.c.Slot(); sl >= 0 {
		s += fmt.Sprintf(" slot %d", sl)
	}
	if c.spectate {
		s += " spectator"
	}
	return fmt.Sprintf("%v (%s, %v, routed since %.3fs, status since %.3fs)", c, s, c.sc.addr,
		c.routedSince.Sub(simEpoch).Seconds(), c.statusSince.Sub(simEpoch).Seconds())
}

// walk is one random walk: a server, its clients, the network between
// them, and the log of what happened.
type walk struct {
	t         testing.TB
	cfg       walkConfig
	ch        walkChoices
	n         *simnet
	now       time.Time
	q         walkQueue
	seq       uint64
	nextSrv   time.Time
	ms        int // steps taken
	clients   []*walkClient
	made      int // clients made, for ids, sessions and addresses
	inputSeed uint64
	liveSlot  [game.MaxPlayers]bool
	// holdResumes keeps silent clients silent during a quiet check.
	holdResumes bool
	nextCheck   time.Time
	event       int
	log         []string
	eventAt     []int // index in log of each event's line
	failure     string
	plan        []time.Time
	rounds      int
	lastRound   uint16
	stats       walkStats
}

// walkStats counts what a walk did, to show the walk covers its events.
type walkStats struct {
	kinds                              [walkKinds]int
	seated, spectated, matches, rounds int
	virtual                            time.Duration
	quietChecks                        int
}

func (s *walkStats) add(o walkStats) {
	for i := range s.kinds {
		s.kinds[i] += o.kinds[i]
	}
	s.seated += o.seated
	s.spectated += o.spectated
	s.matches += o.matches
	s.rounds += o.rounds
	s.virtual += o.virtual
	s.quietChecks += o.quietChecks
}

// The walk's events.
const (
	evJoin = iota
	evSpectate
	evLeave
	evLeaveLost
	evSilence
	evNewAddr
	evRejoin
	evRun
	evRedeliver
	evQuiet
	walkKinds
)

var walkKindNames = [walkKinds]string{"join", "spectate", "leave", "leave-lost", "silence", "new-address", "rejoin", "run", "redeliver-state", "quiet-check"}

// walkWeights is how often each event is drawn, out of their sum.
var walkWeights = [walkKinds]int{evJoin: 11, evSpectate: 6, evLeave: 8, evLeaveLost: 6, evSilence: 9, evNewAddr: 5,
	evRejoin: 6, evRun: 1, evRedeliver: 12, evQuiet: 2}

// walkBot is the server's bot: it plays the scripted input of its slot, so
// clients can predict it exactly with walkOracle.
type walkBot struct{ seed uint64 }

func (b walkBot) Input(s *game.Snapshot, _ *game.Maze, slot int) game.Input {
	return scripted(b.seed, slot, s.Tick)
}

// walkOracle predicts every seat exactly while the network is quiet: the
// scripted input for a seat whose owner is a bot or a live playing client,
// neutral for the rest (empty, or held by a client that is silent or gone,
// for which the server uses neutral input after HoldTicks).
type walkOracle struct{ w *walk }

func (o walkOracle) Update(*game.Snapshot, game.Tick) {}
func (o walkOracle) Predict(slot int, t game.Tick) game.Input {
	if o.w.liveSlot[slot] {
		return scripted(o.w.inputSeed, slot, t)
	}
	return game.Neutral(t)
}

// newWalk draws a configuration from ch and builds the server.
func newWalk(t testing.TB, ch walkChoices) *walk {
	w := &walk{t: t, ch: ch, now: simEpoch, nextSrv: simEpoch, nextCheck: simEpoch}
	c := &w.cfg
	c.players = 2 + ch.intn(3)
	c.bots = ch.intn(c.players + 1)
	c.maxSpec = 1 + ch.intn(3)
	sizes := [][2]int{{7, 5}, {9, 7}, {11, 7}, {9, 9}}
	sz := sizes[ch.intn(len(sizes))]
	c.mazeW, c.mazeH = sz[0], sz[1]
	c.lossy = ch.intn(10) < 3
	c.seed = uint64(ch.intn(65536))<<16 | uint64(ch.intn(65536)) | 1
	w.inputSeed = c.seed * 7
	w.n = newSimnet(t, ServerConfig{Players: c.players, Bots: c.bots, MazeW: c.mazeW, MazeH: c.mazeH, Seed: c.seed,
		MaxSpectators: c.maxSpec, NewBot: func(int, uint64) InputSource { return walkBot{w.inputSeed} }})
	w.logf("server: %v", c)
	return w
}

func (w *walk) logf(format string, args ...any) {
	w.log = append(w.log, fmt.Sprintf("   %8.3fs   ", w.now.Sub(simEpoch).Seconds())+fmt.Sprintf(format, args...))
}

// --- the network ---

func (w *walk) clientAt(addr netip.AddrPort) *walkClient {
	for _, c := range w.clients {
		if c.sc.addr == addr && !c.gone {
			return c
		}
	}
	return nil
}

func (w *walk) send(from, to netip.AddrPort, sim *Netsim, d []byte) {
	w.plan = sim.Plan(w.now, w.plan[:0])
	for _, at := range w.plan {
		w.seq++
		heap.Push(&w.q, walkPacket{at: at, seq: w.seq, from: from, to: to, data: append([]byte(nil), d...)})
	}
}

// fromServer routes the server's datagrams to live clients, keeping a copy
// of each State.
func (w *walk) fromServer(out []Datagram) {
	for _, d := range out {
		c := w.clientAt(d.Addr)
		if c == nil || c.silent(w.now) {
			continue
		}
		if h, err := proto.ParseHeader(d.Data); err == nil && h.Type == proto.TypeState {
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
func (w *walk) fromClient(c *walkClient, out []Datagram) {
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
			w.fromServer(w.n.server.Receive(w.now, p.from, p.data))
		} else if c := w.clientAt(p.to); c != nil && !c.silent(w.now) {
			w.fromClient(c, c.sc.c.Receive(w.now, p.from, p.data))
		}
	}
	if !w.now.Before(w.nextSrv) {
		w.nextSrv = w.nextSrv.Add(TickDuration)
		w.fromServer(w.n.server.Tick(w.now))
		if sw := w.n.server.World(); sw != nil {
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
		w.updateOracle()
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

// noteStatus logs a client's status transitions.
func (w *walk) noteStatus(c *walkClient) {
	st := c.sc.c.Status()
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
	case c.sc.c.Slot() >= 0:
		line += fmt.Sprintf(", slot %d", c.sc.c.Slot())
	}
	if st == StatusWaiting || st == StatusPlaying {
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

// --- events ---

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

func (w *walk) newAddr() netip.AddrPort {
	k := w.made // unique within the walk: made only grows
	w.made++
	return netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, byte(k >> 16), byte(k >> 8), byte(k)}), uint16(30000+k%30000))
}

// join starts a client process: a player or a spectator, at a fresh
// address (or at addr when it is valid).
func (w *walk) join(name string, spectate bool, addr netip.AddrPort) *walkClient {
	id := w.made
	if !addr.IsValid() {
		addr = w.newAddr()
	} else {
		w.made++
	}
	path := Impairment{Latency: time.Duration(5+w.ch.intn(40)) * time.Millisecond}
	if w.cfg.lossy {
		path.Jitter = time.Duration(w.ch.intn(21)) * time.Millisecond
		path.Loss = float64(w.ch.intn(9)) / 100
		path.Dup = float64(w.ch.intn(6)) / 100
		path.Reorder = float64(w.ch.intn(6)) / 100
	}
	cfg := ClientConfig{Server: walkServerAddr, Session: 1000 + uint64(id), Name: name, Spectate: spectate,
		// History: the default rings (68 s of snapshots) cost more to
		// allocate and clear than a whole walk of a client; 10 s is plenty
		// for the leads and State delays of the walk's network.
		History:   600,
		Predictor: walkOracle{w}, LocalInput: func(gw *game.World, slot int) game.Input { return scripted(w.inputSeed, slot, gw.Tick()) }}
	sc := &simClient{c: NewClient(cfg), addr: addr, up: NewNetsim(path, w.cfg.seed+uint64(id)*2), down: NewNetsim(path, w.cfg.seed+uint64(id)*2+1)}
	c := &walkClient{id: id, name: name, sc: sc, spectate: spectate, path: path, addrs: []netip.AddrPort{addr},
		routedSince: w.now, statusSince: w.now}
	w.clients = append(w.clients, c)
	w.n.clients = append(w.n.clients, sc)
	kind := "player"
	if spectate {
		kind = "spectator"
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
	out := c.sc.c.Close("bye")
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
			w.fromServer(w.n.server.Receive(w.now, c.sc.addr, d.Data))
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
	total := 0
	for _, wt := range walkWeights {
		total += wt
	}
	r := w.ch.intn(total)
	kind := 0
	for r >= walkWeights[kind] {
		r -= walkWeights[kind]
		kind++
	}
	running := w.running()
	if (kind == evJoin || kind == evSpectate || kind == evRejoin) && running >= w.cfg.players+w.cfg.maxSpec+2 {
		kind = evLeaveLost // keep the population small
	}
	w.stats.kinds[kind]++
	w.eventAt = append(w.eventAt, len(w.log))
	w.log = append(w.log, fmt.Sprintf("#%d %8.3fs %s", w.event, w.now.Sub(simEpoch).Seconds(), walkKindNames[kind]))
	alive := func(c *walkClient) bool { return !c.gone }
	switch kind {
	case evJoin:
		w.join(fmt.Sprintf("p%d", w.made), false, netip.AddrPort{})
	case evSpectate:
		w.join(fmt.Sprintf("s%d", w.made), true, netip.AddrPort{})
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
			w.logf("%v goes silent for %v", c, d)
		}
	case evNewAddr:
		if c := w.pick(alive); c != nil {
			old := c.sc.addr
			c.sc.addr = w.newAddr()
			c.addrs = append(c.addrs, c.sc.addr)
			c.routedSince = w.now
			w.logf("%v moves from %v to %v", c, old, c.sc.addr)
		}
	case evRejoin:
		c := w.pick(func(c *walkClient) bool { return c.gone || c.sc.c.Status() == StatusClosed })
		if c == nil {
			w.join(fmt.Sprintf("p%d", w.made), false, netip.AddrPort{})
			break
		}
		if !c.gone {
			w.leave(c, true) // a closed client's process ends first
		}
		var addr netip.AddrPort
		if w.ch.intn(4) == 0 && w.clientAt(c.sc.addr) == nil {
			addr = c.sc.addr // a restarted client bound to the same port
		}
		n := w.join(c.name, c.spectate, addr)
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
		// A genuine State, however late, is a sign of life from the server:
		// the client's silence timers restart, so the clocks of the checks
		// that wait for it to notice a silence restart too.
		c.routedSince = w.now
		w.fromClient(c, c.sc.c.Receive(w.now, walkServerAddr, cs.data))
		w.noteStatus(c)
	case evQuiet:
		w.quiet()
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

// --- invariants ---

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
// for at least d.
func (w *walk) stable(c *walkClient, d time.Duration) bool {
	return c.live(w.now) && w.now.Sub(c.routedSince) >= d && w.now.Sub(c.statusSince) >= d
}

// check returns a description of the first violated invariant, or "".
func (w *walk) check() string {
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
	if st.Spectators > specMay {
		return fmt.Sprintf("the server counts %d spectators, spectator clients may hold only %d places", st.Spectators, specMay)
	}
	if st.Spectators < specMust {
		return fmt.Sprintf("the server counts %d spectators, %d spectator clients are watching", st.Spectators, specMust)
	}
	// Every client: a known status, a message when closed, never stuck.
	for _, c := range w.clients {
		if c.gone {
			continue
		}
		cs := c.sc.c.Status()
		if cs > StatusClosed {
			return fmt.Sprintf("%v has an unknown status %d", c, cs)
		}
		if cs == StatusClosed {
			var v View
			c.sc.c.View(&v)
			if v.Message == "" {
				return fmt.Sprintf("%v is closed without a message", c)
			}
			continue
		}
		if c.gone {
			continue
		}
		if (cs == StatusConnecting || cs == StatusReconnecting) && w.stable(c, 3*time.Second) {
			return fmt.Sprintf("%v is stuck %v: routed normally for %v", c.describe(), cs, w.now.Sub(maxTime(c.routedSince, c.statusSince)))
		}
		if cs == StatusPlaying && w.stable(c, 3*time.Second) && c.sc.c.World() == nil {
			return fmt.Sprintf("%v plays without a world for %v", c.describe(), w.now.Sub(c.statusSince))
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
		c.sc.up.Impairment, c.sc.down.Impairment = Impairment{Latency: 20 * time.Millisecond}, Impairment{Latency: 20 * time.Millisecond}
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

// finish ends every silence, heals the paths, and lets 5 s pass: every
// running client must then be waiting, playing, or closed with a message.
func (w *walk) finish() {
	w.eventAt = append(w.eventAt, len(w.log))
	w.log = append(w.log, fmt.Sprintf("#%d %8.3fs end: silences end, paths heal, 5 s pass", w.event, w.now.Sub(simEpoch).Seconds()))
	for _, c := range w.clients {
		if c.silent(w.now) {
			c.silentUntil = w.now
		}
		c.path = Impairment{Latency: 20 * time.Millisecond}
		c.sc.up.Impairment, c.sc.down.Impairment = c.path, c.path
	}
	w.run(5 * time.Second)
	for _, c := range w.clients {
		if c.gone {
			continue
		}
		switch c.sc.c.Status() {
		case StatusWaiting, StatusPlaying, StatusClosed:
		default:
			w.fail(fmt.Sprintf("%v did not reach playing or an end 5 s after the network healed", c.describe()))
			return
		}
	}
	if w.failure == "" {
		if v := w.check(); v != "" {
			w.fail(v)
		}
	}
}

// play runs events until maxEvents, the choices run out or an invariant
// fails; a panic is recovered and reported as a failure.
func (w *walk) play(maxEvents int) {
	defer func() {
		if r := recover(); r != nil {
			w.fail(fmt.Sprintf("panic: %v\n%s", r, debug.Stack()))
		}
	}()
	for w.event = 0; w.event < maxEvents && !w.ch.exhausted() && w.failure == ""; w.event++ {
		w.next()
	}
	if w.failure == "" {
		w.finish()
	}
}

// report is the failure: the event, the last events of the log, the
// violation (with the panic's stack).
func (w *walk) report(name, rerun string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: failed at event #%d (%s), virtual time %.3fs\n", name, w.event, w.cfg, w.now.Sub(simEpoch).Seconds())
	from := 0
	if len(w.eventAt) > 30 && !*walkFullLog {
		from = w.eventAt[len(w.eventAt)-30]
		b.WriteString("… (earlier events left out)\n")
	} else {
		b.WriteString(w.log[0] + "\n")
		from = 1
	}
	for _, l := range w.log[from:] {
		b.WriteString(l + "\n")
	}
	fmt.Fprintf(&b, "violation: %s\n", w.failure)
	fmt.Fprintf(&b, "rerun: %s\n", rerun)
	return b.String()
}

// walkSeeds and walkEvents size TestLifecycleWalk.
func walkSize() (seeds, events int) {
	seeds, events = 200, 2000
	if testing.Short() {
		seeds, events = 40, 500
	}
	if walkRace {
		seeds, events = 8, 500
	}
	return seeds, events
}

// TestLifecycleWalk walks many seeds of the lifecycle model: each seed
// draws a server (2–4 seats, 0..all bots, a small spectator limit, a small
// maze, sometimes lossy paths) and thousands of events, checking the
// invariants after each. A failure prints the seed, the event, the last
// events and how to rerun that seed alone.
func TestLifecycleWalk(t *testing.T) {
	seeds, events := walkSize()
	for seed := 1; seed <= seeds; seed++ {
		seed := seed
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			t.Parallel()
			ch := &seededChoices{rng: game.RNG{State: uint64(seed) * 0x9e3779b97f4a7c15}}
			w := newWalk(t, ch)
			w.play(events)
			if w.failure != "" {
				if *walkCorpusDir != "" {
					saveWalkCorpus(t, *walkCorpusDir, fmt.Sprintf("seed-%d", seed), ch.rec)
				}
				t.Fatal(w.report(fmt.Sprintf("seed %d", seed), fmt.Sprintf("go test ./netcode -run 'TestLifecycleWalk/seed=%d$' -v", seed)))
			}
			t.Logf("%d events, %v virtual, %d rounds, %d seated, %d spectated, %d quiet checks, events %v",
				w.event, w.stats.virtual, w.stats.rounds, w.stats.seated, w.stats.spectated, w.stats.quietChecks, w.stats.kinds)
		})
	}
}

// saveWalkCorpus writes choice bytes as a FuzzLifecycleWalk corpus file.
func saveWalkCorpus(t testing.TB, dir, name string, b []byte) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Error(err)
		return
	}
	data := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", b)
	if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
		t.Error(err)
	}
}

// FuzzLifecycleWalk drives the lifecycle walk from fuzz bytes: the bytes
// are the walk's choices (configuration, events, their parameters), one
// byte each, zeros once they run out; the walk ends when they do (at most
// 400 events).
func FuzzLifecycleWalk(f *testing.F) {
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		w := newWalk(t, &byteChoices{b: b})
		w.play(400)
		if w.failure != "" {
			t.Fatal(w.report("fuzz input", "go test ./netcode -run 'FuzzLifecycleWalk/<corpus file>' -v"))
		}
	})
}
