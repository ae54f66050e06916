package bot

import (
	"testing"

	"ttytanks/game"
)

// benchStates plays two bots on the default maze and returns the
// mid-round states seen over several rounds with their mazes, so the
// benchmark covers chasing, shooting and dodging alike.
func benchStates(tb testing.TB) ([]game.Snapshot, []*game.Maze) {
	w, err := game.NewWorld(game.Config{Slots: 2, Seed: 42})
	if err != nil {
		tb.Fatal(err)
	}
	bots := []*Bot{New(1), New(2)}
	in := make([]game.Input, 2)
	var states []game.Snapshot
	var mazes []*game.Maze
	for k := 0; k < 3600; k++ {
		s := w.State()
		if s.Round.Phase == game.PhasePlaying {
			if len(mazes) == 0 || mazes[len(mazes)-1].Seed != s.Round.MazeSeed {
				m := *w.Maze()
				mazes = append(mazes, &m)
			}
			states = append(states, *s)
		}
		for i := range in {
			in[i] = bots[i].Input(s, w.Maze(), i)
		}
		w.Step(in)
	}
	if len(mazes) < 3 {
		tb.Fatalf("only %d rounds", len(mazes))
	}
	return states, mazes
}

func BenchmarkBotInput(b *testing.B) {
	states, mazes := benchStates(b)
	mazeOf := func(s *game.Snapshot) *game.Maze {
		for _, m := range mazes {
			if m.Seed == s.Round.MazeSeed {
				return m
			}
		}
		b.Fatal("no maze")
		return nil
	}
	ms := make([]*game.Maze, len(states))
	for i := range states {
		ms[i] = mazeOf(&states[i])
	}
	bot := New(7)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(states)
		bot.Input(&states[k], ms[k], i&1)
	}
}
