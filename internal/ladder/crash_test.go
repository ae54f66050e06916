package ladder

import (
	"context"
	"fmt"
	"os"
)

// crashChildEnv names, in the crash test's child, the database it records
// matches into.
const crashChildEnv = "TTYTANKS_LADDER_CRASH_CHILD"

// crashPlayers is the number of players of each of the child's matches.
const crashPlayers = 4

// crashChild records rated matches of crashPlayers into the store at path
// until it is killed, writing each match's id to stdout, a line each,
// once the match is committed. The matches are made beforehand, so that
// the loop is almost all transaction and a kill most likely lands inside
// one. It returns an exit code: it should never return, so 0 is not one.
func crashChild(path string) int {
	s, err := Open(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	const players = 10
	var keys [players]Key
	for k := range keys {
		keys[k] = testKey(k)
	}
	var matches [players * 5]Match
	for i := range matches {
		m := Match{PlayedAt: testEpoch, Room: "crash", Rounds: 5}
		for j := range crashPlayers {
			k := (i + j) % players
			m.Players = append(m.Players, MatchPlayer{
				Key: keys[k], Name: fmt.Sprintf("p%d", k), Slot: j,
				RoundWins: (i + 3*j) % 5, Kills: j, Deaths: 1, Shots: 10, Hits: j, Seconds: 30,
			})
		}
		matches[i] = m
	}
	ctx := context.Background()
	line := make([]byte, 0, 24)
	for i := range 1_000_000 {
		out, err := s.RecordMatch(ctx, matches[i%len(matches)])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		if _, err := os.Stdout.Write(fmt.Appendf(line[:0], "%d\n", out.Match)); err != nil {
			return 2
		}
	}
	return 3
}
