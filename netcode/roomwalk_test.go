package netcode

import (
	"flag"
	"fmt"
	"net/netip"
	"testing"
	"time"

	"ttytanks/game"
)

// The rooms walk: the lifecycle walk of walk_test.go on a server that
// hosts rooms. Each seed draws a small host (MaxRooms 3–4, so "server
// full" happens, a short RoomIdle, per-address caps shared by a few
// households of clients behind one IP, sometimes a match to one round win
// with a short RematchWait, StartWait, SpectatorDelay) and walks the
// single-room walk's events, each join asking for a room in one of the
// ways a player can (quick, named, create, private create, join code),
// plus the rooms' own events: a fault injected into a room, a kick, and
// time passing beyond RoomIdle. Its invariants are per room
// (roomwalkcheck_test.go). TestRoomWalk walks the seeds, FuzzRoomWalk
// drives the same walk from fuzz bytes.

var walkLong = flag.Bool("walk.long", false, "walk the rooms walk as long as the single-room walk (200 seeds × 2000 events)")

var walkSeeds = flag.Int("walk.seeds", 0, "walk this many seeds of the rooms walk (0: as sized by -short, -walk.long and -race)")

// roomsConfig is a rooms walk's host, drawn from its choices.
type roomsConfig struct {
	rooms, maxRooms         int           // permanent rooms; the bound on open rooms
	idle                    time.Duration // RoomIdle
	rounds                  int           // 0: rounds go on; 1: a match ends at the first round win
	startWait, specDelay    time.Duration
	rematchWait, resultsFor time.Duration
	seatsPerAddr, specsPer  int // the per-address caps
	households              int // client IPs: each client lives behind one
	// seatIdle frees a seat without intent (ServerConfig.Idle; negative:
	// never); kickHold keeps a kicked player's address out.
	seatIdle, kickHold time.Duration
}

func (c roomsConfig) String() string {
	return fmt.Sprintf("rooms %d..%d, idle %v, rounds %d, start wait %v, spectator delay %v, rematch wait %v, results for %v, caps %d seats %d spectators per address, %d households, seat idle %v, kick hold %v",
		c.rooms, c.maxRooms, c.idle, c.rounds, c.startWait, c.specDelay, c.rematchWait, c.resultsFor, c.seatsPerAddr, c.specsPer, c.households,
		c.seatIdle, c.kickHold)
}

// roomWalk is what a rooms walk adds to a walk: its host's configuration
// and the model's memory of the rooms.
type roomWalk struct {
	cfg roomsConfig
	// live[room][slot]: how the oracle predicts the seat (see seatPlay).
	live map[string]*[game.MaxPlayers]seatPlay
	// hash[match id, tick] is a room's world hash at that tick.
	hash    map[matchTick]uint64
	maxTick game.Tick
	// faults counts the faults injected that the server took (a room
	// stopped); pending is the room given a fault, until the next tick.
	faults      uint64
	pending     *room
	faultedRoom *room // the last room that stopped after a fault
	memo        tickMemo
	// lastFullAt is the last time the server had MaxRooms rooms open;
	// capAt[ip] the last time ip held its share of seats; kickedAt[ip]
	// when the operator last kicked a player at ip.
	lastFullAt time.Time
	capAt      map[netip.Addr]time.Time
	kickedAt   map[netip.Addr]time.Time
	// emptySince and overSince: since when a room has had no network
	// peer, and has shown its results; gone: the rooms that have closed
	// (with the time they emptied), to tell an idle close from a fault.
	emptySince map[*room]time.Time
	overSince  map[*room]time.Time
	rounds     map[*room]uint16 // each room's round, to count the rounds played
	open       []*room
	// specs are the (seats, bots) a room of that name may have been
	// created with.
	specs map[string][][2]int
	stats roomWalkStats
	// recs records every match the walk plays: every recording must
	// verify, an interrupted one (its room closed mid-match) as
	// interrupted.
	recs *memRecordings
}

// roomWalkStats counts what a rooms walk saw, to show it covers its
// transitions.
type roomWalkStats struct {
	opened, idleClosed, faulted, kicked, over, rematches int
	full, refused, codeJoins, maxOpen                    int
}

// seatPlay is how the oracle predicts a seat.
type seatPlay uint8

const (
	playNeutral  seatPlay = iota // empty, or its player cannot be heard
	playScripted                 // the scripted input
	playVoting                   // the scripted input, and a rematch vote
)

