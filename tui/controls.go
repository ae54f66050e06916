package tui

import (
	"time"

	"github.com/gdamore/tcell/v2"

	"ttytanks/game"
)

// Hold-mode timings. Terminals report key presses but never releases; a
// held key arrives as one press, a pause (the auto-repeat delay, typically
// 250–500 ms) and then repeats every 30–50 ms. A first press is a tap: it
// holds its direction until the tank will come to rest on the centre of
// the next tile that way (see Track), which takes about 300 ms, so one tap
// moves one tile. A press of the same key while a tap is under way is an
// auto-repeat: the key is held, and the direction stays held for HoldRepeat
// after each repeat, long enough to bridge a few missed repeats; when the
// repeats stop, the tank goes on to the next tile centre it can stop on.
// (A key held down through a long auto-repeat delay takes a step, stops,
// and drives on with the first repeat.)
//
// Until Track has seen the local tank (and for a tank out of play), a
// first press holds its direction for HoldFirst instead, long enough to
// bridge the auto-repeat delay, and movement stops HoldRepeat after the
// last repeat.
const (
	// HoldFirst is how long one press of a direction key holds it when the
	// tank is not tracked, and the longest a tap is held (the tank may be
	// stuck behind another, or held by the countdown).
	HoldFirst = 750 * time.Millisecond
	// HoldRepeat is how long each auto-repeat of a held key extends it.
	HoldRepeat = 200 * time.Millisecond
	// HoldFire is how long one press of space holds the fire button, so
	// that a tick whose cooldown blocks the shot does not lose the press.
	HoldFire = 150 * time.Millisecond
	// StickyChord is how close together two perpendicular keys must be
	// pressed in sticky mode to move diagonally; a later press of one axis
	// drops the other.
	StickyChord = 150 * time.Millisecond
)

// axis is one movement axis: the direction held on it and, in hold mode,
// the deadline at which it is released, or the tile centre a tap stops at.
type axis struct {
	dir     int8      // -1, 0 or 1
	until   time.Time // hold mode: dir is held while now is before until
	pressed time.Time // sticky mode: when dir was last set
	tap     tapState  // hold mode: how a tap or the end of a hold stops
	target  int32     // tapping: the tile centre (sub-tiles) it stops on
}

// tapState is how a hold-mode axis ends.
type tapState uint8

const (
	// held: dir is held until until (a held key, or an untracked tank).
	held tapState = iota
	// tapping: dir is held until the tank will come to rest at target (or
	// until, at the latest).
	tapping
	// turning: the tile ahead is a wall; dir is held until the tank faces
	// it (one tick, and a drift of a few sub-tiles towards the wall).
	turning
	// stopped: the tap is over; dir is no longer held, but a press of the
	// same key before until is a new tap, not a repeat.
	stopped
)

// held returns the direction held at now.
func (a *axis) held(mode ControlMode, now time.Time) int8 {
	switch {
	case mode == ControlsSticky:
		return a.dir
	case a.tap == stopped || !now.Before(a.until):
		return 0
	}
	return a.dir
}

// press applies a press of the key for dir on this axis at now; other is
// the perpendicular axis, tk the tracked tank (nil: none).
//
// In sticky mode the key sets the axis, the opposite key included (it
// reverses at once), and the other axis is dropped unless it was set less
// than StickyChord ago: two keys pressed together move diagonally, but a
// direction pressed earlier (against a wall, say) does not linger to turn
// a later turn into a diagonal slide.
func (a *axis) press(mode ControlMode, dir int8, now time.Time, other *axis, tk *tracked, k int) {
	if mode == ControlsSticky {
		a.dir, a.pressed = dir, now
		if now.Sub(other.pressed) >= StickyChord {
			other.dir = 0
		}
		return
	}
	if a.dir == dir && now.Before(a.until) && a.tap != stopped {
		// A press of a key that is still held is an auto-repeat: the key is
		// held down. Extend the hold, never shortening a held one.
		if a.tap != held {
			a.tap, a.until = held, now
		}
		if t := now.Add(HoldRepeat); t.After(a.until) {
			a.until = t
		}
		return
	}
	// A first press, the opposite key replacing the direction, or a tap
	// after the last one stopped.
	a.dir, a.until, a.tap = dir, now.Add(HoldFirst), held
	if tk != nil {
		a.tap, a.target = tk.tapTarget(k, dir)
	}
}

// Controls turns key events into the game.Input the player holds. Time is
// passed in, so tests drive it with a fake clock. A Controls is not safe for
// concurrent use; Run owns one.
//
// Arrow keys and WASD (either case) move, space fires, 'x' stops, and q, Q
// and Ctrl-C quit. The two axes are independent, so two perpendicular keys
// held together give a diagonal. See ControlMode and HoldFirst for how the
// missing key-release events are bridged, and Track for how a tap moves
// one tile.
type Controls struct {
	mode      ControlMode
	x, y      axis
	fireUntil time.Time
	tank      tracked // the local tank, as Track last saw it
}

// NewControls returns Controls in mode with nothing held.
func NewControls(mode ControlMode) *Controls {
	return &Controls{mode: mode}
}

// Key applies the key event ev received at now and reports whether it asks
// to quit (q, Q or Ctrl-C). Keys that mean nothing to the game are ignored.
func (c *Controls) Key(ev *tcell.EventKey, now time.Time) (quit bool) {
	if isCtrlC(ev) {
		return true
	}
	switch ev.Key() {
	case tcell.KeyUp:
		c.y.press(c.mode, -1, now, &c.x, c.tank.get(), 1)
	case tcell.KeyDown:
		c.y.press(c.mode, 1, now, &c.x, c.tank.get(), 1)
	case tcell.KeyLeft:
		c.x.press(c.mode, -1, now, &c.y, c.tank.get(), 0)
	case tcell.KeyRight:
		c.x.press(c.mode, 1, now, &c.y, c.tank.get(), 0)
	case tcell.KeyRune:
		switch ev.Rune() {
		case 'q', 'Q':
			return true
		case 'w', 'W':
			c.y.press(c.mode, -1, now, &c.x, c.tank.get(), 1)
		case 's', 'S':
			c.y.press(c.mode, 1, now, &c.x, c.tank.get(), 1)
		case 'a', 'A':
			c.x.press(c.mode, -1, now, &c.y, c.tank.get(), 0)
		case 'd', 'D':
			c.x.press(c.mode, 1, now, &c.y, c.tank.get(), 0)
		case ' ':
			c.fireUntil = now.Add(HoldFire)
		case 'x', 'X':
			c.x, c.y = axis{}, axis{}
		}
	}
	return false
}

// isCtrlC reports whether ev is Ctrl-C, which tcell reports as KeyCtrlC
// from a terminal but as KeyETX (the raw byte 3) or a Ctrl-modified 'c'
// from other sources.
func isCtrlC(ev *tcell.EventKey) bool {
	switch ev.Key() {
	case tcell.KeyCtrlC, tcell.KeyETX:
		return true
	case tcell.KeyRune:
		return ev.Modifiers()&tcell.ModCtrl != 0 && (ev.Rune() == 'c' || ev.Rune() == 'C')
	}
	return false
}

// Input returns the input held at now. Its Tick is zero: the client stamps
// it when it samples it.
func (c *Controls) Input(now time.Time) game.Input {
	in := game.Input{MoveX: c.x.held(c.mode, now), MoveY: c.y.held(c.mode, now)}
	if now.Before(c.fireUntil) {
		in.Buttons |= game.ButtonFire
	}
	return in
}
