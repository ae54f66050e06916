package netcode

import (
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
	"ttytanks/netcode/transport"
)

// This file is the model-based lifecycle test of STYLE.md rule 12a: a
// seeded random walk over the events of a session's life (join, spectate,
// leave with the Leave delivered or lost, silence, a new address, rejoin,
// time passing across the LostAfter and FreeAfter thresholds, a State
// arriving late or twice) on a deterministic virtual-clock network, with
// invariants checked after every event and every 250 ms of virtual time.
// TestLifecycleWalk walks many seeds; FuzzLifecycleWalk drives the same
// walk from fuzz bytes. The walk's network is in walknet_test.go, its
// events in walkevents_test.go, its invariants in walkcheck_test.go.
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
	path     transport.Impairment
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
	// The rooms walk's model of the client: where it asked to play, its
	// household, whether it votes for a rematch, and what happened to it
	// that may end its session (its longest silence, a kick, a fault of
	// a room it was in).
	req           RoomRequest
	household     int
	voter         bool
	longestSilent time.Duration
	kicked        bool
	faulted       bool
	overSeen      bool // it held a seat in a room that showed its results
	watchClosed   bool // it watched a room that closed (no player in it for RoomIdle)
	placed        bool // it has been given a place
	placedAt      time.Time
	// toldAt is when the server last sent it a Leave (rooms walk).
	toldAt time.Time
	// match is the match the client plays (rooms walk).
	match uint32
	// rooms are the rooms the server has placed the client in (rooms
	// walk): a chat line it shows must have been said in one of them.
	rooms map[string]bool
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
	tap       *sealTap // what the server's core wrote in the datagrams it sealed
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
	lastRound   uint16
	stats       walkStats
	// rc is the rooms walk's part (nil: the single-room walk).
	rc *roomWalk
}

// walkStats counts what a walk did, to show the walk covers its events.
type walkStats struct {
	kinds                     [walkKinds]int
	seated, spectated, rounds int
	virtual                   time.Duration
	quietChecks               int
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
	// The rooms walk's own events (never drawn in the single-room walk).
	evFault
	evKick
	evIdle
	evChat
	walkKinds
)

var walkKindNames = [walkKinds]string{"join", "spectate", "leave", "leave-lost", "silence", "new-address", "rejoin", "run", "redeliver-state", "quiet-check",
	"fault-a-room", "kick", "beyond-room-idle", "chat"}

// walkWeights is how often each event is drawn, out of their sum.
var walkWeights = [walkKinds]int{evJoin: 11, evSpectate: 6, evLeave: 8, evLeaveLost: 6, evSilence: 9, evNewAddr: 5,
	evRejoin: 6, evRun: 1, evRedeliver: 12, evQuiet: 2}

// walkBot is the server's bot: it plays the scripted input of its slot, so
// clients can predict it exactly with walkOracle; in the rooms walk it
// also votes for a rematch (the button counts only once a match is over).
type walkBot struct {
	seed uint64
	vote bool
}

func (b walkBot) Input(s *game.Snapshot, _ *game.Maze, slot int) game.Input {
	in := scripted(b.seed, slot, s.Tick)
	if b.vote {
		in.Buttons |= game.ButtonRematch
	}
	return in
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
	if c.bots == c.players && ch.intn(3) != 0 {
		c.bots-- // a bots-only server in one walk of about ten
	}
	c.maxSpec = 1 + ch.intn(3)
	sizes := [][2]int{{7, 5}, {9, 7}, {11, 7}, {9, 9}}
	sz := sizes[ch.intn(len(sizes))]
	c.mazeW, c.mazeH = sz[0], sz[1]
	c.lossy = ch.intn(10) < 3
	c.seed = uint64(ch.intn(65536))<<16 | uint64(ch.intn(65536)) | 1
	w.inputSeed = c.seed * 7
	w.n = newSimnet(t, ServerConfig{Players: c.players, Bots: c.bots, MazeW: c.mazeW, MazeH: c.mazeH, Seed: c.seed,
		MaxSpectators: c.maxSpec, NewBot: func(int, uint64) InputSource { return walkBot{w.inputSeed, false} }})
	w.tap = tapSeals(w.n.server)
	w.logf("server: %v", c)
	return w
}

func (w *walk) logf(format string, args ...any) {
	w.log = append(w.log, fmt.Sprintf("   %8.3fs   ", w.now.Sub(simEpoch).Seconds())+fmt.Sprintf(format, args...))
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
		c.path = transport.Impairment{Latency: 20 * time.Millisecond}
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

// play runs events until maxEvents, maxVirtual of virtual time, the
// choices run out or an invariant fails; a panic is recovered and reported
// as a failure.
func (w *walk) play(maxEvents int, maxVirtual time.Duration) {
	defer func() {
		if r := recover(); r != nil {
			w.fail(fmt.Sprintf("panic: %v\n%s", r, debug.Stack()))
		}
	}()
	for w.event = 0; w.event < maxEvents && w.stats.virtual < maxVirtual && !w.ch.exhausted() && w.failure == ""; w.event++ {
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
			w.play(events, time.Hour)
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
// 400 events or 2 minutes of virtual time, so that one input runs in well
// under a second and the fuzzer keeps moving). Run it with a bounded
// minimisation, or the fuzzer stalls for a minute minimising each new
// input (a walk is slow to re-run):
//
//	go test ./netcode -run '^$' -fuzz FuzzLifecycleWalk -fuzztime 60s -fuzzminimizetime 100x
func FuzzLifecycleWalk(f *testing.F) {
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		w := newWalk(t, &byteChoices{b: b})
		w.play(400, 2*time.Minute)
		if w.failure != "" {
			t.Fatal(w.report("fuzz input", "go test ./netcode -run 'FuzzLifecycleWalk/<corpus file>' -v"))
		}
	})
}
