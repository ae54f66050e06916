package tui

import (
	"strconv"

	"github.com/gdamore/tcell/v2"

	"ttytanks/game"
	"ttytanks/netcode"
)

// drawField draws the maze, bullets and tanks of v into l.field. Walls are
// two cells per tile; a bullet at (X, Y) sub-tiles is drawn in the cell
// at column X*2/SubTile, row Y/SubTile of the maze, a tank in the cell
// whose middle is nearest its drawn position r.pos (simulated plus
// smoothing offset; see layout.tankCol). Tanks show their
// facing, in their slot's colour; the local player's tank is in reverse
// video; a tank in hitstun flashes (hit marks either side, reverse video
// toggled); a destroyed tank bursts for BurstTicks and is then a wreck
// glyph, dimmed. Unless the HUD hides them, each tank has its name by it,
// where the name hides no wall, tank or other name (see placeLabel). Bullets take their owner's colour; without colour, the
// local player's bullets and everyone else's have different glyphs.
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
	// Walls: the view starts on a tile boundary (viewX and viewY are
	// multiples of a tile's cells).
	tw := 2 * l.scale // columns per tile
	tx0 := l.viewX / tw
	wall := r.styles.id(t.wall)
	left, right := t.g.wall[:t.g.wallHalf], t.g.wall[t.g.wallHalf:]
	for row := 0; row < f.h && (l.viewY+row)/l.scale < mh; row++ {
		ty := (l.viewY + row) / l.scale
		bits := m.Wall[ty]
		for tx := tx0; tx < mw && tw*(tx-tx0) < f.w; tx++ {
			if bits>>uint(tx)&1 != 0 {
				x := f.x + tw*(tx-tx0)
				for k := 0; k < tw; k += 2 {
					r.putID(x+k, f.y+row, left, 1, wall)
					r.putID(x+k+1, f.y+row, right, 1, wall)
				}
			}
		}
	}

	r.drawCountdown(l, v)
	w := &v.World
	slots := min(int(w.Slots), game.MaxPlayers)
	if !r.hud.HideNames {
		r.drawLabels(l, v)
	}
	nb := min(int(w.NumBullets), game.MaxBullets)
	for i := range nb {
		bl := &w.Bullets[i]
		st, glyph := t.text, t.g.bullet
		if int(bl.Owner) < game.MaxPlayers {
			st = t.slot[bl.Owner].Bold(false)
		}
		if t.noColor && int(bl.Owner) != v.Slot {
			glyph = t.g.theirBullet
		}
		r.putAt(l, l.col(bl.X), l.row(bl.Y), glyph, st)
	}
	// Wrecks first, then live tanks, then the local tank, so the tanks that
	// matter are on top when two share a cell.
	for pass := 0; pass < 3; pass++ {
		for i := range slots {
			tk := &w.Tanks[i]
			if !tk.Spawned() {
				continue // not in this round's maze (seated mid-round: waits for the next)
			}
			local := i == v.Slot
			x, y := r.pos[i][0], r.pos[i][1]
			switch {
			case pass == 0 && !tk.Alive:
				if f := r.fx.burst(i, w.Tick); f >= 0 {
					r.putAt(l, l.tankCol(x), l.tankRow(y), t.g.burst[f], t.slot[i].Reverse(f%2 == 0))
				} else {
					r.putAt(l, l.tankCol(x), l.tankRow(y), t.g.wreck, t.slot[i].Bold(false).Dim(true))
				}
			case pass == 1 && tk.Alive && !local, pass == 2 && tk.Alive && local:
				st := t.slot[i]
				reverse := local
				if flashing(tk.Hitstun) {
					reverse = !reverse
					r.drawHitMarks(l, m, l.tankCol(x), l.tankRow(y), st)
				}
				r.putAt(l, l.tankCol(x), l.tankRow(y), t.g.tank[aimIndex(tk.AimX, tk.AimY)], st.Reverse(reverse))
			}
		}
	}
}

