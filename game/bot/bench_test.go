package bot

import (
	"testing"

	"ttytanks/game"
)

// benchStates plays two bots for a while on the default maze and returns
// the mid-round states seen, so the benchmark covers chasing, shooting and
// dodging alike.
func benchStates(tb testing.TB) (*game.World, []game.Snapshot) {
	w, err := game.NewWorld(game.Config{Slots: 2, Seed: 42})
	if err != nil {
		tb.Fatal(err)
	}
	bots := []*Bot{New(1), New(2)}
	in := make([]game.Input, 2)
	var states []game.Snapshot
	for k := 0; k < 1200 && len(states) < 512; k++ {
		s := w.State()
		if s.Round.Phase != game.PhasePlaying {
			break
		}
		states = append(states, *s)
		for i := range in {
			in[i] = bots[i].Input(s, w.Maze(), i)
		}
		w.Step(in)
	}
	if len(states) < 256 {
		tb.Fatalf("only %d mid-round states", len(states))
	}
	return w, states
}

func BenchmarkBotInput(b *testing.B) {
	w, states := benchStates(b)
	m := w.Maze() // the first round's maze: every state is from that round
	bot := New(7)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := &states[i%len(states)]
		bot.Input(s, m, i&1)
	}
}