type matchTick struct {
	match uint32
	tick  game.Tick
}

// roomWeights is how often each event is drawn in a rooms walk.
var roomWeights = [walkKinds]int{evJoin: 12, evSpectate: 5, evLeave: 8, evLeaveLost: 5, evSilence: 7, evNewAddr: 4,
	evRejoin: 6, evRun: 2, evRedeliver: 8, evQuiet: 2, evFault: 1, evKick: 2, evIdle: 2, evChat: 4}

// roomNames are the names joins and creates ask for: the permanent
// rooms' and a few of their own, so that names collide.
var roomNames = []string{"a", "b", "x", "y"}

// newRoomWalk draws a rooms configuration from ch and builds the server.
func newRoomWalk(t testing.TB, ch walkChoices) *walk {
	w := &walk{t: t, ch: ch, now: simEpoch, nextSrv: simEpoch, nextCheck: simEpoch}
	c := &w.cfg
	c.players = 2 + ch.intn(2)
	c.bots = ch.intn(c.players) // a room always has a seat for a player
	c.maxSpec = 1 + ch.intn(2)
	sizes := [][2]int{{7, 5}, {9, 7}, {9, 9}}
	sz := sizes[ch.intn(len(sizes))]
	c.mazeW, c.mazeH = sz[0], sz[1]
	c.lossy = ch.intn(10) < 3
	c.seed = uint64(ch.intn(65536))<<16 | uint64(ch.intn(65536)) | 1
	w.inputSeed = c.seed * 7
	rc := roomsConfig{rooms: 1 + ch.intn(2), maxRooms: 3 + ch.intn(2), idle: w.between(time.Second, 4*time.Second),
		seatsPerAddr: 2 + ch.intn(2), specsPer: 1 + ch.intn(2), households: 1 + ch.intn(3),
		rematchWait: w.between(500*time.Millisecond, 3*time.Second), resultsFor: w.between(3*time.Second, 6*time.Second)}
	if ch.intn(2) == 0 {
		rc.rounds = 1
	}
	if ch.intn(2) == 0 {
		rc.startWait = w.between(500*time.Millisecond, 3*time.Second)
	}
	if ch.intn(2) == 0 {
		rc.specDelay = w.between(200*time.Millisecond, 2*time.Second)
	}
	// Drawn from the seed, not the choices, so the corpus's walks stay
	// the walks they were: an idle time for seats in half the walks, and
	// a kick hold.
	rc.seatIdle, rc.kickHold = -1, time.Duration(1+c.seed%8)*time.Second
	if c.seed%3 == 0 {
		rc.seatIdle = time.Duration(6+c.seed%10) * time.Second
	}
	w.rc = &roomWalk{cfg: rc, live: map[string]*[game.MaxPlayers]seatPlay{}, hash: map[matchTick]uint64{},
		capAt: map[netip.Addr]time.Time{}, kickedAt: map[netip.Addr]time.Time{}, emptySince: map[*room]time.Time{}, overSince: map[*room]time.Time{}, rounds: map[*room]uint16{},
		specs: map[string][][2]int{}, recs: &memRecordings{}}
	for _, name := range roomNames {
		w.rc.specs[name] = [][2]int{{c.players, c.bots}}
	}
	w.n = newSimnet(t, ServerConfig{Players: c.players, Bots: c.bots, MazeW: c.mazeW, MazeH: c.mazeH, Seed: c.seed,
		MaxSpectators: c.maxSpec, NewBot: func(int, uint64) InputSource { return walkBot{w.inputSeed, true} },
		Rooms: rc.rooms, MaxRooms: rc.maxRooms, RoomIdle: rc.idle, Rounds: rc.rounds, StartWait: rc.startWait,
		SpectatorDelay: rc.specDelay, RematchWait: rc.rematchWait, ResultsFor: rc.resultsFor,
		MaxSeatsPerAddr: rc.seatsPerAddr, MaxSpectatorsPerAddr: rc.specsPer, Entropy: &walkEntropy{game.RNG{State: c.seed}},
		Idle: rc.seatIdle, KickHold: rc.kickHold, NewRecorder: w.rc.recs.forRoom,
		// The room and bot budgets have tests of their own: here they
		// never bind.
		MaxRoomsPerAddr: rc.maxRooms, MaxBotsPerAddr: 64, MaxBots: 1024})
	w.tap = tapSeals(w.n.server)
	w.logf("server: %v; %v", c, rc)
	w.observe()
	return w
}

