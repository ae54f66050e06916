package tui

import (
	"ttytanks/game"
	"ttytanks/netcode"
)

// MinWidth and MinHeight are the smallest terminal, in cells, the game is
// drawn on with its sidebar. On a smaller one the match has the compact
// layout (see compactMin): the map whole, under a one-line status, and no
// sidebar; below that Draw shows only a "terminal too small" message.
const (
	MinWidth  = 80
	MinHeight = 24
)

// compactMin returns the smallest terminal, in cells, for the compact
// layout of a mw×mh-tile maze: the maze whole at one tile per two columns
// and one row, and the status row above it. It is never more than
// MinWidth×MinHeight, the full layout's own minimum (a maze too large for
// the compact layout is windowed there).
func compactMin(mw, mh int) (w, h int) {
	return min(2*mw, MinWidth), min(mh+1, MinHeight)
}

// Sidebar widths, in cells. The sidebar takes whatever the maze leaves,
// within these bounds; SidebarMaxW leaves room for a full SparkLen-sample
// sparkline inside the border.
const (
	SidebarMinW = 30
	SidebarMaxW = netcode.SparkLen + 2
)

// rect is a screen rectangle in cells.
type rect struct{ x, y, w, h int }

func (r rect) contains(x, y int) bool {
	return x >= r.x && y >= r.y && x < r.x+r.w && y < r.y+r.h
}

// layout is where each part of a frame goes on a w×h screen. Each maze tile
// is two columns by one row, so a maze of W×H tiles needs 2W×H cells; at
// scale 2, when the screen has room for it, a tile is four columns by two
// rows.
type layout struct {
	w, h     int
	tooSmall bool
	// needW and needH are the smallest screen this frame could be drawn
	// on, for the "terminal too small" message.
	needW, needH int
	// compact is the layout below MinWidth×MinHeight: no sidebar (side is
	// empty, at the right edge), play is the whole screen and the title row
	// carries the essential figures.
	compact bool
	scale   int  // cells per tile: 2*scale columns by scale rows
	side    rect // the sidebar, flush with the right edge
	play    rect // left of the sidebar: the title row and the field
	titleY  int  // the title/status row, at the top of play
	// field is the screen rectangle showing the maze; viewX, viewY is the
	// maze cell (column, row) drawn at its top-left corner. When the maze is
	// larger than the room left for it, field is a window that follows the
	// local tank.
	field        rect
	viewX, viewY int
}

// computeLayout lays out a frame of v on a w×h screen, with every tank where
// it is simulated. It is a pure function of its arguments.
func computeLayout(w, h int, v *netcode.View) layout {
	var pos [game.MaxPlayers][2]int32
	simPositions(v, &pos)
	return computeLayoutFocus(w, h, v, &pos, v.Slot)
}

// computeLayoutFocus is computeLayout with each slot's tank drawn at pos
// (sub-tiles); the window that follows a tank when the maze does not fit
// follows slot focus's (the local tank, or the one a spectator follows;
// -1 or an empty seat: the middle of the maze).
func computeLayoutFocus(w, h int, v *netcode.View, pos *[game.MaxPlayers][2]int32, focus int) layout {
	l := layout{w: w, h: h, needW: MinWidth, needH: MinHeight}
	mw, mh := v.Maze.W, v.Maze.H
	if mw <= 0 || mh <= 0 {
		mw, mh = game.DefaultMazeW, game.DefaultMazeH
	}
	if w < MinWidth || h < MinHeight {
		l.needW, l.needH = compactMin(mw, mh)
		if w < l.needW || h < l.needH {
			l.tooSmall = true
			return l
		}
		l.compact = true
		l.scale = 1
		if 4*mw <= w && 2*mh <= h-1 {
			l.scale = 2
		}
		l.side = rect{x: w, y: 0, w: 0, h: h}
		l.play = rect{x: 0, y: 0, w: w, h: h}
		l.placeField(rect{x: 0, y: 1, w: w, h: h - 1}, v, pos, focus, 2*mw*l.scale, mh*l.scale)
		return l
	}
	// The sidebar grows with the terminal, but gives the maze at least half
	// of every column beyond MinWidth.
	sideW := func(cols int) int { return min(max(w-cols-2, SidebarMinW), SidebarMaxW, SidebarMinW+(w-MinWidth)/2) }
	// Twice the size when the whole maze fits so, with the title above it.
	l.scale = 1
	if c := 4 * mw; c <= w-sideW(c) && 2*mh <= h-1 {
		l.scale = 2
	}
	cols, rows := 2*mw*l.scale, mh*l.scale
	sw := sideW(cols)
	l.side = rect{x: w - sw, y: 0, w: sw, h: h}
	l.play = rect{x: 0, y: 0, w: w - sw, h: h}
	l.placeField(rect{x: 0, y: 1, w: l.play.w, h: h - 1}, v, pos, focus, cols, rows)
	return l
}

