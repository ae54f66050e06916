package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"ttytanks/game"
	"ttytanks/netcode"
)

// testMaze is a 13×7 literal maze. Tile (x, y) is row y, byte x.
var testMaze = []string{
	"#############",
	"#.....#.....#",
	"#.###.#.###.#",
	"#...........#",
	"#.#.#####.#.#",
	"#.#.......#.#",
	"#############",
}

// at returns the sub-tile position of the centre of tile (x, y).
func at(x, y int) (int32, int32) {
	return int32(x)*game.SubTile + game.SubTile/2, int32(y)*game.SubTile + game.SubTile/2
}

// testView is a hand-built playing view: three tanks at known tiles and
// aims, three bullets, and metrics with distinctive values.
func testView(t testing.TB) *netcode.View {
	t.Helper()
	m, err := game.ParseMaze(testMaze...)
	if err != nil {
		t.Fatal(err)
	}
	v := &netcode.View{Status: netcode.StatusPlaying, Slot: 1, Maze: m}
	v.Names[0], v.Names[1], v.Names[2] = "alice", "bob", "carol"
	v.Connected[0], v.Connected[1], v.Connected[2] = true, true, true
	w := &v.World
	w.Tick = 12345
	w.Slots = 3
	w.Round = game.Round{Number: 7, Phase: game.PhasePlaying, Timer: 83*60 + 30, Winner: -1,
		MazeW: uint8(m.W), MazeH: uint8(m.H)}
	tank := func(x, y int, ax, ay int8, hp int8, score uint16) game.Tank {
		px, py := at(x, y)
		return game.Tank{X: px, Y: py, AimX: ax, AimY: ay, HP: hp, Alive: true, Seated: true, Score: score}
	}
	w.Tanks[0] = tank(1, 1, 1, 0, 3, 2)   // alice, facing right
	w.Tanks[1] = tank(5, 3, -1, -1, 2, 5) // bob (us), facing up-left
	w.Tanks[2] = tank(11, 5, 0, 1, 1, 0)  // carol, facing down
	bullet := func(x, y int, owner uint8) game.Bullet {
		px, py := at(x, y)
		return game.Bullet{X: px, Y: py, VX: game.BulletSpeed, Owner: owner, Life: 100}
	}
	w.NumBullets = 3
	w.Bullets[0] = bullet(3, 1, 0)
	w.Bullets[1] = bullet(8, 3, 1)
	w.Bullets[2] = bullet(9, 5, 2)
	v.Metrics = netcode.Metrics{
		LocalTick: 12345, ServerTick: 12339,
		Rollbacks: 4567, ReplayLast: 6, ReplayMax: 19,
		ReplayCostLast: 41 * time.Microsecond, ReplayCostP95: 88 * time.Microsecond, ReplayCostP99: 97 * time.Microsecond,
		RTT: 123 * time.Millisecond, InputLead: 6, ArrivalMargin: 17 * time.Millisecond,
		LossUp: 0.025, LossDown: 0.125, LossUpMeasured: true, LossDownMeasured: true, StateDelay: 9,
		HashMismatches: 31, Resyncs: 2,
		BytesUpPerSec: 2345, BytesDownPerSec: 5678,
		RTTSparkN: 20, ReplaySparkN: 20,
	}
	for i := range 20 {
		v.Metrics.RTTSpark[i] = float64(100 + i)
		v.Metrics.ReplaySpark[i] = float64(40 + i%5)
	}
	return v
}

// newScreen returns an initialised simulation screen of w×h cells.
func newScreen(t testing.TB, w, h int) tcell.SimulationScreen {
	t.Helper()
	s := tcell.NewSimulationScreen("UTF-8")
	if err := s.Init(); err != nil {
		t.Fatal(err)
	}
	s.SetSize(w, h)
	t.Cleanup(s.Fini)
	return s
}

// screenLines returns the shown contents of s as one string per row, one
// rune per cell (wide cells contribute their rune and no filler).
func screenLines(s tcell.SimulationScreen) []string {
	cells, w, h := s.GetContents()
	lines := make([]string, h)
	for y := range h {
		var b strings.Builder
		for x := 0; x < w; x++ {
			c := cells[y*w+x]
			if len(c.Runes) == 0 {
				b.WriteByte(' ')
				continue
			}
			b.WriteString(string(c.Runes))
		}
		lines[y] = b.String()
	}
	return lines
}

// cellAt returns the text and style of the shown cell at (x, y).
func cellAt(s tcell.SimulationScreen, x, y int) (string, tcell.Style) {
	cells, w, _ := s.GetContents()
	c := cells[y*w+x]
	return string(c.Runes), c.Style
}
