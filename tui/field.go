package tui

import (
	"strconv"

	"github.com/gdamore/tcell/v2"

	"ttytanks/game"
	"ttytanks/netcode"
)

// drawField draws the maze, bullets and tanks of v into l.field. Walls are
// two cells per tile; a tank or bullet at (X, Y) sub-tiles is drawn in the
// cell at column X*2/SubTile, row Y/SubTile of the maze, a tank at its
// drawn position r.pos (simulated plus smoothing offset). Tanks show their
// facing, in their slot's colour; the local player's tank is in reverse
// video; destroyed tanks are a wreck glyph, dimmed. Bullets take their
// owner's colour.
func (r *Renderer) drawField(l *layout, v *netcode.View) {
	t := r.t
	m := &v.Maze
	f := l.field
	if m.W <= 0 || m.H <= 0 {
		return
	}
	// A view is drawn as it comes; a size beyond the grid's storage (which
	// netcode never lets through) is clipped rather than trusted.
	mw, mh := min(m.W, game.MaxMazeW), min(m.H, game.MaxMazeH)
	// Walls: the view starts on a tile boundary (viewX is even).
	tx0 := l.viewX / 2
	for row := 0; row < f.h && l.viewY+row < mh; row++ {
		ty := l.viewY + row
		bits := m.Wall[ty]
		for tx := tx0; tx < mw && 2*(tx-tx0) < f.w; tx++ {
			if bits>>uint(tx)&1 != 0 {
				x := f.x + 2*(tx-tx0)
				r.put(x, f.y+row, t.g.wall[:t.g.wallHalf], 1, t.wall)
				r.put(x+1, f.y+row, t.g.wall[t.g.wallHalf:], 1, t.wall)
			}
		}
	}

	w := &v.World
	nb := min(int(w.NumBullets), game.MaxBullets)
	for i := range nb {
		bl := &w.Bullets[i]
		st := t.text
		if int(bl.Owner) < game.MaxPlayers {
			st = t.slot[bl.Owner].Bold(false)
		}
		r.putAt(l, tileCol(bl.X), tileRow(bl.Y), t.g.bullet, st)
	}
	slots := min(int(w.Slots), game.MaxPlayers)
	// Wrecks first, then live tanks, then the local tank, so the tanks that
	// matter are on top when two share a cell.
	for pass := 0; pass < 3; pass++ {
		for i := range slots {
			tk := &w.Tanks[i]
			if !tk.Seated {
				continue
			}
			local := i == v.Slot
			x, y := r.pos[i][0], r.pos[i][1]
			switch {
			case pass == 0 && !tk.Alive:
				r.putAt(l, tileCol(x), tileRow(y), t.g.wreck, t.slot[i].Bold(false).Dim(true))
			case pass == 1 && tk.Alive && !local, pass == 2 && tk.Alive && local:
				st := t.slot[i]
				if local {
					st = st.Reverse(true)
				}
				r.putAt(l, tileCol(x), tileRow(y), t.g.tank[aimIndex(tk.AimX, tk.AimY)], st)
			}
		}
	}
}

// putAt puts a one-cell glyph at maze cell (col, row) if it is in view.
func (r *Renderer) putAt(l *layout, col, row int, s string, st tcell.Style) {
	x, y := l.field.x+col-l.viewX, l.field.y+row-l.viewY
	if l.field.contains(x, y) {
		r.put(x, y, s, 1, st)
	}
}

// titleText returns the title row: the round and its timer while playing,
// or the round's result while it is over.
func titleText(v *netcode.View, g *glyphs) (string, bool) {
	r := &v.World.Round
	n := strconv.Itoa(int(r.Number))
	if r.Phase == game.PhaseOver {
		return "ROUND " + n + " OVER " + g.dash + " " + winnerText(v), true
	}
	secs := int(r.Timer) / game.TickRate
	return "ROUND " + n + "  " + g.dot + "  " + twoDigits(secs/60) + ":" + twoDigits(secs%60), false
}

// winnerText is "<name> wins" or "draw".
func winnerText(v *netcode.View) string {
	wn := int(v.World.Round.Winner)
	if wn < 0 || wn >= game.MaxPlayers {
		return "draw"
	}
	return slotName(v, wn) + " wins"
}

// slotName is the player's name in slot i, or "player N" for an unnamed seat.
func slotName(v *netcode.View, i int) string {
	if v.Names[i] != "" {
		return v.Names[i]
	}
	return "player " + strconv.Itoa(i+1)
}

func twoDigits(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// drawTitle draws the title row, centred over the play area.
func (r *Renderer) drawTitle(l *layout, v *netcode.View) {
	s, over := titleText(v, r.t.g)
	st := r.t.title
	if over {
		st = r.t.banner
	}
	r.putCentred(l.play, l.titleY, s, st)
}

// putCentred puts the single-line plain text s centred in the columns of
// area on row y, clipped to area.
func (r *Renderer) putCentred(area rect, y int, s string, st tcell.Style) {
	r.putString(area.x+max((area.w-textWidth(s))/2, 0), y, s, st, area)
}