// placeField places the field, cols×rows cells of maze, in area, and the
// title row right above it. The point kept in view when the maze does not
// fit is the focused tank, or the middle of the maze.
func (l *layout) placeField(area rect, v *netcode.View, pos *[game.MaxPlayers][2]int32, focus, cols, rows int) {
	fx, fy := cols/2, rows/2
	if s := focus; s >= 0 && s < int(v.World.Slots) && s < game.MaxPlayers && v.World.Tanks[s].Seated {
		fx, fy = l.tankCol(pos[s][0]), l.tankRow(pos[s][1])
	}
	l.field.x, l.field.w, l.viewX = fit(area.x, area.w&^1, cols, fx, 2*l.scale)
	l.field.y, l.field.h, l.viewY = fit(area.y, area.h, rows, fy, l.scale)
	// The title row stays with the maze: right above it.
	l.titleY = l.field.y - 1
}

// fit places span cells of maze in room cells starting at screen position
// at. It centres the maze when it fits; otherwise it returns a window of
// room cells around focus, aligned to step, and the first maze cell shown.
func fit(at, room, span, focus, step int) (pos, size, view int) {
	if span <= room {
		return at + (room-span)/2, span, 0
	}
	view = min(max(focus-room/2, 0), span-room)
	view -= view % step
	return at, room, view
}

// col and row map a position in sub-tiles to the maze's column and row in
// cells at the layout's scale: the cell it is in (a bullet's).
func (l *layout) col(x int32) int { return int(x) * 2 * l.scale / game.SubTile }
func (l *layout) row(y int32) int { return int(y) * l.scale / game.SubTile }

// tankCol and tankRow map a tank's position in sub-tiles to the maze's
// column and row in cells at the layout's scale: the cell whose middle is
// nearest, so that a tile's centre, where tanks come to rest, is the
// middle of a cell and not the edge between two (where a tank a sub-tile
// short of the centre would be drawn a cell off). A tile has an even
// number of columns, so its centre falls between two: half a cell's width
// is added first, and a tank on the centre is drawn in the right one (of
// two at scale 1) as far as a quarter of a tile either side of it;
// likewise for rows at scale 2 (at scale 1 a tile's one row is centred on
// it already). A tank's box keeps its centre TankHalf from a wall, so
// neither puts a tank over a wall's cell.
func (l *layout) tankCol(x int32) int { return (int(x)*2*l.scale + game.SubTile/2) / game.SubTile }
func (l *layout) tankRow(y int32) int {
	return (int(y)*l.scale + (l.scale-1)*game.SubTile/2) / game.SubTile
}

// tile returns the maze tile under the maze cell (col, row).
func (l *layout) tile(col, row int) (int, int) { return col / (2 * l.scale), row / l.scale }

// tileCol and tileRow map a tank's position in sub-tiles to the maze's
// screen column and row at scale 1, two columns per tile, as
// layout.tankCol and layout.tankRow do.
func tileCol(x int32) int { return (int(x)*2 + game.SubTile/2) / game.SubTile }
func tileRow(y int32) int { return int(y) / game.SubTile }
