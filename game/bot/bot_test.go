package bot

import (
	"testing"

	"ttytanks/game"
)

// scene builds a world on a literal maze with the given tanks (slot order).
func scene(t *testing.T, rows []string, tanks ...game.Tank) *game.World {
	t.Helper()
	m, err := game.ParseMaze(rows...)
	if err != nil {
		t.Fatal(err)
	}
	w, err := game.NewWorldWithMaze(len(tanks), 1, m)
	if err != nil {
		t.Fatal(err)
	}
	for i, tk := range tanks {
		w.SetTank(i, tk)
	}
	return w
}

// at returns a live, seated tank centred on tile (x, y), facing (ax, ay).
func at(x, y int, ax, ay int8) game.Tank {
	return game.Tank{X: int32(x)*game.SubTile + game.SubTile/2, Y: int32(y)*game.SubTile + game.SubTile/2,
		AimX: ax, AimY: ay, HP: game.TankHP, Alive: true, Seated: true}
}

// step gives slot 0 the bot's input and every other slot neutral input,
// steps w, and returns the bot's input.
func step(w *game.World, b *Bot) game.Input {
	in := make([]game.Input, w.Slots())
	for i := range in {
		in[i] = game.Neutral(w.Tick())
	}
	in[0] = b.Input(w.State(), w.Maze(), 0)
	w.Step(in)
	return in[0]
}

func TestBeatsIdleOpponent(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		w, err := game.NewWorld(game.Config{Slots: 2, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		b := New(seed)
		k := 0
		for ; k < 30*game.TickRate && w.State().Round.Phase == game.PhasePlaying; k++ {
			step(w, b)
		}
		s := w.State()
		if s.Round.Phase != game.PhaseOver || s.Round.Winner != 0 {
			t.Fatalf("seed %d: after %d ticks phase %d winner %d, want the bot (slot 0) to have won",
				seed, k, s.Round.Phase, s.Round.Winner)
		}
		t.Logf("seed %d: killed the idle tank in %d ticks", seed, k)
	}
}
