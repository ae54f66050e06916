package netcode

import (
	"crypto/ed25519"
	"errors"
	"time"

	"ttytanks/internal/ladder"
	"ttytanks/netcode/transport"
	"ttytanks/proto"
)

// The ladder (PROTOCOL.md §4.15): who each player is, their names, the
// matches they played and their ratings. The store is I/O, so the core
// never touches it: it queues LadderJobs, which the driver takes
// (TakeLadderJobs), runs against a ladder.Board and hands back
// (LadderDone). Until a seat Request's name is claimed, the Request
// waits; its repeats are dropped.

// LadderJobKind says what a LadderJob asks of the ladder.
type LadderJobKind uint8

// Ladder jobs.
const (
	// LadderClaim: a keyed player asks for a seat under Name (empty, or
	// DefaultName: the name their record holds; empty and no record: one
	// made from their key).
	LadderClaim LadderJobKind = iota + 1
	// LadderRecord: a ranked room's match ended: record and rate Match.
	LadderRecord
	// LadderQuery: a page of the leaderboard and the asker's card;
	// Query.Forget deletes the asker's record first.
	LadderQuery
)

// LadderJob is one piece of the ladder's work, for the driver to run.
type LadderJob struct {
	Kind LadderJobKind
	// Conn is the connection the answer goes to (claims and queries).
	Conn uint32
	// ID is the player (claims and queries); zero for a guest's query.
	ID   ladder.Key
	Name string
	// DefaultName (claims) says Name is the client's default, not one
	// the player chose: a key with a record keeps the name it holds.
	DefaultName bool
	// Match and MatchID are a LadderRecord's: the match and the id of
	// the room's match, to tell it the outcome.
	Match   ladder.Match
	MatchID uint32
	Query   proto.LadderQuery
	// Tries counts a LadderRecord's runs that failed: a record the store
	// refused is queued again, recordTries times in all.
	Tries int
}

// LadderResult is a LadderJob done: Err, or what the ladder said.
type LadderResult struct {
	Job LadderJob
	Err error
	// Taken: a claim's name is another key's.
	Taken bool
	// Player is the claimant's or the asker's record, if Has.
	Player ladder.PlayerRecord
	Has    bool
	// Outcome is a record's.
	Outcome ladder.Outcome
	// Ranked and Top are a query's: the leaderboard's length and its page.
	Ranked    int
	Top       []ladder.PlayerRecord
	Forgotten bool
}

// Bounds of the ladder's work.
const (
	// maxLadderJobs is how many jobs may be out at once; beyond, a
	// Request or a LadderQuery that needs one is dropped (counted as
	// ladder): its client repeats it.
	maxLadderJobs = 256
	// maxLadderQueries is how many of them may be LadderQueries: a page
	// of a large ladder takes the store milliseconds, so viewers asking
	// as often as they may would otherwise fill the queue, and claims
	// (keyed players waiting for a seat) and records would be dropped.
	maxLadderQueries = 32
	// ladderRecordRoom is how many places at the queue's end only a
	// match's record may take: a match is never dropped for claims.
	ladderRecordRoom = 64
	// recordTries is how many times a match's record is run before it is
	// given up: with ladderTimeout each, a store locked for a minute (by
	// another process holding a write) loses no match. (A failed SQLite
	// write wrote nothing; a Redis EXEC whose reply was lost may have
	// written, and its retry counts the match twice: rarer than a lost
	// record, and a match id the store checks would be the cure.)
	recordTries = 12
	// ladderQueryGap is the least time between two answered
	// LadderQueries of one connection.
	ladderQueryGap = 250 * time.Millisecond
	// claimMemory is how long a claim's answer is kept for the Request's
	// repeats (and a query's time for its connection's next).
	claimMemory = 30 * time.Second
	// ratedEvery is how often a finished rated match tells its peers
	// their ratings (Rated), while its results show.
	ratedEvery = 500 * time.Millisecond
)

// claimState is where a seat Request's name claim stands.
type claimState uint8

const (
	claimWaiting claimState = iota // a job is out
	claimOK                        // the name is the key's: seat it
	claimTaken                     // another key holds it: Reject 15
	claimFailed                    // the ladder failed: seat it unrated
)

