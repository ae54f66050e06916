package game

import "fmt"

// Maze limits and default, in tiles. Width and height are odd so that the
// maze has a wall border and cells on odd coordinates.
const (
	MinMazeW     = 3
	MinMazeH     = 3
	MaxMazeW     = 63
	MaxMazeH     = 31
	DefaultMazeW = 25
	DefaultMazeH = 21
)

// Maze is a tile grid of walls and floors, generated from a seed by Generate.
// Row y is a bit set: bit x of Wall[y] is set when tile (x, y) is a wall.
// Tiles outside W×H are walls. A Maze is a plain value.
type Maze struct {
	Seed uint64
	W, H int
	Wall [MaxMazeH]uint64
}

// CheckMazeSize returns an error unless w×h is a size Generate accepts.
func CheckMazeSize(w, h int) error {
	if w < MinMazeW || w > MaxMazeW || h < MinMazeH || h > MaxMazeH || w%2 == 0 || h%2 == 0 {
		return fmt.Errorf("game: maze %dx%d: width must be odd in [%d,%d] and height odd in [%d,%d]",
			w, h, MinMazeW, MaxMazeW, MinMazeH, MaxMazeH)
	}
	return nil
}

// checkMazeFits returns an error unless a w×h maze has a cell for each of
// slots tanks to spawn in.
func checkMazeFits(w, h, slots int) error {
	if err := CheckMazeSize(w, h); err != nil {
		return err
	}
	if (w/2)*(h/2) < slots {
		return fmt.Errorf("game: maze %dx%d has %d cells, too few for %d tanks", w, h, (w/2)*(h/2), slots)
	}
	return nil
}

// IsWall reports whether tile (x, y) is a wall. Tiles outside the grid are
// walls.
func (m *Maze) IsWall(x, y int) bool {
	if x < 0 || y < 0 || x >= m.W || y >= m.H || x >= MaxMazeW || y >= MaxMazeH {
		return true // outside the grid (a corrupt W or H included)
	}
	return m.Wall[y]>>uint(x)&1 != 0
}

func (m *Maze) setWall(x, y int, wall bool) {
	if wall {
		m.Wall[y] |= 1 << uint(x)
	} else {
		m.Wall[y] &^= 1 << uint(x)
	}
}

// Generate builds the maze for seed and size w×h into m, without allocating.
// The same seed and size always give the same maze on every machine. It
// carves a perfect maze with a depth-first backtracker over the odd cells,
// then opens about one in five of the remaining interior walls between two
// corridors so the maze has loops to fight around. Every floor tile is
// reachable from every other. It panics if the size fails CheckMazeSize.
func (m *Maze) Generate(seed uint64, w, h int) {
	if err := CheckMazeSize(w, h); err != nil {
		panic(err)
	}
	*m = Maze{Seed: seed, W: w, H: h}
	for y := 0; y < h; y++ {
		m.Wall[y] = 1<<uint(w) - 1
	}
	rng := RNG{State: seed}
	cw, ch := w/2, h/2 // cells
	var visited [MaxMazeH / 2][MaxMazeW / 2]bool
	var stack [MaxMazeW / 2 * (MaxMazeH / 2)][2]int8
	sx, sy := rng.Intn(cw), rng.Intn(ch)
	visited[sy][sx] = true
	m.setWall(2*sx+1, 2*sy+1, false)
	stack[0] = [2]int8{int8(sx), int8(sy)}
	n := 1
	for n > 0 {
		cx, cy := int(stack[n-1][0]), int(stack[n-1][1])
		var opts [4]int
		k := 0
		for d := 0; d < 4; d++ {
			nx, ny := cx+dirs4[d][0], cy+dirs4[d][1]
			if nx >= 0 && ny >= 0 && nx < cw && ny < ch && !visited[ny][nx] {
				opts[k] = d
				k++
			}
		}
		if k == 0 {
			n--
			continue
		}
		d := opts[rng.Intn(k)]
		nx, ny := cx+dirs4[d][0], cy+dirs4[d][1]
		visited[ny][nx] = true
		m.setWall(2*cx+1+dirs4[d][0], 2*cy+1+dirs4[d][1], false)
		m.setWall(2*nx+1, 2*ny+1, false)
		stack[n] = [2]int8{int8(nx), int8(ny)}
		n++
	}
	// Braid: open some walls that separate two floor tiles in a line.
	for y := 1; y < h-1; y++ {
		for x := 1; x < w-1; x++ {
			if (x+y)%2 == 0 || !m.IsWall(x, y) {
				continue // lattice posts and floor stay as they are
			}
			if rng.Intn(5) == 0 {
				m.setWall(x, y, false)
			}
		}
	}
}

var dirs4 = [4][2]int{{1, 0}, {0, 1}, {-1, 0}, {0, -1}}

// String draws the maze with '#' for walls and '.' for floor, one line per
// row.
func (m *Maze) String() string {
	b := make([]byte, 0, (m.W+1)*m.H)
	for y := 0; y < m.H; y++ {
		for x := 0; x < m.W; x++ {
			if m.IsWall(x, y) {
				b = append(b, '#')
			} else {
				b = append(b, '.')
			}
		}
		b = append(b, '\n')
	}
	return string(b)
}

// ParseMaze builds a Maze from rows of '#' (wall) and any other byte
// (floor), as tests write them. Rows must have equal length; the size need
// not be odd, but must fit MaxMazeW×MaxMazeH. Seed is left zero.
func ParseMaze(rows ...string) (Maze, error) {
	var m Maze
	if len(rows) == 0 || len(rows) > MaxMazeH || len(rows[0]) == 0 || len(rows[0]) > MaxMazeW {
		return m, fmt.Errorf("game: literal maze must be 1..%d rows of 1..%d tiles", MaxMazeH, MaxMazeW)
	}
	m.W, m.H = len(rows[0]), len(rows)
	for y, r := range rows {
		if len(r) != m.W {
			return Maze{}, fmt.Errorf("game: literal maze row %d has %d tiles, want %d", y, len(r), m.W)
		}
		for x := 0; x < m.W; x++ {
			m.setWall(x, y, r[x] == '#')
		}
	}
	return m, nil
}

// FloorTiles returns the number of floor tiles.
func (m *Maze) FloorTiles() int {
	n := 0
	for y := 0; y < m.H; y++ {
		for x := 0; x < m.W; x++ {
			if !m.IsWall(x, y) {
				n++
			}
		}
	}
	return n
}
