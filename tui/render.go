package tui

import (
	"github.com/gdamore/tcell/v2"

	"ttytanks/game"
	"ttytanks/netcode"
)

// Renderer draws frames on one screen. It keeps a copy of what it has put
// in each cell and writes to the screen only the cells whose content or
// style changes, then blanks the cells that the previous frame used and
// this one leaves empty, instead of clearing the whole screen. The result is
// the same as Draw's, which uses a fresh Renderer, provided nothing else
// draws on the screen between frames. Run uses one Renderer for its whole
// loop.
//
// A Renderer is not safe for concurrent use.
type Renderer struct {
	screen tcell.Screen
	opts   Options
	t      *theme

	w, h  int
	cells []shadowCell // what each cell of the screen holds; nil when oneShot
	ink   []bool       // cells drawn in the frame being drawn
	// oneShot marks a Renderer for a single frame (Draw): it writes every
	// cell and keeps no copy of the screen.
	oneShot bool
}

// shadowCell is the content of one screen cell as the Renderer put it.
type shadowCell struct {
	s  string
	st tcell.Style
}

// unknownCell never equals anything Draw puts, so a cell holding it is
// always written.
var unknownCell = shadowCell{s: "\x00"}

var blankCell = shadowCell{s: " ", st: tcell.StyleDefault}

// NewRenderer returns a Renderer that draws on screen with opts.
func NewRenderer(screen tcell.Screen, opts Options) *Renderer {
	return &Renderer{screen: screen, opts: opts, t: themeFor(opts)}
}

// Draw renders one frame of v onto screen (a pure function of v, opts and
// the screen's size) and shows it: the title row and the maze on the left,
// the sidebar flush with the right edge, a message box for the connecting,
// waiting, reconnecting and closed states, and, below MinWidth×MinHeight,
// only a "terminal too small" message. It writes every cell of the screen.
// Draw must not run concurrently with other use of screen; it does not keep
// v.
func Draw(screen tcell.Screen, v *netcode.View, opts Options) {
	r := NewRenderer(screen, opts)
	r.oneShot = true
	r.Draw(v)
}

// Draw renders one frame of v and shows it, as the package-level Draw does.
func (r *Renderer) Draw(v *netcode.View) {
	w, h := r.screen.Size()
	r.begin(w, h)
	t := r.t
	l := computeLayout(w, h, v)
	if l.tooSmall {
		r.drawTooSmall(w, h)
	} else {
		t.side.draw(r, l.side, v)
		if v.Status == netcode.StatusPlaying || v.Status == netcode.StatusReconnecting {
			r.drawTitle(&l, v)
			r.drawField(&l, v)
			if v.World.Round.Phase == game.PhaseOver && v.Status == netcode.StatusPlaying {
				below := rect{x: l.play.x, y: l.titleY + 1, w: l.play.w, h: l.play.h - 1}
				r.paintCentred(below, roundOverPanel(t, below.w, v))
			}
		}
		if s := statusPanel(t, l.play.w, v, r.opts); s != "" {
			r.paintCentred(l.play, s)
		}
	}
	r.end()
	r.screen.Show()
}

// begin starts a frame on a w×h screen. A new size makes every cell
// unknown, so the frame writes them all.
func (r *Renderer) begin(w, h int) {
	if w != r.w || h != r.h || r.ink == nil {
		r.w, r.h = w, h
		r.ink = make([]bool, w*h)
		if r.oneShot {
			return
		}
		r.cells = make([]shadowCell, w*h)
		for i := range r.cells {
			r.cells[i] = unknownCell
		}
	}
}

// end blanks the cells this frame did not draw and that are not blank.
func (r *Renderer) end() {
	for i, inked := range r.ink {
		switch {
		case inked:
		case r.oneShot:
			r.screen.Put(i%r.w, i/r.w, " ", tcell.StyleDefault)
		case r.cells[i] != blankCell:
			r.screen.Put(i%r.w, i/r.w, " ", tcell.StyleDefault)
			r.cells[i] = blankCell
		}
	}
	clear(r.ink)
}

// put draws the grapheme cluster s (w cells wide) at (x, y) with style st.
// Off-screen cells are ignored.
func (r *Renderer) put(x, y int, s string, w int, st tcell.Style) {
	if x < 0 || y < 0 || x+w > r.w || y >= r.h {
		return
	}
	i := y*r.w + x
	c := shadowCell{s, st}
	if r.oneShot {
		r.screen.Put(x, y, s, st)
	} else if r.cells[i] != c {
		r.screen.Put(x, y, s, st)
		r.cells[i] = c
		for k := 1; k < w; k++ {
			r.cells[i+k] = unknownCell // covered by a wide character
		}
	}
	for k := range w {
		r.ink[i+k] = true
	}
}

// blank reports whether a plain space at (x, y) may be skipped: nothing
// has been drawn there in this frame, so end leaves it blank anyway.
func (r *Renderer) blank(x, y int) bool {
	return x >= 0 && y >= 0 && x < r.w && y < r.h && !r.ink[y*r.w+x]
}

// putString writes the plain text s from (x, y) rightwards with style st,
// clipped to the columns of clip.
func (r *Renderer) putString(x, y int, s string, st tcell.Style, clip rect) {
	p := ansiPainter{r: r, clip: clip, base: st}
	p.paint(x, y, s)
}