// drawHitMarks draws the hit marks either side of the tank in maze cell
// (col, row), where no wall is.
func (r *Renderer) drawHitMarks(l *layout, m *game.Maze, col, row int, st tcell.Style) {
	for k, dc := range [2]int{-1, 1} {
		if c := col + dc; !m.IsWall(l.tile(c, row)) {
			r.putAt(l, c, row, r.t.g.hitMark[k], st)
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

// titleText returns the title row: the round (and, when the match has a
// goal, "first to R wins") and its timer while playing, "get ready" during
// the countdown, the round's result while it is over, and the match's
// once the match is over. Without goal the "first to R wins" is left
// out (for a title that would not fit).
func titleText(v *netcode.View, g *glyphs, goal bool) (string, bool) {
	r := &v.World.Round
	n := strconv.Itoa(int(r.Number))
	switch r.Phase {
	case game.PhaseOver:
		return "ROUND " + n + " OVER " + g.dash + " " + winnerText(v), true
	case game.PhaseMatchOver:
		return "MATCH OVER " + g.dash + " " + winnerText(v), true
	case game.PhaseWaiting:
		if settledByForfeit(v) {
			if ratingChange(v, v.Slot, g) == g.dash {
				return othersLeft(v) + " " + g.dash + " the match is yours, unrated", true
			}
			return othersLeft(v) + " " + g.dash + " the match is rated as yours", true
		}
		return "WAITING FOR AN OPPONENT " + g.dash + " the score is kept", true
	}
	s := "ROUND " + n + "  " + g.dot + "  "
	if rw := v.World.RoundsToWin; rw > 0 && goal {
		s += "first to " + strconv.Itoa(int(rw)) + " wins  " + g.dot + "  "
	}
	if r.Phase == game.PhaseCountdown {
		return s + "get ready", false
	}
	secs := int(r.Timer) / game.TickRate
	return s + twoDigits(secs/60) + ":" + twoDigits(secs%60), false
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

// feedRows is the most lines of the event feed shown under the map.
const feedRows = 4

// drawFeed draws the newest lines of the event feed under the map, as many
// as fit (up to feedRows), the newest last.
func (r *Renderer) drawFeed(l *layout) {
	top := l.field.y + l.field.h
	n := max(min(l.h-top, feedRows), 0)
	lines := r.feed.shownLines(n, r.hud.Chat)
	if r.panel != nil {
		lines = lines[:0]
		for _, s := range r.panel.Feed[max(len(r.panel.Feed)-n, 0):] {
			lines = append(lines, feedLine{text: s, slot: -1})
		}
	}
	area := rect{x: l.play.x, y: top, w: l.play.w, h: l.h - top}
	for k, line := range lines {
		r.putFeedLine(l.field.x, top+k, line, area.w-l.field.x, r.t.text, area)
	}
}

// drawTitle draws the title row, centred over the play area; a spectator's
// starts with "SPECTATING". In the compact layout the title row is the
// status line (see statusLine).
func (r *Renderer) drawTitle(l *layout, v *netcode.View) {
	title := func(goal bool) (string, bool) {
		s, over := titleText(v, r.t.g, goal)
		if v.Slot < 0 {
			mode := "SPECTATING"
			if r.panel != nil && r.panel.Mode != "" {
				mode = r.panel.Mode
			}
			s = mode + "  " + r.t.g.dot + "  " + s
			if f := r.hud.followed(); f >= 0 && f < int(v.World.Slots) && v.World.Tanks[f].Seated {
				s += "  " + r.t.g.dot + "  following " + slotName(v, f)
			}
		}
		return s, over
	}
	s, over := title(true)
	if textWidth(s) > l.play.w || l.compact {
		s, over = title(false) // the goal is on the sidebar too, or in the way
	}
	if l.compact {
		s = r.statusLine(s, l.play.w, v)
	}
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

// statusLine returns title followed by as many of the compact layout's
// figures as fit in w cells, in this order: the local player's hearts and
// score, the RTT, the rollbacks. These stand in for the sidebar, which
// the compact layout has no room for.
func (r *Renderer) statusLine(title string, w int, v *netcode.View) string {
	g := r.t.g
	var figs [3]string
	if s := v.Slot; s >= 0 && s < game.MaxPlayers {
		tk := &v.World.Tanks[s]
		figs[0] = fmtHP(tk.HP, g) + " score " + strconv.Itoa(int(tk.Score))
		if !tk.Alive {
			figs[0] = "dead " + g.dash + " score " + strconv.Itoa(int(tk.Score))
		}
	}
	figs[1] = "RTT " + fmtMS(v.Metrics.RTT)
	figs[2] = "rollbacks " + strconv.FormatUint(v.Metrics.Rollbacks, 10)
	sep := "  " + g.dot + "  "
	for _, f := range figs {
		if f != "" && textWidth(title)+textWidth(sep)+textWidth(f) <= w {
			title += sep + f
		}
	}
	return title
}
