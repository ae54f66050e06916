package cli

import (
	"ttytanks/game"
	"ttytanks/netcode"
)

// headlessStats is what join --headless --stats-json writes.
type headlessStats struct {
	Status          string  `json:"status"`
	Message         string  `json:"message,omitempty"`
	Slot            int     `json:"slot"`
	Seconds         float64 `json:"seconds"`
	Rollbacks       uint64  `json:"rollbacks"`
	ReplayMaxTicks  int     `json:"replay_max_ticks"`
	ReplayP99Micros float64 `json:"replay_cost_p99_us"`
	RTTMillis       float64 `json:"rtt_ms"`
	LossUp          float64 `json:"loss_up"`
	LossDown        float64 `json:"loss_down"`
	InputLead       int32   `json:"input_lead_ticks"`
	MarginP5Millis  float64 `json:"arrival_margin_p5_ms"`
	MarginP50Millis float64 `json:"arrival_margin_p50_ms"`
	StateDelay      int32   `json:"state_delay_ticks"`
	GuessedTicks    uint64  `json:"guessed_ticks"`
	Redundancy      int     `json:"redundancy"`
	HashMismatches  uint64  `json:"hash_mismatches"`
	Resyncs         uint64  `json:"resyncs"`
	FullStates      uint64  `json:"full_states"`
	DeltaStates     uint64  `json:"delta_states"`
	BaseMisses      uint64  `json:"base_misses"`
	Dropped         uint64  `json:"dropped"`
	BytesUpPerSec   float64 `json:"bytes_up_per_s"`
	BytesDownPerSec float64 `json:"bytes_down_per_s"`
	FinalTick       uint32  `json:"final_tick"`
	FinalHash       string  `json:"final_hash"`
	Scores          []int   `json:"scores"`
	RoundsPlayed    int     `json:"rounds"`
	RoundsWithKill  int     `json:"rounds_with_kill"`
	// Room is the room played in; Players every name seen seated in it
	// while playing, in the order they were first seen.
	Room    string   `json:"room"`
	Players []string `json:"players"`
	// Server is the server played on: the one joined, or the one of its
	// fleet it sent the session to.
	Server string `json:"server"`
	// MatchesEnded counts the matches seen to their end (a rematch
	// starts another); Winner and Results are the last one's.
	MatchesEnded int `json:"matches_ended"`
	// Rematches counts the new matches seen to start in the room after
	// one ended.
	Rematches int             `json:"rematches"`
	Winner    string          `json:"winner,omitempty"`
	Results   []playerResults `json:"results,omitempty"`

	// The rounds of the matches seen to their end, for RoundsPlayed and
	// RoundsWithKill.
	endedRounds, endedKills int
}

// roundsOf returns the rounds of v's match finished so far and how many
// ended with a kill: a round's winner scores only by a kill (a round that
// runs out of time is a draw).
func roundsOf(v *netcode.View) (played, withKill int) {
	if r := v.World.Round; r.Number > 0 {
		played = int(r.Number) - 1
		if r.Phase == game.PhaseOver || r.Phase == game.PhaseMatchOver {
			played++
		}
	}
	for i := 0; i < int(v.World.Slots); i++ {
		withKill += int(v.World.Tanks[i].Score)
	}
	return played, withKill
}

// playerResults is one player's line of a finished match.
type playerResults struct {
	Name      string `json:"name"`
	RoundWins int    `json:"round_wins"`
	Kills     int    `json:"kills"`
	Deaths    int    `json:"deaths"`
	Shots     int    `json:"shots"`
	Hits      int    `json:"hits"`
}

// noteResults records the results of a match that has just ended in v.
func (h *headlessStats) noteResults(v *netcode.View) {
	w := &v.World
	h.MatchesEnded++
	played, kills := roundsOf(v)
	h.endedRounds += played
	h.endedKills += kills
	h.Winner, h.Results = "", h.Results[:0]
	if win := int(w.Round.Winner); win >= 0 && win < int(w.Slots) {
		h.Winner = v.Names[win]
	}
	for i := 0; i < int(w.Slots); i++ {
		t := &w.Tanks[i]
		if !t.Seated {
			continue
		}
		h.Results = append(h.Results, playerResults{Name: v.Names[i], RoundWins: int(t.Score), Kills: int(t.Stats.Kills),
			Deaths: int(t.Stats.Deaths), Shots: int(t.Stats.Shots), Hits: int(t.Stats.Hits)})
	}
}
