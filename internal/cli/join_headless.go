package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"ttytanks/game"
	"ttytanks/netcode"
)

// runHeadless plays without a screen for d, in room, and reports the
// metrics: as JSON to file, or to stdout when file is "". It returns the
// exit code: 1 when the match did not start or the session ended early.
func runHeadless(ctx context.Context, cs *clientSetup, room netcode.RoomRequest, d time.Duration, file string, stdout, stderr io.Writer) int {
	cd, err := startClient(cs, room)
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks: %v\n", err)
		return 1
	}
	defer func() {
		if ctx.Err() != nil {
			cd.CloseNow() // told to stop: exit at once
		} else {
			cd.Close() // the duration is up: the seat is free when we exit
		}
	}()
	h := headlessWatch{notices: stderr}
	h.watch(ctx, cd, d)
	cd.View(&h.v)
	out := h.stats()
	b, _ := json.MarshalIndent(out, "", "  ")
	if file != "" {
		if err := os.WriteFile(file, append(b, '\n'), 0o644); err != nil {
			fmt.Fprintf(stderr, "ttytanks: %v\n", err)
			return 1
		}
	} else {
		fmt.Fprintln(stdout, string(b))
	}
	switch {
	case h.start.IsZero():
		fmt.Fprintf(stderr, "ttytanks: %s\n", noStartMessage(ctx, endMessage(cd, cs.target), h.v.Need, d))
		return 1
	case h.v.Status == netcode.StatusClosed:
		fmt.Fprintf(stderr, "ttytanks: %s\n", h.v.Message) // the session ended early
		return 1
	}
	return 0
}

// startWait is how long a headless run waits for its match to start,
// beyond its duration, which counts from the start.
const startWait = 10 * time.Second

// noStartMessage says why a headless run of duration d saw no match
// start: a signal that ended ctx (its cause names it), else end, why the
// session ended, else that the wait ran out with need more players to
// come.
func noStartMessage(ctx context.Context, end string, need int, d time.Duration) string {
	switch {
	case ctx.Err() != nil:
		return "interrupted before the match started (" + context.Cause(ctx).Error() + ")"
	case end != "":
		return end
	}
	msg := fmt.Sprintf("no match started in %v (--duration %v counts from the start, which may take %v more)", d+startWait, d, startWait)
	switch {
	case need == 1:
		msg += ": the room still waits for 1 more player"
	case need > 1:
		msg += fmt.Sprintf(": the room still waits for %d more players", need)
	}
	return msg
}

// headlessWatch is what a headless session has seen.
type headlessWatch struct {
	start      time.Time     // when the match was first seen playing (zero: never)
	firstBytes [2]uint64     // the bytes up and down at start
	results    headlessStats // the finished matches' figures
	over       bool          // the match in view is over
	seen       []string      // the names seen seated
	v          netcode.View  // the newest view
	// played is the newest view while playing, and playedOver whether
	// its match was over then: a session that ends back in a waiting
	// room (its opponents gone) reports the figures of its play, not a
	// waiting room's zeros.
	played     netcode.View
	playedOver bool
	// notices receives each new View.Notice (a seat lost to a freeze
	// of this computer, a new one taken), as it comes.
	notices io.Writer
	notice  string
	code    string // the private room's join code, once told
}

// watch looks at the session 20 times a second until ctx ends, the
// session does, or d has passed since the match started (d and 10 s more
// for it to start).
func (h *headlessWatch) watch(ctx context.Context, cd *netcode.ClientDriver, d time.Duration) {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	deadline := time.NewTimer(d + startWait) // the match must also start
	defer deadline.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-cd.Done():
			return
		case <-deadline.C:
			return
		case <-tick.C:
		}
		cd.View(&h.v)
		if n := h.v.Notice; n != h.notice && h.notices != nil {
			h.notice = n
			fmt.Fprintf(h.notices, "ttytanks: %s\n", n)
		}
		if c := h.v.Code; c != "" && c != h.code && h.notices != nil {
			h.code = c // a private room: its code is how others join it
			fmt.Fprintf(h.notices, "ttytanks: private room %q: join code %s (ttytanks join HOST --code %s)\n", h.v.Room, c, c)
		}
		if h.observe() {
			deadline.Reset(d)
		}
	}
}

