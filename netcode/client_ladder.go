package netcode

import (
	"time"

	"ttytanks/proto"
)

// The ladder as a client sees it (PROTOCOL.md §4.15): a LadderQuery
// repeated until its LadderPage comes, and the Rated of the match just
// played.

// Ladder query repeats: a query not answered within ladderRepeat is sent
// again, ladderTries times in all.
const (
	ladderRepeat = time.Second
	ladderTries  = 4
)

// LadderView is what the client knows of the server's ladder.
type LadderView struct {
	// Asking is true while a query waits for its answer.
	Asking bool
	// Has says Page holds the server's answer to the newest query
	// answered, at At.
	Has  bool
	Page proto.LadderPage
	At   time.Time
	// Unanswered is true once a query was sent ladderTries times in
	// vain: the server keeps no ladder it would say, or is gone.
	Unanswered bool
}

// ladderBox is the client's part of the ladder: the query out, its
// answer, and the ratings of the last match.
type ladderBox struct {
	want   proto.LadderQuery
	asking bool
	sentAt time.Time
	tries  int
	view   LadderView
	// rated is the newest Rated taken, for match ratedMatch.
	rated      []proto.RatingChange
	ratedMatch uint32
	hasRated   bool
}

// ask queues a query, replacing any not yet answered.
func (b *ladderBox) ask(q proto.LadderQuery) {
	b.want, b.asking, b.tries, b.sentAt = q, true, 0, time.Time{}
	b.view.Asking, b.view.Unanswered = true, false
}

// due calls send with the query when it is due at now.
func (b *ladderBox) due(now time.Time, send func(q *proto.LadderQuery)) {
	if !b.asking || (!b.sentAt.IsZero() && now.Sub(b.sentAt) < ladderRepeat) {
		return
	}
	if b.tries == ladderTries {
		b.asking, b.view.Asking, b.view.Unanswered = false, false, true
		return
	}
	b.tries++
	b.sentAt = now
	q := b.want
	send(&q)
}

// answered takes a LadderPage at now; one that comes with no query out
// is a late copy, and is taken too (it is newer than what is shown).
func (b *ladderBox) answered(p *proto.LadderPage, now time.Time) {
	b.asking = false
	b.view = LadderView{Has: true, Page: *p, At: now}
}

// takeRated takes a Rated of match; repeats of a match taken are
// ignored. It reports whether it was new.
func (b *ladderBox) takeRated(p *proto.Rated) bool {
	if b.hasRated && b.ratedMatch == p.Match {
		return false
	}
	b.rated, b.ratedMatch, b.hasRated = append(b.rated[:0], p.Changes...), p.Match, true
	return true
}

// fill copies what the view shows: the ladder, and whether match was
// recorded and its rating changes (none if the last Rated was of
// another).
func (b *ladderBox) fill(dst *View, match uint32) {
	dst.Ladder = b.view
	dst.Rated = dst.Rated[:0]
	dst.Recorded = b.hasRated && b.ratedMatch == match
	if dst.Recorded {
		dst.Rated = append(dst.Rated, b.rated...)
	}
}

// AskLadder asks the server for count lines of its leaderboard from the
// offset-th best (0 the best; count 0: only our card), and, with forget,
// to delete our record first. The answer shows in View.Ladder. A query
// goes out while the client holds a place (a seat, a spectator's, the
// lobby's), and repeats until answered.
func (c *Client) AskLadder(offset, count int, forget bool) {
	c.ladder.ask(proto.LadderQuery{Offset: uint32(max(offset, 0)), Count: uint8(min(max(count, 0), proto.MaxLadderPage)), Forget: forget})
}
