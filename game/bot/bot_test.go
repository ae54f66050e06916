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

// skipCountdown steps w with neutral inputs to the end of its round's
// countdown.
func skipCountdown(w *game.World) {
	in := make([]game.Input, w.Slots())
	for w.State().Round.Phase == game.PhaseCountdown {
		for i := range in {
			in[i] = game.Neutral(w.Tick())
		}
		w.Step(in)
	}
}

func TestBeatsIdleOpponent(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		w, err := game.NewWorld(game.Config{Slots: 2, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		b := New(seed)
		skipCountdown(w)
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

// TestVotesForRematch plays two bots through a match to 2 round wins: once
// it is over, each bot presses the rematch button, and the world records
// both votes; before that, no bot's input holds it.
func TestVotesForRematch(t *testing.T) {
	w, err := game.NewWorld(game.Config{Slots: 2, Seed: 7, Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	bots := []*Bot{New(1), New(2)}
	in := make([]game.Input, 2)
	for k := 0; k < 120*game.TickRate && w.State().Round.Phase != game.PhaseMatchOver; k++ {
		for i := range in {
			in[i] = bots[i].Input(w.State(), w.Maze(), i)
			if in[i].Rematch() {
				t.Fatalf("tick %d, phase %v: slot %d voted before the match was over", w.Tick(), w.State().Round.Phase, i)
			}
		}
		w.Step(in)
	}
	if w.State().Round.Phase != game.PhaseMatchOver {
		t.Fatalf("the match did not end in 2 minutes: %+v", w.State().Round)
	}
	for i := range in {
		in[i] = bots[i].Input(w.State(), w.Maze(), i)
		if in[i] != (game.Input{Tick: w.Tick(), Buttons: game.ButtonRematch}) {
			t.Fatalf("slot %d at match over: %+v, want the rematch button alone", i, in[i])
		}
	}
	w.Step(in)
	if s := w.State(); !s.Tanks[0].Rematch || !s.Tanks[1].Rematch {
		t.Fatalf("votes not recorded: %+v %+v", s.Tanks[0], s.Tanks[1])
	}
}
