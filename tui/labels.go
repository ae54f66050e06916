package tui

import (
	"unicode/utf8"

	"ttytanks/game"
	"ttytanks/netcode"
)

// labelLen is the most cells of a name the map shows by a tank.
const labelLen = 8

// labelMin is the fewest cells a shortened label takes: one character and
// the ellipsis. A name that needs fewer cells takes what it needs.
const labelMin = 2

// labelSpot is a name label placed on the map: w cells from maze cell
// (col, row).
type labelSpot struct{ col, row, w int }

// labelPlaces are the labels placed in the frame being drawn, so that no
// two overlap.
type labelPlaces struct {
	spots [game.MaxPlayers]labelSpot
	n     int
}

// drawLabels draws the name of each tank on the map (live, or bursting)
// where it hides no wall, no tank and no other label, the local player's
// first. See placeLabel for where.
func (r *Renderer) drawLabels(l *layout, v *netcode.View) {
	w := &v.World
	slots := min(int(w.Slots), game.MaxPlayers)
	r.labels.n = 0
	named := func(i int) bool {
		tk := &w.Tanks[i]
		return tk.Spawned() && (tk.Alive || r.fx.burst(i, w.Tick) >= 0)
	}
	if s := v.Slot; s >= 0 && s < slots && named(s) {
		r.drawLabel(l, v, s)
	}
	for i := range slots {
		if i != v.Slot && named(i) {
			r.drawLabel(l, v, i)
		}
	}
}

// drawLabel places slot i's name (see placeLabel) and draws it there,
// underlined in the slot's colour; with no free place it draws nothing.
func (r *Renderer) drawLabel(l *layout, v *netcode.View, i int) {
	name := truncate(slotName(v, i), labelLen, r.t.g.ellipsis)
	sp, ok := r.placeLabel(l, v, i, textWidth(name))
	if !ok {
		return
	}
	name = truncate(name, sp.w, r.t.g.ellipsis)
	r.labels.spots[r.labels.n] = sp
	r.labels.n++
	st := r.t.slot[i].Bold(false).Underline(true)
	col := sp.col
	for k := 0; k < len(name); {
		// Names are sanitised to printable, one-cell characters.
		_, n := utf8.DecodeRuneInString(name[k:])
		r.putAt(l, col, sp.row, name[k:k+n], st)
		col++
		k += n
	}
}

// placeLabel finds where a label of want cells by slot i's tank goes, on
// free cells only (floor in view, no tank, no label placed): centred on
// the row above the tank, else on the row below, else on the tank's row
// left of it, else right of it. The first of these with room for the whole
// label wins; failing that, the one with the most room, at least labelMin
// cells (the label is then shortened to it). It reports false when no place
// has room.
func (r *Renderer) placeLabel(l *layout, v *netcode.View, i, want int) (labelSpot, bool) {
	col, row := l.tankCol(r.pos[i][0]), l.tankRow(r.pos[i][1])
	free := func(c, rw int) bool { return r.labelFree(l, v, c, rw) }
	var cands [4]labelSpot
	for k, dr := range [2]int{-1, 1} {
		cands[k] = centredRun(free, col, row+dr, want)
	}
	cands[2] = sideRun(free, col, row, -1, want)
	cands[3] = sideRun(free, col, row, 1, want)
	best := -1
	for k, c := range cands {
		if c.w >= want {
			return c, true
		}
		if c.w >= min(labelMin, want) && (best < 0 || c.w > cands[best].w) {
			best = k
		}
	}
	if best < 0 {
		return labelSpot{}, false
	}
	return cands[best], true
}

// centredRun returns the span of up to want free cells on row that covers
// column col, as near centred on it as the free run allows; w is 0 when
// (col, row) is not free.
func centredRun(free func(c, row int) bool, col, row, want int) labelSpot {
	if !free(col, row) {
		return labelSpot{row: row}
	}
	a, b := col, col // the free run around col, at most want either side
	for a > col-want && free(a-1, row) {
		a--
	}
	for b < col+want && free(b+1, row) {
		b++
	}
	w := min(want, b-a+1)
	start := min(max(col-w/2, a), b-w+1)
	return labelSpot{col: start, row: row, w: w}
}

// sideRun returns the span of up to want free cells on row next to column
// col, on its left (dir -1, ending next to col) or right (dir 1, starting
// next to it).
func sideRun(free func(c, row int) bool, col, row, dir, want int) labelSpot {
	w := 0
	for w < want && free(col+dir*(w+1), row) {
		w++
	}
	if dir < 0 {
		return labelSpot{col: col - w, row: row, w: w}
	}
	return labelSpot{col: col + 1, row: row, w: w}
}

// labelFree reports whether maze cell (c, row) may take a label: it is in
// view and in the maze, on a floor tile, under no tank drawn (wrecks
// included) and under no label already placed this frame.
func (r *Renderer) labelFree(l *layout, v *netcode.View, c, row int) bool {
	if !l.field.contains(l.field.x+c-l.viewX, l.field.y+row-l.viewY) || c < 0 || row < 0 {
		return false
	}
	if v.Maze.IsWall(l.tile(c, row)) {
		return false
	}
	w := &v.World
	for i := range min(int(w.Slots), game.MaxPlayers) {
		if w.Tanks[i].Spawned() && l.tankCol(r.pos[i][0]) == c && l.tankRow(r.pos[i][1]) == row {
			return false
		}
	}
	for _, sp := range r.labels.spots[:r.labels.n] {
		if sp.row == row && c >= sp.col && c < sp.col+sp.w {
			return false
		}
	}
	return true
}