// observe takes note of the newest view: the end of a match, a rematch,
// the players seated. It reports whether the match has just been seen
// playing for the first time.
func (h *headlessWatch) observe() (started bool) {
	v := &h.v
	if ended := v.World.Round.Phase == game.PhaseMatchOver && v.Status == netcode.StatusPlaying; ended != h.over {
		if h.over = ended; ended {
			h.results.noteResults(v)
		} else if v.Status == netcode.StatusPlaying || v.Status == netcode.StatusWaiting {
			h.results.Rematches++
		}
	}
	if v.Status != netcode.StatusPlaying {
		return false
	}
	h.played, h.playedOver = *v, h.over
	for _, n := range v.Names {
		if n != "" && !slices.Contains(h.seen, n) {
			h.seen = append(h.seen, n)
		}
	}
	if h.start.IsZero() {
		h.start = time.Now()
		h.firstBytes = [2]uint64{v.Metrics.BytesUp, v.Metrics.BytesDown}
		return true
	}
	return false
}

// stats is the report of what was seen, as of the newest view.
func (h *headlessWatch) stats() headlessStats {
	// The figures of play are the newest playing view's, the status and
	// message the newest view's.
	now := &h.v
	v, over := now, h.over
	if now.Status != netcode.StatusPlaying && !h.start.IsZero() {
		v, over = &h.played, h.playedOver
	}
	m := v.Metrics
	secs := time.Since(h.start).Seconds()
	if h.start.IsZero() {
		secs = 0
	}
	results := &h.results
	out := headlessStats{Status: now.Status.String(), Message: now.Message, Slot: v.Slot, Seconds: secs,
		Rollbacks: m.Rollbacks, ReplayMaxTicks: m.ReplayMax, ReplayP99Micros: float64(m.ReplayCostP99) / 1e3,
		RTTMillis: float64(m.RTT) / 1e6, LossUp: m.LossUp, LossDown: m.LossDown, HashMismatches: m.HashMismatches,
		InputLead: m.InputLead, MarginP5Millis: float64(m.ArrivalMarginP5) / 1e6, MarginP50Millis: float64(m.ArrivalMarginP50) / 1e6,
		StateDelay: m.StateDelay, GuessedTicks: m.Guessed, Redundancy: m.Redundancy,
		Resyncs: m.Resyncs, FullStates: m.FullStates, DeltaStates: m.DeltaStates, BaseMisses: m.BaseMisses, Dropped: m.Dropped, FinalTick: uint32(v.World.Tick), FinalHash: fmt.Sprintf("%016x", game.Hash(&v.World)),
		Room: v.Room, Players: append([]string{}, h.seen...), Server: now.Server.String(), MatchesEnded: results.MatchesEnded, Rematches: results.Rematches,
		Winner: results.Winner, Results: results.Results}
	// Rounds finished in every match played, the one in view included
	// unless it is the last one seen to its end.
	out.RoundsPlayed, out.RoundsWithKill = results.endedRounds, results.endedKills
	if !over {
		played, kills := roundsOf(v)
		out.RoundsPlayed += played
		out.RoundsWithKill += kills
	}
	if secs > 0 {
		out.BytesUpPerSec = float64(m.BytesUp-h.firstBytes[0]) / secs
		out.BytesDownPerSec = float64(m.BytesDown-h.firstBytes[1]) / secs
	}
	for i := 0; i < int(v.World.Slots); i++ {
		out.Scores = append(out.Scores, int(v.World.Tanks[i].Score))
	}
	return out
}