// ladderClaim is a seat Request waiting for, or answered by, its claim.
type ladderClaim struct {
	q      proto.Request
	id     ladder.Key
	state  claimState
	name   string  // the name to seat under, once claimed
	rating float64 // the player's rating, once claimed
	at     time.Time
}

// ladderDesk is the ladder's part of the server: the jobs out, the
// claims in flight, each connection's last query.
type ladderDesk struct {
	on      bool
	jobs    []LadderJob
	out     int // jobs taken by the driver, not yet done
	queries int // LadderQuery jobs queued or out
	claims  map[uint32]*ladderClaim
	queried map[uint32]time.Time
	swept   time.Time
	// recorded, rated and failed count the matches recorded, those of
	// them rated, and the jobs that failed.
	recorded, rated, failed uint64
}

// figures returns the ladder's figures.
func (d *ladderDesk) figures() LadderStats {
	return LadderStats{On: d.on, Pending: d.out + len(d.jobs), Recorded: d.recorded, Rated: d.rated, Failed: d.failed}
}

func newLadderDesk(on bool) ladderDesk {
	return ladderDesk{on: on, claims: map[uint32]*ladderClaim{}, queried: map[uint32]time.Time{}}
}

// keeps reports whether the server keeps a ladder.
func (d *ladderDesk) keeps() bool { return d.on }

// busy reports whether no job of kind k may be queued now: the queue is
// full, its last ladderRecordRoom places are the records', and queries
// take maxLadderQueries of it at most.
func (d *ladderDesk) busy(k LadderJobKind) bool {
	n := d.out + len(d.jobs)
	switch k {
	case LadderRecord:
		return n >= maxLadderJobs
	case LadderQuery:
		return n >= maxLadderJobs-ladderRecordRoom || d.queries >= maxLadderQueries
	default:
		return n >= maxLadderJobs-ladderRecordRoom
	}
}

// queue adds a job, unless busy.
func (d *ladderDesk) queue(j LadderJob) bool {
	if !d.on || d.busy(j.Kind) {
		return false
	}
	d.jobs = append(d.jobs, j)
	if j.Kind == LadderQuery {
		d.queries++
	}
	return true
}

// take hands the queued jobs to dst.
func (d *ladderDesk) take(dst []LadderJob) []LadderJob {
	dst = append(dst, d.jobs...)
	d.out += len(d.jobs)
	d.jobs = d.jobs[:0]
	return dst
}

// done notes one job back, with its result.
func (d *ladderDesk) done(res *LadderResult) {
	if d.out > 0 {
		d.out--
	}
	if res.Job.Kind == LadderQuery && d.queries > 0 {
		d.queries--
	}
	switch {
	case res.Err != nil:
		d.failed++
	case res.Job.Kind == LadderRecord:
		d.recorded++
		if res.Outcome.Rated {
			d.rated++
		}
	}
}

// claim returns the claim of connection conn's seat Request q by player
// id at now, queueing its job the first time; ok is false if it cannot
// be queued (busy).
func (d *ladderDesk) claim(conn uint32, q *proto.Request, id ladder.Key, now time.Time) (cl *ladderClaim, ok bool) {
	if cl := d.claims[conn]; cl != nil && cl.id == id {
		return cl, true
	}
	name := proto.SanitizeName(q.Name)
	if !d.queue(LadderJob{Kind: LadderClaim, Conn: conn, ID: id, Name: name, DefaultName: q.DefaultName}) {
		return nil, false
	}
	cl = &ladderClaim{q: *q, id: id, at: now}
	d.claims[conn] = cl
	return cl, true
}

// claimed takes a claim's answer; it returns the claim, nil if it was
// forgotten meanwhile.
func (d *ladderDesk) claimed(res *LadderResult, now time.Time) *ladderClaim {
	cl := d.claims[res.Job.Conn]
	if cl == nil || cl.id != res.Job.ID || cl.state != claimWaiting {
		return nil
	}
	cl.at = now
	switch {
	case res.Taken:
		cl.state = claimTaken
	case res.Err != nil:
		cl.state, cl.name = claimFailed, res.Job.Name
	default:
		cl.state, cl.name, cl.rating = claimOK, res.Player.Name, res.Player.Rating.R
	}
	return cl
}

