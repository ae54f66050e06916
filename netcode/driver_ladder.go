package netcode

import (
	"context"
	"errors"
	"strings"
	"time"

	"ttytanks/internal/ladder"
	"ttytanks/internal/rating"
)

// ladderTimeout bounds one job against the ladder's store.
const ladderTimeout = 5 * time.Second

// SetLadder makes the driver run the server's ladder jobs against b, on
// a goroutine of its own (the server's config must have Ladder set).
// Call it before Run; the driver does not close b.
func (d *ServerDriver) SetLadder(b ladder.Board) { d.board = b }

// runLadder runs jobs against the board until stop closes, handing each
// result back to the loop.
func (d *ServerDriver) runLadder(jobs <-chan LadderJob, results chan<- LadderResult, stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case j := <-jobs:
			res := RunLadderJob(d.board, j)
			select {
			case results <- res:
			case <-stop:
				return
			}
		}
	}
}

// handLadder passes the server's queued ladder jobs to the worker; the
// server never queues more than maxLadderJobs, the channel's room, so
// this never blocks.
func (d *ServerDriver) handLadder(jobs chan<- LadderJob) {
	if d.board == nil {
		return
	}
	d.ljobs = d.s.TakeLadderJobs(d.ljobs[:0])
	for _, j := range d.ljobs {
		jobs <- j
	}
}

// RunLadderJob runs one job of a server's ladder against b.
func RunLadderJob(b ladder.Board, j LadderJob) LadderResult {
	ctx, cancel := context.WithTimeout(context.Background(), ladderTimeout)
	defer cancel()
	res := LadderResult{Job: j}
	switch j.Kind {
	case LadderClaim:
		res = claimName(ctx, b, j)
	case LadderRecord:
		res.Outcome, res.Err = recordMatch(ctx, b, j.Match)
	case LadderQuery:
		if j.Query.Forget && !j.ID.IsZero() {
			switch err := b.Forget(ctx, j.ID); {
			case err == nil:
				res.Forgotten = true
			case !errors.Is(err, ladder.ErrNoPlayer):
				res.Err = err
				return res
			}
		}
		if !j.ID.IsZero() {
			if res.Player, res.Has, res.Err = b.Player(ctx, j.ID); res.Err != nil {
				return res
			}
		}
		if res.Ranked, res.Err = b.Ranked(ctx); res.Err != nil {
			return res
		}
		if j.Query.Count > 0 {
			res.Top, res.Err = b.Top(ctx, int(j.Query.Count), int(j.Query.Offset))
		}
	}
	return res
}

// claimName settles a keyed player's name as a seat Request asks it.
// A key with a record renames itself (unless another key holds the name);
// a key without one writes nothing: it may play under a name nobody's
// record holds, and gets its record, and the name, with its first rated
// match. So a name is held by the first key that rated under it, and a
// stream of fresh keys grows the store by nothing. A key without a record
// whose client sent only its default name (the login name), held by
// another key, plays under its key's name (keyName) rather than be
// refused.
func claimName(ctx context.Context, b ladder.Board, j LadderJob) LadderResult {
	res := LadderResult{Job: j}
	p, has, err := b.Player(ctx, j.ID)
	if err != nil {
		res.Err = err
		return res
	}
	name := j.Name
	switch {
	case has && (name == "" || j.DefaultName):
		name = p.Name // none asked: the key's own
	case name == "":
		name = keyName(j.ID) // nor has it one: one made from the key
	}
	if !ladder.ValidName(name) {
		res.Taken = true // (forgotten) and the like: nobody's
		return res
	}
	if has {
		var taken ladder.ErrNameTaken
		switch err := b.ClaimName(ctx, j.ID, name); {
		case errors.As(err, &taken):
			res.Taken = true
			return res
		case err != nil:
			res.Err = err
			return res
		}
		p.Name = name
		res.Player, res.Has = p, true
		return res
	}
	holder, held, err := b.Holder(ctx, name)
	if err == nil && held && holder != j.ID && j.DefaultName && name != keyName(j.ID) {
		// The player named nobody: their login name is another's, so
		// they play under their key's (a squatter of login names turns
		// nobody away).
		name = keyName(j.ID)
		holder, held, err = b.Holder(ctx, name)
	}
	switch {
	case err != nil:
		res.Err = err
	case held && holder != j.ID:
		res.Taken = true
	default:
		res.Player = ladder.PlayerRecord{Key: j.ID, Name: name, Rating: rating.New()}
	}
	return res
}

// recordMatch records m; a key seated twice plays it unrated in both
// seats. A keyed player whose name another key took meanwhile (two new
// keys played under one name and the other rated first; or the player
// renamed their key in another place and another key rated under the old
// name, which would void a match they lose) is rated all the same, under
// the name their record holds or, with none, their key's name (keyName);
// only if that is taken too do they play it unrated, as a guest.
func recordMatch(ctx context.Context, b ladder.Board, m ladder.Match) (ladder.Outcome, error) {
	m.Players = append([]ladder.MatchPlayer(nil), m.Players...)
	// One key in two seats (two clients of one player) is rated in
	// neither: it would play against itself, and the store refuses a
	// key twice, which would leave the others unrated.
	seen := map[ladder.Key]int{}
	for _, p := range m.Players {
		if !p.Key.IsZero() {
			seen[p.Key]++
		}
	}
	for i := range m.Players {
		if seen[m.Players[i].Key] > 1 {
			m.Players[i].Key = ladder.Key{}
		}
	}
	// Each try moves one player on at least: to another name, then to no key.
	for range 2*len(m.Players) + 1 {
		out, err := b.RecordMatch(ctx, m)
		var taken ladder.ErrNameTaken
		if !errors.As(err, &taken) {
			return out, err
		}
		moved := false
		for i := range m.Players {
			p := &m.Players[i]
			if p.Key.IsZero() || !strings.EqualFold(p.Name, taken.Name) {
				continue
			}
			name := keyName(p.Key)
			rec, has, err := b.Player(ctx, p.Key)
			if err != nil {
				return ladder.Outcome{}, err
			}
			if has {
				name = rec.Name
			}
			if strings.EqualFold(name, p.Name) {
				p.Key = ladder.Key{} // its own name is taken too: unrated
			} else {
				p.Name = name
			}
			moved = true
		}
		if !moved {
			return out, err
		}
	}
	return ladder.Outcome{}, errors.New("ladder: record match: names taken")
}

// keyName is the name of a key that asked for none: "player-" and the
// first bytes of the key in hex.
func keyName(k ladder.Key) string {
	const hexDigits = "0123456789abcdef"
	b := []byte("player-")
	for _, c := range k[:4] {
		b = append(b, hexDigits[c>>4], hexDigits[c&15])
	}
	return string(b)
}
