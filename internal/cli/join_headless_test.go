package cli

import (
	"context"
	"errors"
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/netcode"
)

// TestHeadlessSaysWhyNoMatchStarted: a headless run that saw no match
// says why in its own words: the server's, if the session ended; that it
// was interrupted only when a signal (the context's cause) says so; and
// otherwise how long it waited, what for, and that --duration counts
// from the match's start.
func TestHeadlessSaysWhyNoMatchStarted(t *testing.T) {
	interrupted, stop := context.WithCancelCause(context.Background())
	stop(errors.New("interrupt signal received"))
	for _, tc := range []struct {
		name string
		ctx  context.Context
		end  string
		need int
		want string
	}{
		{"the start's wait ran out", context.Background(), "", 1,
			"no match started in 12s (--duration 2s counts from the start, which may take 10s more): the room still waits for 1 more player"},
		{"waiting for two", context.Background(), "", 2,
			"no match started in 12s (--duration 2s counts from the start, which may take 10s more): the room still waits for 2 more players"},
		{"the session ended", context.Background(), "the room is full", 0, "the room is full"},
		{"a signal", interrupted, "", 1, "interrupted before the match started (interrupt signal received)"},
	} {
		if got := noStartMessage(tc.ctx, tc.end, tc.need, 2*time.Second); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestHeadlessReportsItsPlay: a session that ends back in a waiting room
// (its opponent gone) reports the figures of its play, the newest view's
// status, and the rounds of the match it played once.
func TestHeadlessReportsItsPlay(t *testing.T) {
	var h headlessWatch
	h.v.Status = netcode.StatusPlaying
	h.v.Room = "a"
	h.v.Names[0], h.v.Names[1] = "erin", "bob"
	h.v.World.Tick, h.v.World.Slots = 1000, 2
	h.v.World.Round.Number, h.v.World.Round.Phase = 3, game.PhasePlaying
	h.v.World.Tanks[0].Score = 2
	h.v.Metrics.InputLead, h.v.Metrics.StateDelay, h.v.Metrics.ArrivalMarginP50 = 5, 4, 12*time.Millisecond
	h.observe()
	h.v = netcode.View{Status: netcode.StatusWaiting, Room: "a"} // the opponent left: a waiting room, zeros
	h.observe()
	got := h.stats()
	if got.Status != netcode.StatusWaiting.String() || got.InputLead != 5 || got.StateDelay != 4 || got.MarginP50Millis != 12 ||
		got.FinalTick != 1000 || len(got.Scores) != 2 || got.Scores[0] != 2 || got.RoundsPlayed != 2 || got.RoundsWithKill != 2 {
		t.Errorf("after play, back in a waiting room: %+v", got)
	}
}
