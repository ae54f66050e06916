package tui

import (
	"math"
	"time"

	"ttytanks/game"
	"ttytanks/netcode"
)

// Correction smoothing. It is purely visual: the simulation has already
// snapped to the server's word when a View is copied, and nothing here
// feeds back into the client or the world.
const (
	// smoothHalfLife is how fast a correction offset decays: it halves
	// every smoothHalfLife of frame time.
	smoothHalfLife = 60 * time.Millisecond
	// smoothPerTick is how far, on each axis, a tank may plausibly move in
	// one tick (top speed, knockback and being pushed all fit under it); a
	// change of position beyond it, over the ticks between two frames, is a
	// correction.
	smoothPerTick = 2 * game.TankSpeed
	// smoothSnap is the largest offset smoothed, on either axis: a bigger
	// jump (a teleport, a resync far off) is drawn at once.
	smoothSnap = 3 * game.SubTile / 2
	// smoothDone is the offset below which smoothing stops and the tank is
	// drawn exactly where it is simulated. It is one tick of top speed, an
	// eighth of a screen column.
	smoothDone = game.TankSpeed
)

// smoother keeps, for each slot, the offset at which its tank is drawn from
// its simulated position. The offset is started by a correction, so that
// the tank is first drawn where it was drawn before, and decays
// exponentially with frame time. It holds no pointers and allocates
// nothing.
type smoother struct {
	valid bool      // a previous frame was recorded
	at    time.Time // the previous frame's time
	tick  game.Tick // the previous frame's world tick
	round uint16    // the previous frame's round number
	seed  uint64    // the previous frame's maze seed
	tanks [game.MaxPlayers]smoothTank
}

// smoothTank is one slot's smoothing state.
type smoothTank struct {
	live   bool    // seated and alive in the previous frame
	sx, sy int32   // simulated position in the previous frame
	ox, oy float64 // offset of the drawn position from the simulated one
}

// reset forgets every offset: the next frame is drawn as simulated.
func (s *smoother) reset() { s.valid = false }

// simPositions sets pos to the simulated position of each tank of v.
func simPositions(v *netcode.View, pos *[game.MaxPlayers][2]int32) {
	for i := range pos {
		pos[i] = [2]int32{v.World.Tanks[i].X, v.World.Tanks[i].Y}
	}
}

// update records the frame of v drawn at now and sets pos to where each
// tank is drawn: its simulated position plus its decayed offset. Offsets
// start or grow when a live tank's simulated position changes by more than
// it can move in the ticks since the previous frame, by the excess, up to
// smoothSnap; a tank is never drawn inside a wall. Everything snaps (no
// offsets) on a new round or maze, outside play, and for a tank that dies,
// respawns, is seated or jumps further than smoothSnap.
func (s *smoother) update(v *netcode.View, now time.Time, pos *[game.MaxPlayers][2]int32) {
	simPositions(v, pos)
	w := &v.World
	playing := v.Status == netcode.StatusPlaying || v.Status == netcode.StatusReconnecting
	fresh := !s.valid || !playing || w.Round.Number != s.round || w.Round.MazeSeed != s.seed
	decay := 1.0
	var allow int32
	if !fresh {
		if dt := now.Sub(s.at); dt > 0 {
			decay = math.Exp2(-float64(dt) / float64(smoothHalfLife))
		}
		if n := int64(int32(w.Tick - s.tick)); n > 0 { // ticks wrap
			allow = int32(min(n*smoothPerTick, 1<<24)) // 1<<24: beyond any maze
		}
	}
	s.valid = playing
	s.at, s.tick, s.round, s.seed = now, w.Tick, w.Round.Number, w.Round.MazeSeed
	slots := min(int(w.Slots), game.MaxPlayers)
	for i := range s.tanks {
		st := &s.tanks[i]
		tk := &w.Tanks[i]
		live := i < slots && tk.Seated && tk.Alive
		wasLive := st.live
		st.live = live
		if fresh || !live || !wasLive {
			st.sx, st.sy, st.ox, st.oy = tk.X, tk.Y, 0, 0
			continue
		}
		ex, ey := excess(tk.X-st.sx, allow), excess(tk.Y-st.sy, allow)
		st.sx, st.sy = tk.X, tk.Y
		ox, oy := st.ox-float64(ex), st.oy-float64(ey)
		if math.Abs(ox) > smoothSnap || math.Abs(oy) > smoothSnap {
			ox, oy = 0, 0
		}
		ox, oy = ox*decay, oy*decay
		if math.Abs(ox) < smoothDone {
			ox = 0
		}
		if math.Abs(oy) < smoothDone {
			oy = 0
		}
		st.ox, st.oy = ox, oy
		if ox != 0 || oy != 0 {
			pos[i] = drawnAt(&v.Maze, tk.X, tk.Y, int32(math.Round(ox)), int32(math.Round(oy)))
		}
	}
}

// drawnAt is where a tank simulated at (x, y) is drawn with offset (dx, dy):
// at (x+dx, y+dy), unless that is inside a wall (the straight way from an
// old position to a new one can cut a corner), then with the offset on one
// axis only, and failing that at (x, y). The offset itself is kept.
func drawnAt(m *game.Maze, x, y, dx, dy int32) [2]int32 {
	for _, p := range [...][2]int32{{x + dx, y + dy}, {x + dx, y}, {x, y + dy}} {
		if !m.IsWall(tileOf(p[0]), tileOf(p[1])) {
			return p
		}
	}
	return [2]int32{x, y}
}

// tileOf is the tile a position in sub-tiles is in (-1 left of or above
// the maze).
func tileOf(a int32) int {
	if a < 0 {
		return -1
	}
	return int(a / game.SubTile)
}

// excess is the part of a move d beyond ±allow.
func excess(d, allow int32) int32 {
	switch {
	case d > allow:
		return d - allow
	case d < -allow:
		return d + allow
	}
	return 0
}