// walkEntropy is the server's entropy in a rooms walk: seeded, so join
// codes and tokens are the same on every run of a seed.
type walkEntropy struct{ rng game.RNG }

func (e *walkEntropy) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = byte(e.rng.Next())
	}
	return len(b), nil
}

// householdAddr returns the k-th address of household h: the household's
// IP, a port of its own.
func householdAddr(h, k int) netip.AddrPort {
	return netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 0, 0, byte(1 + h)}), uint16(20000+k%40000))
}

// drawRequest draws where a new client asks to play or watch.
func (w *walk) drawRequest(spectate bool) RoomRequest {
	req := RoomRequest{Spectate: spectate}
	switch k := w.ch.intn(20); {
	case k < 7: // a quick match
	case k < 12:
		req.Kind, req.Name = RoomNamed, roomNames[w.ch.intn(len(roomNames))]
	case k < 16:
		req.Kind = RoomCreate
		if i := w.ch.intn(len(roomNames) + 1); i < len(roomNames) {
			req.Spec.Name = roomNames[i]
		}
		if w.ch.intn(2) == 0 {
			req.Spec.Seats = 2 + w.ch.intn(2)
			req.Spec.Bots = w.ch.intn(req.Spec.Seats)
		}
	case k < 18:
		req.Kind, req.Spec.Private = RoomCreate, true
	default:
		req.Kind = RoomCode
		req.Name = "0000WALK" // a wrong code, unless a private room is open
		var codes []string
		for _, r := range w.n.server.rooms.list {
			if r.code != "" {
				codes = append(codes, r.code)
			}
		}
		if len(codes) > 0 && w.ch.intn(4) != 0 {
			req.Name = codes[w.ch.intn(len(codes))]
		}
	}
	if req.Kind == RoomCreate {
		seats, bots := w.cfg.players, w.cfg.bots
		if req.Spec.Seats != 0 {
			seats, bots = req.Spec.Seats, req.Spec.Bots
		}
		w.rc.specs[req.Spec.Name] = append(w.rc.specs[req.Spec.Name], [2]int{seats, bots})
	}
	return req
}

func describeRequest(r RoomRequest) string {
	switch r.Kind {
	case RoomNamed:
		return fmt.Sprintf("room %q", r.Name)
	case RoomCode:
		return fmt.Sprintf("code %s", r.Name)
	case RoomCreate:
		s := fmt.Sprintf("a new room %q", r.Spec.Name)
		if r.Spec.Seats != 0 {
			s += fmt.Sprintf(" of %d seats, %d bots", r.Spec.Seats, r.Spec.Bots)
		}
		if r.Spec.Private {
			s = "a new private room"
		}
		return s
	}
	return "a quick match"
}

// roomEvent applies the rooms walk's own events.
func (w *walk) roomEvent(kind int) {
	s := w.n.server
	switch kind {
	case evFault:
		if w.rc.pending != nil {
			w.logf("room %s's fault is pending: no second one this tick", w.rc.pending.name) // the model follows one at a time
			return
		}
		var cand []*room
		for _, r := range s.rooms.list {
			if r.match.phase == phaseRunning {
				cand = append(cand, r)
			}
		}
		if len(cand) == 0 {
			w.logf("no room plays: no fault")
			return
		}
		r := cand[w.ch.intn(len(cand))]
		r.match.inputs = nil // the room's next step hands the world no inputs, and Step panics
		w.rc.pending = r
		w.logf("room %s (match %08x) will fail at its next step", r.name, r.match.matchID())
	case evKick:
		st := s.Stats()
		var cand []PlayerStats
		for _, p := range st.Players {
			if !p.Bot {
				cand = append(cand, p)
			}
		}
		if len(cand) == 0 {
			w.logf("no player to kick")
			return
		}
		p := cand[w.ch.intn(len(cand))]
		out := s.Kick(w.now, p.Room, p.Slot)
		if ap, err := netip.ParseAddrPort(p.Addr); err == nil {
			w.rc.kickedAt[limitKey(ap.Addr())] = w.now
		}
		w.observe()
		for _, c := range w.owners(p.Addr) {
			c.kicked = true
		}
		w.rc.stats.kicked++
		w.logf("the operator kicks seat %d of room %s (%s): %d datagrams", p.Slot, p.Room, p.Addr, len(out))
		w.fromServer(out)
		for _, q := range s.Stats().Players {
			if q.Room == p.Room && q.Slot == p.Slot && q.Addr == p.Addr && !q.Bot {
				w.fail(fmt.Sprintf("seat %d of room %s is still held from %s after the kick", p.Slot, p.Room, p.Addr))
			}
		}
	case evChat:
		var cand []*walkClient
		for _, c := range w.clients {
			if c.gone {
				continue
			}
			if st := c.sc.c.Status(); st == StatusWaiting || st == StatusPlaying {
				cand = append(cand, c)
			}
		}
		if len(cand) == 0 {
			w.logf("nobody in a room to talk")
			return
		}
		c := cand[w.ch.intn(len(cand))]
		name, _, _ := c.sc.c.Room()
		text := fmt.Sprintf("%v in %s", c, name)
		out, err := c.sc.c.Say(w.now, text)
		w.logf("%v says %q: %v", c, text, err)
		w.fromClient(c, out)
	case evIdle:
		d := w.rc.cfg.idle + w.between(100*time.Millisecond, 2*time.Second)
		w.logf("time passes beyond RoomIdle: %v", d)
		w.run(d)
	}
}

