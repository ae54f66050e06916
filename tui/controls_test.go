package tui

import (
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"ttytanks/game"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

func runeKey(r rune) *tcell.EventKey { return tcell.NewEventKey(tcell.KeyRune, r, tcell.ModNone) }
func specialKey(k tcell.Key) *tcell.EventKey {
	return tcell.NewEventKey(k, 0, tcell.ModNone)
}

// move is the movement part of an input.
type move struct{ x, y int8 }

func moveOf(in game.Input) move { return move{in.MoveX, in.MoveY} }

// directionKeys are every key that moves, with the direction it moves.
var directionKeys = []struct {
	name string
	ev   *tcell.EventKey
	want move
}{
	{"Up", specialKey(tcell.KeyUp), move{0, -1}},
	{"Down", specialKey(tcell.KeyDown), move{0, 1}},
	{"Left", specialKey(tcell.KeyLeft), move{-1, 0}},
	{"Right", specialKey(tcell.KeyRight), move{1, 0}},
	{"w", runeKey('w'), move{0, -1}},
	{"W", runeKey('W'), move{0, -1}},
	{"s", runeKey('s'), move{0, 1}},
	{"S", runeKey('S'), move{0, 1}},
	{"a", runeKey('a'), move{-1, 0}},
	{"A", runeKey('A'), move{-1, 0}},
	{"d", runeKey('d'), move{1, 0}},
	{"D", runeKey('D'), move{1, 0}},
}

// TestHoldAutoRepeat holds each direction key as a terminal reports it: a
// press, the auto-repeat delay, then repeats. Movement must be continuous
// throughout and stop HoldRepeat after the last repeat.
func TestHoldAutoRepeat(t *testing.T) {
	cadences := []struct {
		delay, every time.Duration
	}{
		{ms(500), ms(30)},
		{ms(500), ms(50)},
		{ms(250), ms(33)},
		{ms(590), ms(40)}, // a slow terminal: the first repeat just before HoldFirst
	}
	for _, k := range directionKeys {
		for _, cad := range cadences {
			c := NewControls(ControlsHold)
			if c.Key(k.ev, t0) {
				t.Fatalf("%s: Key reported quit", k.name)
			}
			last := t0
			for at := t0.Add(cad.delay); at.Before(t0.Add(ms(2000))); at = at.Add(cad.every) {
				// Sample between events at a 1 ms resolution.
				for s := last; s.Before(at); s = s.Add(ms(1)) {
					if got := moveOf(c.Input(s)); got != k.want {
						t.Fatalf("%s, delay %v, repeat %v: at +%v got %v, want %v",
							k.name, cad.delay, cad.every, s.Sub(t0), got, k.want)
					}
				}
				c.Key(k.ev, at)
				last = at
			}
			if got := moveOf(c.Input(last.Add(HoldRepeat - time.Nanosecond))); got != k.want {
				t.Errorf("%s: just before the deadline got %v, want %v", k.name, got, k.want)
			}
			if got := moveOf(c.Input(last.Add(HoldRepeat))); got != (move{}) {
				t.Errorf("%s: at the deadline, %v after the last repeat, got %v, want stopped", k.name, HoldRepeat, got)
			}
		}
	}
}

func TestHoldTap(t *testing.T) {
	c := NewControls(ControlsHold)
	c.Key(specialKey(tcell.KeyRight), t0)
	if got := moveOf(c.Input(t0.Add(HoldFirst - time.Nanosecond))); got != (move{1, 0}) {
		t.Errorf("just before HoldFirst: got %v, want right", got)
	}
	if got := moveOf(c.Input(t0.Add(HoldFirst))); got != (move{}) {
		t.Errorf("at HoldFirst: got %v, want stopped", got)
	}
	// A press after the hold ran out is a first press again.
	c.Key(specialKey(tcell.KeyRight), t0.Add(ms(1000)))
	if got := moveOf(c.Input(t0.Add(ms(1000) + HoldFirst - time.Nanosecond))); got != (move{1, 0}) {
		t.Errorf("second tap: got %v just before its HoldFirst, want right", got)
	}
}

// TestHoldRepeatNeverShortens: a quick second press does not cut the
// first press's longer hold short.
func TestHoldRepeatNeverShortens(t *testing.T) {
	c := NewControls(ControlsHold)
	c.Key(runeKey('d'), t0)
	c.Key(runeKey('d'), t0.Add(ms(30)))
	if got := moveOf(c.Input(t0.Add(ms(599)))); got != (move{1, 0}) {
		t.Errorf("at +599ms got %v, want right (the first press holds for %v)", got, HoldFirst)
	}
}

func TestHoldFireKeepsMoving(t *testing.T) {
	c := NewControls(ControlsHold)
	c.Key(runeKey('d'), t0)
	c.Key(runeKey(' '), t0.Add(ms(100)))
	in := c.Input(t0.Add(ms(100)))
	if !in.Fire() || moveOf(in) != (move{1, 0}) {
		t.Fatalf("after space while moving right: got %+v, want fire and right", in)
	}
	if in := c.Input(t0.Add(ms(100) + HoldFire - time.Nanosecond)); !in.Fire() {
		t.Errorf("fire released before HoldFire: %+v", in)
	}
	in = c.Input(t0.Add(ms(100) + HoldFire))
	if in.Fire() {
		t.Errorf("fire still held at HoldFire: %+v", in)
	}
	if moveOf(in) != (move{1, 0}) {
		t.Errorf("movement lost after firing: %+v", in)
	}
	if in.Buttons&^game.ButtonMask != 0 {
		t.Errorf("unknown button bits: %+v", in)
	}
}

func TestHoldDiagonal(t *testing.T) {
	c := NewControls(ControlsHold)
	c.Key(specialKey(tcell.KeyRight), t0)
	c.Key(specialKey(tcell.KeyUp), t0.Add(ms(100)))
	if got := moveOf(c.Input(t0.Add(ms(100)))); got != (move{1, -1}) {
		t.Fatalf("right then up: got %v, want up-right", got)
	}
	// Up keeps repeating; right, no longer repeated by the terminal,
	// expires on its own deadline.
	for at := t0.Add(ms(600)); at.Before(t0.Add(ms(1000))); at = at.Add(ms(40)) {
		c.Key(specialKey(tcell.KeyUp), at)
	}
	if got := moveOf(c.Input(t0.Add(HoldFirst - time.Nanosecond))); got != (move{1, -1}) {
		t.Errorf("before right's deadline: got %v, want up-right", got)
	}
	if got := moveOf(c.Input(t0.Add(HoldFirst))); got != (move{0, -1}) {
		t.Errorf("after right's deadline: got %v, want up", got)
	}
}

func TestHoldOppositeReplaces(t *testing.T) {
	c := NewControls(ControlsHold)
	c.Key(runeKey('a'), t0)
	c.Key(runeKey('a'), t0.Add(ms(500)))
	c.Key(runeKey('d'), t0.Add(ms(520)))
	if got := moveOf(c.Input(t0.Add(ms(520)))); got != (move{1, 0}) {
		t.Fatalf("left then right: got %v, want right", got)
	}
	// The new direction is a first press: it holds for HoldFirst.
	if got := moveOf(c.Input(t0.Add(ms(520) + HoldFirst - time.Nanosecond))); got != (move{1, 0}) {
		t.Errorf("got %v just before the replacing key's HoldFirst, want right", got)
	}
	if got := moveOf(c.Input(t0.Add(ms(520) + HoldFirst))); got != (move{}) {
		t.Errorf("got %v at the replacing key's HoldFirst, want stopped", got)
	}
}

func TestHoldStopKey(t *testing.T) {
	c := NewControls(ControlsHold)
	c.Key(runeKey('d'), t0)
	c.Key(runeKey('s'), t0)
	c.Key(runeKey('x'), t0.Add(ms(10)))
	if got := moveOf(c.Input(t0.Add(ms(10)))); got != (move{}) {
		t.Errorf("after x: got %v, want stopped", got)
	}
}

func TestSticky(t *testing.T) {
	c := NewControls(ControlsSticky)
	steps := []struct {
		after time.Duration // since the previous step
		ev    *tcell.EventKey
		want  move
	}{
		{0, specialKey(tcell.KeyRight), move{1, 0}},
		{ms(10), runeKey('w'), move{1, -1}},                   // perpendicular, together: diagonal
		{ms(10), runeKey(' '), move{1, -1}},                   // firing keeps moving
		{time.Second, specialKey(tcell.KeyLeft), move{-1, 0}}, // opposite, later: reverses, drops the other axis
		{time.Second, runeKey('s'), move{0, 1}},               // perpendicular, later: turns
		{ms(50), runeKey('D'), move{1, 1}},                    // within StickyChord of s: diagonal
		{ms(10), runeKey('x'), move{}},                        // x stops both axes
		{ms(10), runeKey('s'), move{0, 1}},
		{ms(10), runeKey('X'), move{}},
	}
	at := t0
	for i, s := range steps {
		at = at.Add(s.after)
		c.Key(s.ev, at)
		// Sticky movement does not time out.
		for _, later := range []time.Duration{0, time.Second, time.Hour} {
			if got := moveOf(c.Input(at.Add(later))); got != s.want {
				t.Fatalf("step %d (%s), +%v: got %v, want %v", i, s.ev.Name(), later, got, s.want)
			}
		}
	}
	c.Key(runeKey(' '), at)
	if !c.Input(at.Add(HoldFire-time.Nanosecond)).Fire() || c.Input(at.Add(HoldFire)).Fire() {
		t.Errorf("sticky mode: space must hold fire for exactly %v", HoldFire)
	}
}

func TestQuitKeys(t *testing.T) {
	tests := []struct {
		name string
		ev   *tcell.EventKey
		quit bool
	}{
		{"q", runeKey('q'), true},
		{"Q", runeKey('Q'), true},
		{"Ctrl-C", tcell.NewEventKey(tcell.KeyCtrlC, 0, tcell.ModCtrl), true},
		{"Ctrl-C as byte 3", tcell.NewEventKey(tcell.KeyRune, 3, tcell.ModNone), true},
		{"Ctrl-C as ETX", tcell.NewEventKey(tcell.KeyETX, 0, tcell.ModNone), true},
		{"Ctrl-c rune", tcell.NewEventKey(tcell.KeyRune, 'c', tcell.ModCtrl), true},
		{"Ctrl-C rune", tcell.NewEventKey(tcell.KeyRune, 'C', tcell.ModCtrl), true},
		{"c", runeKey('c'), false},
		{"space", runeKey(' '), false},
		{"x", runeKey('x'), false},
		{"Esc", specialKey(tcell.KeyEscape), false},
		{"Enter", specialKey(tcell.KeyEnter), false},
		{"z", runeKey('z'), false},
	}
	for _, tt := range tests {
		for _, mode := range []ControlMode{ControlsHold, ControlsSticky} {
			if got := NewControls(mode).Key(tt.ev, t0); got != tt.quit {
				t.Errorf("%s in %v mode: quit = %v, want %v", tt.name, mode, got, tt.quit)
			}
		}
	}
}

func TestParseControlMode(t *testing.T) {
	tests := []struct {
		in      string
		want    ControlMode
		wantErr bool
	}{
		{"hold", ControlsHold, false},
		{"sticky", ControlsSticky, false},
		{"", ControlsHold, true},
		{"Sticky", ControlsHold, true},
		{"toggle", ControlsHold, true},
	}
	for _, tt := range tests {
		got, err := ParseControlMode(tt.in)
		if (err != nil) != tt.wantErr || (err == nil && got != tt.want) {
			t.Errorf("ParseControlMode(%q) = %v, %v; want %v, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
		if err == nil && got.String() != tt.in {
			t.Errorf("%v.String() = %q, want %q", got, got.String(), tt.in)
		}
	}
}

// TestStickyDefects are the two sticky-mode defects players met: a
// direction pressed against a wall stayed active and later turned a Right
// into a diagonal slide, and reversing took two presses.
func TestStickyDefects(t *testing.T) {
	tests := []struct {
		name string
		keys []*tcell.EventKey // a second apart
		want move
	}{
		{"up against a wall, then right", []*tcell.EventKey{specialKey(tcell.KeyUp), specialKey(tcell.KeyRight)}, move{1, 0}},
		{"right, then left reverses at once", []*tcell.EventKey{specialKey(tcell.KeyRight), specialKey(tcell.KeyLeft)}, move{-1, 0}},
		{"a, then d", []*tcell.EventKey{runeKey('a'), runeKey('d')}, move{1, 0}},
	}
	for _, tt := range tests {
		c := NewControls(ControlsSticky)
		at := t0
		for _, k := range tt.keys {
			c.Key(k, at)
			at = at.Add(time.Second)
		}
		if got := moveOf(c.Input(at)); got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}