// mayQuery reports whether connection conn may have a LadderQuery
// answered at now, and if so notes it.
func (d *ladderDesk) mayQuery(conn uint32, now time.Time) bool {
	if at, ok := d.queried[conn]; ok && now.Sub(at) < ladderQueryGap {
		return false
	}
	d.queried[conn] = now
	return true
}

// sweep forgets the claims and query times older than claimMemory.
func (d *ladderDesk) sweep(now time.Time) {
	if now.Sub(d.swept) < time.Second {
		return
	}
	d.swept = now
	for id, cl := range d.claims {
		if cl.state != claimWaiting && now.Sub(cl.at) > claimMemory {
			delete(d.claims, id)
		}
	}
	for id, at := range d.queried {
		if now.Sub(at) > claimMemory {
			delete(d.queried, id)
		}
	}
}

// GuestName is the name a guest plays under on a server with a ladder:
// its own with "~" in front, which no ladder name has, so a guest never
// passes for a player of the ladder.
func GuestName(name string) string {
	if name == "" {
		return ""
	}
	return proto.SanitizeName("~" + name)
}

// pageOf is the LadderPage of a query's result.
func pageOf(res *LadderResult) *proto.LadderPage {
	p := &proto.LadderPage{Ranked: uint32(max(res.Ranked, 0)), Forgotten: res.Forgotten, Offset: res.Job.Query.Offset}
	if res.Has {
		r := res.Player
		p.HasCard = true
		p.Card = proto.LadderCard{LadderLine: lineOf(&r),
			RoundWins: u32(r.RoundWins), Kills: u32(r.Kills), Deaths: u32(r.Deaths), Shots: u32(r.Shots), Hits: u32(r.Hits), Seconds: u32(r.SecondsPlayed)}
	}
	for i := range res.Top {
		if len(p.Lines) == proto.MaxLadderPage {
			break
		}
		p.Lines = append(p.Lines, lineOf(&res.Top[i]))
	}
	return p
}

func lineOf(r *ladder.PlayerRecord) proto.LadderLine {
	return proto.LadderLine{Rank: u32(r.Rank), Rating: points(r.Rating.R), RD: points(r.Rating.RD),
		Matches: u32(r.Matches), Wins: u32(r.Wins), Name: proto.SanitizeName(r.Name)}
}

// points rounds a rating to whole points within a u16.
func points(x float64) uint16 { return uint16(min(max(x+0.5, 0), 65535)) }

func u32(n int) uint32 { return uint32(min(max(n, 0), 1<<32-1)) }

// ratedOf is the Rated of a record's outcome, by slot.
func ratedOf(matchID uint32, m *ladder.Match, o *ladder.Outcome) *proto.Rated {
	p := &proto.Rated{Header: proto.Header{Match: matchID}}
	if !o.Rated {
		return p
	}
	for slot := 0; slot < 8; slot++ {
		for i := range o.Players {
			if i < len(m.Players) && m.Players[i].Slot == slot && o.Players[i].Rated {
				po := o.Players[i]
				p.Changes = append(p.Changes, proto.RatingChange{Slot: uint8(slot), Before: points(po.Before.R), After: points(po.After.R), RD: points(po.After.RD)})
			}
		}
	}
	return p
}

// ladderName returns the name, player and rating a Request of connection
// c is given a place under: on a server with a ladder, a guest's name is
// ~name, and a keyed player's seat waits for the ladder to say the name is
// theirs (LadderDone admits it again), and so does a keyed spectator's or
// lobby viewer's, whose name its chat shows; ok is false while it waits and
// when it is refused (the refusal is sent).
func (s *Server) ladderName(now time.Time, c *conn, q *proto.Request) (name string, who ladder.Key, rating float64, ok bool) {
	name, who = proto.SanitizeName(q.Name), c.player()
	if !s.ladder.on {
		return name, who, 0, true
	}
	if who.IsZero() {
		return GuestName(name), who, 0, true
	}
	// A keyed spectator's or lobby viewer's name is checked as a
	// player's: it shows in chat as theirs.
	cl, queued := s.ladder.claim(c.id(), q, who, now)
	if !queued {
		s.drop(DropLadder)
		return "", who, 0, false
	}
	switch st, claimedName, r := cl.outcome(); st {
	case claimWaiting:
		return "", who, 0, false
	case claimTaken:
		s.out.sealed(c.id(), &proto.Reject{Reason: proto.RejectNameTaken})
		return "", who, 0, false
	case claimFailed:
		return GuestName(claimedName), ladder.Key{}, 0, true // the ladder failed: unrated, as a guest
	default:
		return claimedName, who, r, true
	}
}

