package tui

import (
	"github.com/gdamore/tcell/v2"

	"ttytanks/game"
	"ttytanks/netcode"
)

// Renderer draws frames on one screen. It remembers which cells its last
// frame inked (wrote something other than a plain blank to) and blanks
// only those of them the new frame leaves empty, instead of clearing the
// whole screen: a cell that keeps its content is not rewritten at all, so
// the screen sends only what changed. The result is the same as Draw's,
// which uses a fresh Renderer, provided nothing else draws on the screen
// between frames. Run uses one Renderer for its whole loop.
//
// A Renderer is not safe for concurrent use.
type Renderer struct {
	screen tcell.Screen
	opts   Options
	t      *theme

	w, h     int
	ink      []bool // cells inked by the frame being drawn
	prev     []bool // cells inked by the previous frame
	sweepAll bool   // no previous frame at this size: blank every cell not inked
}

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
	NewRenderer(screen, opts).Draw(v)
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

// begin starts a frame on a w×h screen.
func (r *Renderer) begin(w, h int) {
	if w != r.w || h != r.h || r.ink == nil {
		r.w, r.h = w, h
		r.ink = make([]bool, w*h)
		r.prev = make([]bool, w*h)
		r.sweepAll = true
	}
}

// end blanks the cells the previous frame inked and this one did not (every
// cell not inked, on a new screen or size) and makes this frame the
// previous one.
func (r *Renderer) end() {
	for i, inked := range r.ink {
		if !inked && (r.sweepAll || r.prev[i]) {
			r.screen.Put(i%r.w, i/r.w, " ", tcell.StyleDefault)
		}
	}
	r.sweepAll = false
	r.ink, r.prev = r.prev, r.ink
	clear(r.ink)
}

// put writes the grapheme cluster s (w cells wide) at (x, y) with style st
// and marks the cells inked. Off-screen cells are ignored.
func (r *Renderer) put(x, y int, s string, w int, st tcell.Style) {
	if x < 0 || y < 0 || x+w > r.w || y >= r.h {
		return
	}
	r.screen.Put(x, y, s, st)
	for i := range w {
		r.ink[y*r.w+x+i] = true
	}
}

// blank reports whether a plain space at (x, y) may be skipped: nothing
// has been drawn there in this frame, so the cell ends up blank anyway.
func (r *Renderer) blank(x, y int) bool {
	return x >= 0 && y >= 0 && x < r.w && y < r.h && !r.ink[y*r.w+x]
}

// putString writes the plain text s from (x, y) rightwards with style st,
// clipped to the columns of clip.
func (r *Renderer) putString(x, y int, s string, st tcell.Style, clip rect) {
	p := ansiPainter{r: r, clip: clip, base: st}
	p.paint(x, y, s)
}
