package netcode

import (
	"context"
	"errors"
	"time"

	"ttytanks/internal/ladder"
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
		name := j.Name
		if name == "" {
			// No name asked: the one the key holds, or one of its own.
			p, ok, err := b.Player(ctx, j.ID)
			if err != nil {
				res.Err = err
				return res
			}
			name = p.Name
			if !ok {
				name = keyName(j.ID)
			}
		}
		err := b.ClaimName(ctx, j.ID, name)
		var taken ladder.ErrNameTaken
		switch {
		case errors.As(err, &taken):
			res.Taken = true
			return res
		case err != nil:
			res.Err = err
			return res
		}
		res.Player, res.Has, res.Err = b.Player(ctx, j.ID)
		if res.Player.Name == "" {
			res.Player.Name = name
		}
	case LadderRecord:
		res.Outcome, res.Err = b.RecordMatch(ctx, j.Match)
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
