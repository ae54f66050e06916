package cli

import (
	"testing"

	"ttytanks/game"
	"ttytanks/netcode"
)

// TestPlayResultsWait: play's embedded server keeps the results up until
// the player votes or quits, and takes the configuration.
func TestPlayResultsWait(t *testing.T) {
	cfg := playConfig(serverFlags{addr: "127.0.0.1:0", players: 2, bots: 1, maze: mazeSize{game.DefaultMazeW, game.DefaultMazeH},
		stateEvery: 2, rooms: 1, maxRooms: 1, rounds: 5})
	if cfg.ResultsFor >= 0 {
		t.Fatalf("play's results stay up for %v; want until the player's r or q (negative)", cfg.ResultsFor)
	}
	if _, err := netcode.NewServer(cfg); err != nil {
		t.Fatal(err)
	}
}
