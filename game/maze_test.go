package game

import "testing"

// reachable counts the floor tiles reachable from the first floor tile.
func reachable(m *Maze) int {
	var seen [MaxMazeH][MaxMazeW]bool
	var queue [][2]int
	for y := 0; y < m.H && len(queue) == 0; y++ {
		for x := 0; x < m.W; x++ {
			if !m.IsWall(x, y) {
				queue = append(queue, [2]int{x, y})
				seen[y][x] = true
				break
			}
		}
	}
	n := 0
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		n++
		for _, d := range dirs4 {
			x, y := p[0]+d[0], p[1]+d[1]
			if !m.IsWall(x, y) && !seen[y][x] {
				seen[y][x] = true
				queue = append(queue, [2]int{x, y})
			}
		}
	}
	return n
}

func TestMazeEveryFloorTileReachable(t *testing.T) {
	sizes := [][2]int{{3, 3}, {7, 7}, {DefaultMazeW, DefaultMazeH}, {MaxMazeW, MaxMazeH}, {9, 31}, {63, 5}}
	for _, sz := range sizes {
		for seed := uint64(0); seed < 200; seed++ {
			var m Maze
			m.Generate(seed*0x9e3779b97f4a7c15, sz[0], sz[1])
			if r, f := reachable(&m), m.FloorTiles(); r != f {
				t.Fatalf("maze %dx%d seed %d: %d of %d floor tiles reachable:\n%s", sz[0], sz[1], seed, r, f, &m)
			}
			for x := 0; x < m.W; x++ {
				if !m.IsWall(x, 0) || !m.IsWall(x, m.H-1) {
					t.Fatalf("maze %dx%d seed %d: border has a gap", sz[0], sz[1], seed)
				}
			}
			for y := 0; y < m.H; y++ {
				if !m.IsWall(0, y) || !m.IsWall(m.W-1, y) {
					t.Fatalf("maze %dx%d seed %d: border has a gap", sz[0], sz[1], seed)
				}
			}
		}
	}
}

func TestMazeSameSeedSameMaze(t *testing.T) {
	var a, b, c Maze
	a.Generate(12345, 25, 21)
	b.Generate(12345, 25, 21)
	c.Generate(12346, 25, 21)
	if a != b {
		t.Fatal("same seed gave different mazes")
	}
	if a.String() == c.String() {
		t.Fatal("different seeds gave the same maze")
	}
	// A fixed maze, pinned: the generator must not change silently.
	const want = "" +
		"###########\n" +
		"#.........#\n" +
		"#########.#\n" +
		"#...#.....#\n" +
		"#.###.#.#.#\n" +
		"#.#...#...#\n" +
		"#.###.#.#.#\n" +
		"#.....#...#\n" +
		"###########\n"
	var m Maze
	m.Generate(2026, 11, 9)
	if got := m.String(); got != want {
		t.Fatalf("maze for seed 2026 changed:\n%s\nwant:\n%s", got, want)
	}
}

func TestMazeHasLoops(t *testing.T) {
	// A perfect maze has exactly floor-1 open adjacencies; braiding adds
	// more, which gives the players routes around each other.
	var m Maze
	m.Generate(7, DefaultMazeW, DefaultMazeH)
	edges := 0
	for y := 0; y < m.H; y++ {
		for x := 0; x < m.W; x++ {
			if m.IsWall(x, y) {
				continue
			}
			if !m.IsWall(x+1, y) {
				edges++
			}
			if !m.IsWall(x, y+1) {
				edges++
			}
		}
	}
	if loops := edges - (m.FloorTiles() - 1); loops < 5 {
		t.Fatalf("maze has only %d loops:\n%s", loops, &m)
	}
}

func TestSpawnPointsOnFloorAndApart(t *testing.T) {
	for seed := uint64(0); seed < 100; seed++ {
		for _, slots := range []int{2, 4, 8} {
			w, err := NewWorld(Config{Slots: slots, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			s := w.State()
			for i := 0; i < slots; i++ {
				a := s.Tanks[i]
				if w.Maze().IsWall(int(a.X/SubTile), int(a.Y/SubTile)) || a.X%SubTile != SubTile/2 || a.Y%SubTile != SubTile/2 {
					t.Fatalf("seed %d: tank %d spawned off a floor tile centre: %+v", seed, i, a)
				}
				for j := i + 1; j < slots; j++ {
					b := s.Tanks[j]
					if d := abs32(a.X-b.X) + abs32(a.Y-b.Y); d < 4*SubTile {
						t.Fatalf("seed %d, %d slots: tanks %d and %d spawn only %d sub-tiles apart", seed, slots, i, j, d)
					}
				}
			}
		}
	}
}

func TestParseMazeLiteral(t *testing.T) {
	m, err := ParseMaze(
		"#####",
		"#.#.#",
		"#...#",
		"#####",
	)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		x, y int
		wall bool
	}{{0, 0, true}, {1, 1, false}, {2, 1, true}, {2, 2, false}, {-1, 2, true}, {5, 2, true}, {2, 9, true}}
	for _, c := range cases {
		if got := m.IsWall(c.x, c.y); got != c.wall {
			t.Errorf("IsWall(%d,%d) = %v, want %v", c.x, c.y, got, c.wall)
		}
	}
	if _, err := ParseMaze("###", "##"); err == nil {
		t.Error("ragged literal maze accepted")
	}
	if _, err := ParseMaze(); err == nil {
		t.Error("empty literal maze accepted")
	}
}

func TestMazeSizeChecks(t *testing.T) {
	for _, sz := range [][2]int{{1, 1}, {8, 9}, {9, 8}, {65, 9}, {9, 33}, {0, 0}} {
		if CheckMazeSize(sz[0], sz[1]) == nil {
			t.Errorf("size %dx%d accepted", sz[0], sz[1])
		}
	}
	if _, err := NewWorld(Config{Slots: 8, MazeW: 5, MazeH: 5}); err == nil {
		t.Error("8 slots on a 4-cell maze accepted")
	}
	if _, err := NewWorld(Config{Slots: 9}); err == nil {
		t.Error("9 slots accepted")
	}
}

func TestIsWallOnCorruptSize(t *testing.T) {
	m := Maze{W: 200, H: 100} // never made by Generate or ParseMaze
	if !m.IsWall(70, 5) || !m.IsWall(5, 40) {
		t.Fatal("tiles beyond the grid's storage must read as walls")
	}
}