// checkRecordings ends the walk's recordings of the matches still
// played as interrupted, as a server that stops does, and requires that
// every recording verifies.
func (w *walk) checkRecordings() {
	if w.failure != "" {
		return
	}
	w.rc.recs.closeAll()
	if v := w.rc.recs.check(); v != "" {
		w.fail(v)
	}
}

// roomWalkSize sizes TestRoomWalk: a share of the single-room walk's
// time, so that both walks run in about two minutes on two cores.
func roomWalkSize() (seeds, events int) {
	seeds, events = 40, 1000
	if *walkLong {
		seeds, events = 200, 2000
	}
	if testing.Short() {
		seeds, events = 10, 500
	}
	if walkRace {
		seeds, events = 4, 400
	}
	if *walkSeeds > 0 {
		seeds = *walkSeeds
	}
	return seeds, events
}

// TestRoomWalk walks many seeds of the lifecycle model on a host of
// rooms, checking the per-room invariants after each event. A failure
// prints the seed, the event, the last events and how to rerun that seed
// alone.
func TestRoomWalk(t *testing.T) {
	seeds, events := roomWalkSize()
	for seed := 1; seed <= seeds; seed++ {
		seed := seed
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			t.Parallel()
			ch := &seededChoices{rng: game.RNG{State: uint64(seed)*0x9e3779b97f4a7c15 ^ 0x726f6f6d}}
			w := newRoomWalk(t, ch)
			w.play(events, time.Hour)
			w.checkRecordings()
			if w.failure != "" {
				if *walkCorpusDir != "" {
					saveWalkCorpus(t, *walkCorpusDir, fmt.Sprintf("rooms-seed-%d", seed), ch.rec)
				}
				t.Fatal(w.report(fmt.Sprintf("seed %d", seed), fmt.Sprintf("go test ./netcode -run 'TestRoomWalk/seed=%d$' -v", seed)))
			}
			rs := w.rc.stats
			t.Logf("%d recordings verified (%d finished, %d interrupted)", w.rc.recs.finished+w.rc.recs.interrupted, w.rc.recs.finished, w.rc.recs.interrupted)
			t.Logf("%d events, %v virtual, %d rounds, %d seated, %d spectated, %d quiet checks; rooms: %d opened (≤ %d at once), %d closed idle, %d faulted, %d kicks, %d matches over, %d rematches, %d full, %d other refusals, %d code joins; events %v",
				w.event, w.stats.virtual, w.stats.rounds, w.stats.seated, w.stats.spectated, w.stats.quietChecks,
				rs.opened, rs.maxOpen, rs.idleClosed, rs.faulted, rs.kicked, rs.over, rs.rematches, rs.full, rs.refused, rs.codeJoins, w.stats.kinds)
		})
	}
}

// FuzzRoomWalk drives the rooms walk from fuzz bytes, as
// FuzzLifecycleWalk drives the single-room walk (at most 400 events or 2
// minutes of virtual time):
//
//	go test ./netcode -run '^$' -fuzz FuzzRoomWalk -fuzztime 60s -fuzzminimizetime 100x
func FuzzRoomWalk(f *testing.F) {
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		w := newRoomWalk(t, &byteChoices{b: b})
		w.play(400, 2*time.Minute)
		w.checkRecordings()
		if w.failure != "" {
			t.Fatal(w.report("fuzz input", "go test ./netcode -run 'FuzzRoomWalk/<corpus file>' -v"))
		}
	})
}
