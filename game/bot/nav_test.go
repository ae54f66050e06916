package bot

import (
	"testing"

	"ttytanks/game"
)

// A winding corridor with many turns: following it at full speed needs
// clean turns (aligned with each lane, no scraping on the corners).
var serpentine = []string{
	"#############",
	"#...........#",
	"###########.#",
	"#...........#",
	"#.###########",
	"#...........#",
	"###########.#",
	"#.#.#.#.#.#.#",
	"#.#.#.#.#.#.#",
	"#...........#",
	"#############",
}

func TestNavigatesTurnsQuickly(t *testing.T) {
	// The enemy waits at (1,7) at the far end, around every corner. The
	// path is 11+2+10+2+10+2+... tiles; a tank at top speed covers a tile in
	// 16 ticks.
	for seed := uint64(1); seed <= 4; seed++ {
		w := scene(t, serpentine, at(1, 1, 1, 0), at(1, 8, 0, -1))
		b := New(seed)
		// BFS length of the path, in tiles.
		b.fieldFromEnemies(w.State(), w.Maze(), 0)
		tiles := int(b.distAt(w.Maze(), w.State().Tanks[0].X, w.State().Tanks[0].Y))
		limit := tiles * game.SubTile / game.TankSpeed * 5 / 4
		k, first := 0, -1
		for ; k < limit && w.State().Round.Phase == game.PhasePlaying; k++ {
			if step(w, b).Fire() && first < 0 {
				first = k
			}
		}
		s := w.State()
		if s.Round.Phase != game.PhaseOver || s.Round.Winner != 0 {
			me := s.Tanks[0]
			t.Fatalf("seed %d: after %d ticks (path %d tiles) the bot is on tile (%d,%d) and has not won",
				seed, k, tiles, me.X>>10, me.Y>>10)
		}
		// Getting in line means covering nearly the whole path: at top
		// speed that is 16 ticks a tile; allow 10% for the turns.
		if travel := tiles * game.SubTile / game.TankSpeed; first < 0 || first > travel*11/10 {
			t.Fatalf("seed %d: first shot after %d ticks, want at most %d (path of %d tiles at top speed, +10%%)",
				seed, first, travel*11/10, tiles)
		}
		t.Logf("seed %d: path %d tiles, first shot after %d, won after %d ticks (limit %d)", seed, tiles, first, k, limit)
	}
}

// A tank standing still in a junction, too far off the side lane for
// corner assist, must line up before it can turn into it.
var offLane = []string{
	"#######",
	"#.....#",
	"###.###",
	"###.###",
	"###...#",
	"#######",
}

func TestLinesUpBeforeTurning(t *testing.T) {
	for _, off := range []int32{-460, -300, 300, 460} {
		me := at(3, 1, 1, 0)
		me.X += off
		w := scene(t, offLane, me, at(5, 4, -1, 0))
		b := New(1)
		for k := 0; k < 60; k++ {
			step(w, b)
		}
		if y := w.State().Tanks[0].Y >> 10; y < 3 {
			t.Fatalf("starting %d off the lane: after 60 ticks the bot is still on row %d", off, y)
		}
	}
}
