package bot

import (
	"testing"

	"ttytanks/game"
)

// record plays a two-bot match with bots of the given seeds and returns
// the states each input was computed from, their mazes and the inputs.
func record(t *testing.T, seed uint64, ticks int) ([]game.Snapshot, []game.Maze, [][2]game.Input) {
	t.Helper()
	w, err := game.NewWorld(game.Config{Slots: 2, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	bots := []*Bot{New(seed), New(seed + 1)}
	states := make([]game.Snapshot, ticks)
	mazes := make([]game.Maze, ticks)
	inputs := make([][2]game.Input, ticks)
	in := make([]game.Input, 2)
	for k := 0; k < ticks; k++ {
		w.Save(&states[k])
		mazes[k] = *w.Maze()
		for i := range in {
			in[i] = bots[i].Input(w.State(), w.Maze(), i)
			inputs[k][i] = in[i]
		}
		w.Step(in)
	}
	return states, mazes, inputs
}

func TestDeterministic(t *testing.T) {
	const seed, ticks = 11, 3000
	states, mazes, inputs := record(t, seed, ticks)
	// Fresh bots with the same seeds, shown the same states in reverse
	// order (as after rollbacks): the same inputs.
	bots := []*Bot{New(seed), New(seed + 1)}
	fired, moved, playing := 0, 0, 0
	for k := ticks - 1; k >= 0; k-- {
		before := states[k]
		if before.Round.Phase == game.PhasePlaying {
			playing++
		}
		for i := 0; i < 2; i++ {
			got := bots[i].Input(&states[k], &mazes[k], i)
			if got != inputs[k][i] {
				t.Fatalf("tick %d slot %d: replay gave %+v, first run %+v", k, i, got, inputs[k][i])
			}
			if got.Fire() {
				fired++
			}
			if got.MoveX != 0 || got.MoveY != 0 {
				moved++
			}
		}
		if states[k] != before {
			t.Fatalf("tick %d: Input changed the snapshot", k)
		}
	}
	if fired == 0 || moved < playing || playing < ticks/2 {
		t.Fatalf("the recorded match is too quiet to test anything: %d shots, %d moves in %d ticks of play", fired, moved, playing)
	}
	// Another seed makes some different choices on the same states.
	other := New(seed + 100)
	diff := 0
	for k := range states {
		if other.Input(&states[k], &mazes[k], 0) != inputs[k][0] {
			diff++
		}
	}
	if diff == 0 {
		t.Fatal("a bot with another seed chose exactly the same inputs: no randomness")
	}
	t.Logf("%d shots, %d of %d inputs differ with another seed", fired, diff, ticks)
}

func TestInputDoesNotAllocate(t *testing.T) {
	states, mazes, inputs := record(t, 5, 1200)
	b := New(3)
	busy := 0
	for k := range states {
		if states[k].NumBullets > 0 || inputs[k][0].Fire() {
			busy++
		}
		allocs := testing.AllocsPerRun(3, func() {
			b.Input(&states[k], &mazes[k], k&1)
		})
		if allocs != 0 {
			t.Fatalf("tick %d: Input allocates %.1f times per call", k, allocs)
		}
	}
	if busy < 100 {
		t.Fatalf("only %d states with bullets or shots", busy)
	}
}