// outcome returns where the claim stands, and once claimed the name and
// rating to seat under.
func (cl *ladderClaim) outcome() (claimState, string, float64) { return cl.state, cl.name, cl.rating }

// TakeLadderJobs appends the ladder's queued jobs to dst, for the driver
// to run (each answered with LadderDone).
func (s *Server) TakeLadderJobs(dst []LadderJob) []LadderJob { return s.ladder.take(dst) }

// LadderDone takes a job's result at now and returns the datagrams it
// makes: a claimed Request's answer, a LadderPage, a room's Rated.
func (s *Server) LadderDone(now time.Time, res LadderResult) []transport.Datagram {
	s.out.reset()
	s.ladder.done(&res)
	switch res.Job.Kind {
	case LadderClaim:
		if res.Err != nil {
			s.log.Warn("ladder: a name's claim failed: the player plays unrated", "name", res.Job.Name, "err", res.Err)
		}
		cl := s.ladder.claimed(&res, now)
		if c := s.conns.lookup(res.Job.Conn); cl != nil && c != nil {
			s.admit(now, c, &cl.q)
		}
	case LadderRecord:
		if res.Err != nil {
			j := res.Job
			j.Tries++
			if j.Tries < recordTries && !unrecordable(res.Err) && s.ladder.queue(j) {
				s.log.Warn("ladder: a match's record failed: trying again", "room", j.Match.Room, "tries", j.Tries, "err", res.Err)
				break
			}
			s.log.Error("ladder: a match was not recorded", "room", j.Match.Room, "err", res.Err)
			break
		}
		s.log.Info("match recorded", "room", res.Job.Match.Room, "id", res.Outcome.Match, "rated", res.Outcome.Rated)
		if r := s.rooms.byMatch(res.Job.MatchID); r != nil {
			p := ratedOf(res.Job.MatchID, &res.Job.Match, &res.Outcome)
			s.inRoom(r, func() { r.takeRated(p, now) })
		}
	case LadderQuery:
		if res.Err != nil {
			s.log.Warn("ladder: a query failed", "err", res.Err)
			break
		}
		if s.conns.lookup(res.Job.Conn) != nil {
			s.out.sealed(res.Job.Conn, pageOf(&res))
		}
	}
	return s.out.datagrams()
}

// unrecordable reports whether err says the match itself cannot be
// recorded (no store will take it), rather than the store failed.
func unrecordable(err error) bool {
	return errors.Is(err, ladder.ErrMatch) || errors.Is(err, ladder.ErrName) || errors.Is(err, ladder.ErrKey)
}

// onLadderQuery takes a LadderQuery of a peer that holds a place.
func (s *Server) onLadderQuery(now time.Time, c *conn, h proto.Header, b []byte) {
	q, err := proto.ParseLadderQueryBody(h, b)
	if err != nil {
		s.drop(dropReasonFor(err))
		return
	}
	if r, _, _ := s.rooms.byConn(c.addr(), c.id()); r == nil {
		s.drop(DropUnknownPlayer)
		return
	}
	if !s.ladder.mayQuery(c.id(), now) {
		s.drop(DropRateLimited)
		return
	}
	if !s.ladder.on {
		s.out.sealed(c.id(), &proto.LadderPage{Off: true})
		return
	}
	if !s.ladder.queue(LadderJob{Kind: LadderQuery, Conn: c.id(), ID: c.player(), Query: q}) {
		s.drop(DropLadder)
	}
}

// recordMatch queues a ranked room's finished match.
func (s *Server) recordMatch(matchID uint32, m ladder.Match) {
	if !s.ladder.queue(LadderJob{Kind: LadderRecord, MatchID: matchID, Match: m}) {
		s.log.Error("ladder: a match was not recorded: the ladder's queue is full", "room", m.Room)
	}
}

// vouches reports whether key may vouch for a player: this server's own
// key, or a server of its fleet.
func (s *Server) vouches(key [proto.ServerKeyLen]byte) bool {
	if string(key[:]) == string(s.cfg.Key.Public().(ed25519.PublicKey)) {
		return true
	}
	return s.fleet.knows(key)
}
