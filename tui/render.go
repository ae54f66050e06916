package tui

import (
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/gdamore/tcell/v2"

	"ttytanks/game"
	"ttytanks/netcode"
)

// Renderer draws frames on one screen. It keeps a copy of what it has put
// in each cell and writes to the screen only the cells whose content or
// style changes, then blanks the cells that the previous frame used and
// this one leaves empty, instead of clearing the whole screen. The result is
// the same as Draw's, which uses a fresh Renderer, provided nothing else
// draws on the screen between frames, except for what the Renderer
// remembers of earlier views: the event feed and the bursts of tanks it saw
// destroyed. Run uses one Renderer for its whole loop.
//
// DrawAt also smooths corrections: a tank whose simulated position jumps
// (the client restored an authoritative State and replayed) is drawn
// gliding from where it was drawn to where it is simulated, by an offset
// that decays with frame time (see the package documentation). Draw and
// Options.NoSmoothing draw every tank exactly where it is simulated.
//
// A Renderer is not safe for concurrent use.
type Renderer struct {
	screen tcell.Screen
	opts   Options
	t      *theme

	w, h int
	// cells is what each cell of the screen holds, as far as the frame
	// being drawn has put it (nil when oneShot); was is the first content
	// this frame replaced in each cell it changed, so that end writes
	// only the cells whose content differs from the screen's when the
	// frame is done.
	cells []shadowCell
	was   []changedCell
	flags []cellFlags // per cell, in the frame being drawn
	// stale makes the next frame forget what the screen holds
	// (Invalidate).
	stale  bool
	styles styleTable
	ids    []styleID // scratch: a parsed text's styles as numbered in styles
	// oneShot marks a Renderer for a single frame (Draw): it writes every
	// cell and keeps no copy of the screen.
	oneShot bool
	// puts counts the cells this frame changed: a frame that changed none
	// is not shown (tcell would scan every cell to find nothing to send).
	puts int
	// figs are the sidebar's figures as last shown: they are refreshed
	// ten times a second, which is as fast as anyone reads them.
	figs sideFigures
	// unicode holds the cells of the plain non-ASCII texts drawn lately
	// (sparklines, hearts, arrows): their grapheme clusters and widths
	// are found once, not on every frame.
	unicode map[string]*textCells

	smooth smoother
	// hud is what the player chose to see; fx and feed remember what
	// earlier frames showed, for the effects and the event feed.
	hud  HUD
	fx   effects
	feed feed
	// chat is the chat line the player types into (Run keys it); now is
	// the frame's time, for how long a refusal shows.
	chat chatPrompt
	now  time.Time
	// panel, when set, replaces the session's sidebar, help and feed
	// (SetPanel).
	panel *Panel
	// pos is where each slot's tank is drawn in the frame being drawn, in
	// sub-tiles: its simulated position plus its smoothing offset.
	pos [game.MaxPlayers][2]int32
	// labels are the name labels placed in the frame being drawn.
	labels labelPlaces
}

// cellFlags say what the frame being drawn did to a cell.
type cellFlags uint8

const (
	inked   cellFlags = 1 << iota // drawn in the frame
	changed                       // given content other than the screen's: its old content is in was
	forced                        // given content other than the screen's, with was full: written whatever it ends as
)

// changedCell is a cell the frame being drawn changed, with the content
// the screen holds there.
type changedCell struct {
	i   int32
	old shadowCell
}

// maxWas is the most changed cells a frame remembers the old content of
// (8 KB): a frame that changes more, a whole new screen, writes the rest
// whatever they end as.
const maxWas = 256

// NewRenderer returns a Renderer that draws on screen with opts.
func NewRenderer(screen tcell.Screen, opts Options) *Renderer {
	return &Renderer{screen: screen, opts: opts, t: themeFor(opts), hud: opts.HUD}
}

// HUD returns the Renderer's display choices, which the next frame draws;
// Run changes them with HUD.Key.
func (r *Renderer) HUD() *HUD { return &r.hud }

// Draw renders one frame of v onto screen (a pure function of v, opts and
// the screen's size) and shows it: the title row and the maze on the left,
// the sidebar flush with the right edge, a message box for the connecting,
// waiting, reconnecting and closed states. Below MinWidth×MinHeight the
// sidebar is left out and the title row carries the essential figures,
// down to the size of the maze (see compactMin); below that Draw shows
// only a "terminal too small" message. It writes every cell of the screen.
// Draw must not run concurrently with other use of screen; it does not keep
// v.
func Draw(screen tcell.Screen, v *netcode.View, opts Options) {
	r := NewRenderer(screen, opts)
	r.oneShot = true
	r.Draw(v)
}

// Draw renders one frame of v and shows it, as the package-level Draw does:
// every tank is drawn exactly where it is simulated. It ends any smoothing
// in progress, so the next DrawAt starts afresh.
func (r *Renderer) Draw(v *netcode.View) {
	r.smooth.reset()
	simPositions(v, &r.pos)
	r.draw(v, true)
}

// DrawAt renders the frame of v shown at time now (the frame's clock, which
// only has to advance between frames; Run passes its own) and shows it. It
// is Draw with correction smoothing: a live tank whose simulated position
// changed by more than it could move since the previous frame's tick is
// drawn offset towards where the previous frame drew it, by an offset that
// halves every 60 ms of frame time. With Options.NoSmoothing it draws
// every tank where it is simulated, as Draw does.
//
// Unlike Draw, DrawAt does not show a frame that changed no cell of the
// screen (tcell would compare every cell to find nothing to send): the
// caller must draw nothing on the screen but through the Renderer.
func (r *Renderer) DrawAt(v *netcode.View, now time.Time) {
	if r.opts.NoSmoothing || r.oneShot {
		r.smooth.reset()
		simPositions(v, &r.pos)
	} else {
		r.smooth.update(v, now, &r.pos)
	}
	r.now = now
	r.draw(v, r.oneShot)
}

// draw renders one frame of v with the tanks at r.pos and shows it if
// always or if it changed a cell.
func (r *Renderer) draw(v *netcode.View, always bool) {
	w, h := r.screen.Size()
	r.begin(w, h)
	r.fx.observe(v)
	r.feed.observe(v)
	r.feed.observeChat(v)
	t := r.t
	focus := v.Slot
	if focus < 0 {
		focus = r.hud.followed()
	}
	l := computeLayoutFocus(w, h, v, &r.pos, focus)
	switch {
	case l.tooSmall:
		r.drawTooSmall(w, h, l.needW, l.needH)
	case matchOver(v):
		// The results take the whole screen: the map is frozen and the
		// table needs more room than the map has at 80x24. The newest
		// lines of the feed (the chat, mostly) go below it.
		panel := resultsPanel(t, w, v, r.opts.Lobby)
		r.paintCentred(rect{0, 0, w, h}, panel)
		if free := (h - lipgloss.Height(panel)) / 2; free >= 3 {
			for k, line := range r.feed.shownLines(min(free-2, 3), r.hud.Chat) {
				r.putFeedLine(1, h-1-min(free-2, 3)+k, line, w-2, t.text, rect{0, 0, w, h})
			}
		}
	default:
		switch {
		case l.compact:
		case r.panel != nil:
			t.side.drawPanel(r, l.side, v, r.panel)
		default:
			t.side.draw(r, l.side, v)
		}
		if v.Status == netcode.StatusPlaying || v.Status == netcode.StatusReconnecting {
			r.drawTitle(&l, v)
			r.drawField(&l, v)
			if l.compact || r.hud.Detail != SidebarScores { // there, the sidebar shows the feed
				r.drawFeed(&l)
			}
			below := rect{x: l.play.x, y: l.titleY + 1, w: l.play.w, h: l.play.h - 1}
			switch {
			case v.Status != netcode.StatusPlaying:
			case v.World.Round.Phase == game.PhaseOver:
				r.paintCentred(below, roundOverPanel(t, below.w, v))
			case v.World.Round.Phase == game.PhaseWaiting:
				r.paintCentred(below, waitingPanel(t, below.w, v, r.opts.Lobby))
			}
		}
		if s := statusPanel(t, l.play.w, v, r.opts); s != "" {
			area := l.play
			if v.Status == netcode.StatusReconnecting {
				// Below the title, which says which round is waiting.
				area = rect{x: l.play.x, y: l.titleY + 1, w: l.play.w, h: l.play.h - l.titleY - 1}
			}
			r.paintCentred(area, s)
			if cmd := joinCommand(v, r.opts); cmd != "" && v.Status == netcode.StatusWaiting {
				r.drawShareLine(area, s, cmd)
			}
		}
	}
	if !l.tooSmall {
		if s := r.chat.line(t.g, r.now); s != "" {
			// The bottom row: below the feed, or on the results screen.
			x, cw := l.play.x, l.play.w
			if matchOver(v) {
				x, cw = 1, w-2
			}
			r.putString(x, h-1, truncate(s, cw, t.g.ellipsis)+strings.Repeat(" ", max(cw-textWidth(s), 0)), t.valueCell, rect{0, 0, w, h})
		}
		if r.hud.Paused && !r.hud.Help {
			// Over the field, below the title: the sidebar stays readable.
			r.paintCentred(rect{l.play.x, l.titleY + 1, l.play.w, max(l.play.h-l.titleY-1, 1)}, renderPanel(t, l.play.w, "paused",
				"the game stands still", t.value.Render("p plays on "+t.g.dot+" q quits")))
		}
		switch {
		case r.hud.Help && r.panel != nil:
			r.paintCentred(rect{0, 0, w, h}, panelHelp(t, w, r.panel))
		case r.hud.Help:
			r.paintCentred(rect{0, 0, w, h}, helpPanel(t, w, h, r.hud.Paused))
		}
		if r.hud.Quitting {
			r.paintCentred(rect{0, 0, w, h}, renderPanel(t, w, "quit?",
				"others are playing: quitting ends the match for everyone", t.value.Render("y quit "+t.g.dot+" n play on")))
		}
	}
	r.end()
	if r.puts > 0 || always {
		r.screen.Show()
	}
	r.puts = 0
}

// Invalidate makes the next frame write every cell, as the first does.
// Call it when the screen's own cells may no longer be what this Renderer
// last wrote: after a resize event (tcell crops and regrows its buffer, so
// a window shrunk and restored between two frames comes back blank at the
// same size) and before a Sync.
func (r *Renderer) Invalidate() { r.stale = true }

// begin starts a frame on a w×h screen. A new size, or Invalidate, makes
// every cell unknown, so the frame writes them all; so does a style
// table grown beyond keepStyles, which begins again.
func (r *Renderer) begin(w, h int) {
	if w != r.w || h != r.h || r.flags == nil {
		r.w, r.h = w, h
		r.flags = make([]cellFlags, w*h)
		r.cells = nil
		r.stale = true
	}
	if r.oneShot {
		return
	}
	if r.styles.len() > keepStyles {
		r.styles.reset()
		r.stale = true
	}
	if r.stale {
		if len(r.cells) != w*h {
			r.cells = make([]shadowCell, w*h)
		}
		for i := range r.cells {
			r.cells[i] = unknownCell
		}
		r.stale = false
	}
}

// end writes to the screen the cells whose content this frame changed
// (what was drawn over within the frame counts once, as it ends up) and
// blanks the cells this frame did not draw and that are not blank.
func (r *Renderer) end() {
	if r.oneShot {
		for i, f := range r.flags {
			if f&inked == 0 {
				r.screen.Put(i%r.w, i/r.w, " ", tcell.StyleDefault)
			}
		}
		clear(r.flags)
		return
	}
	for _, ch := range r.was {
		if c := r.cells[ch.i]; c != ch.old {
			r.write(int(ch.i), c)
		}
	}
	r.was = r.was[:0]
	for i, f := range r.flags {
		switch {
		case f&inked == 0:
			if !r.cells[i].isBlank() {
				r.write(i, blankCell)
			}
		case f&forced != 0:
			r.write(i, r.cells[i])
		}
	}
	clear(r.flags)
}

// write puts c in cell i of the screen, at the end of a frame; a cell
// covered by a wide character is left to it, and is unknown from then on.
func (r *Renderer) write(i int, c shadowCell) {
	if c == coveredCell {
		r.cells[i] = unknownCell
		return
	}
	r.screen.Put(i%r.w, i/r.w, c.s, r.styles.style(c.st))
	r.cells[i] = c
	r.puts++
}

// put draws the grapheme cluster s (w cells wide) at (x, y) with style st.
// Off-screen cells are ignored.
func (r *Renderer) put(x, y int, s string, w int, st tcell.Style) {
	if x < 0 || y < 0 || x+w > r.w || y >= r.h {
		return
	}
	i := y*r.w + x
	if r.oneShot {
		r.screen.Put(x, y, s, st)
		for k := range w {
			r.flags[i+k] = inked
		}
		return
	}
	r.putID(x, y, s, w, r.styles.id(st))
}

// putID is put in the style numbered id in the Renderer's styles.
func (r *Renderer) putID(x, y int, s string, w int, id styleID) {
	if r.oneShot {
		r.put(x, y, s, w, r.styles.style(id))
		return
	}
	if x < 0 || y < 0 || x+w > r.w || y >= r.h {
		return
	}
	i := y*r.w + x
	r.set(i, shadowCell{s, id})
	for k := 1; k < w; k++ {
		r.set(i+k, coveredCell)
	}
}

// set gives cell i the content c in the frame being drawn.
func (r *Renderer) set(i int, c shadowCell) {
	f := r.flags[i]
	r.flags[i] = f | inked
	if old := r.cells[i]; old != c {
		switch {
		case f&(changed|forced) != 0:
		case len(r.was) < maxWas:
			r.flags[i] |= changed
			r.was = append(r.was, changedCell{int32(i), old})
		default:
			r.flags[i] |= forced
		}
		r.cells[i] = c
	}
}

// replay draws a text parsed by parseCells with its corner at (x, y),
// clipped to clip, as ansiPainter.paint would draw it.
func (r *Renderer) replay(t *paintedText, x, y int, clip rect) {
	ids := r.ids[:0]
	for _, st := range t.styles {
		ids = append(ids, r.styles.id(st))
	}
	r.ids = ids
	if !r.oneShot && clip.contains(x, y) && clip.contains(x+t.w-1, y+t.h-1) && x+t.w <= r.w && y+t.h <= r.h {
		// All of it shows: no cell needs clipping (a sidebar's frame, a
		// panel that fits).
		for i := range t.cells {
			c := &t.cells[i]
			k := (y+int(c.y))*r.w + x + int(c.x)
			if id := ids[c.st]; c.g != " " || id != 0 || r.flags[k]&inked != 0 {
				r.set(k, shadowCell{c.g, id})
				for j := 1; j < int(c.w); j++ {
					r.set(k+j, coveredCell)
				}
			}
		}
		return
	}
	for i := range t.cells {
		c := &t.cells[i]
		r.replayCell(c, x, y, clip, ids[c.st])
	}
}

// replayAs is replay of cells all in style st (their own are ignored).
func (r *Renderer) replayAs(cells []paintedCell, x, y int, clip rect, st tcell.Style) {
	id := r.styles.id(st)
	for i := range cells {
		r.replayCell(&cells[i], x, y, clip, id)
	}
}

// replayCell draws c, with its text's corner at (x, y), in style id.
func (r *Renderer) replayCell(c *paintedCell, x, y int, clip rect, id styleID) {
	cx, cy, w := int(c.x)+x, int(c.y)+y, int(c.w)
	if clip.contains(cx, cy) && cx+w <= clip.x+clip.w &&
		!(c.g == " " && id == 0 && r.blank(cx, cy)) {
		r.putID(cx, cy, c.g, w, id)
	}
}

// textCells is a plain text parsed into cells, and its width.
type textCells struct {
	cells []paintedCell
	w     int
}

// unicodeText returns the cells of s when s is plain text (no escape
// sequence, no control character) with a non-ASCII character, from the
// Renderer's cache; otherwise nil: ASCII is as quick to draw as to look
// up.
func (r *Renderer) unicodeText(s string) *textCells {
	wide := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c == 0x7f:
			return nil
		case c >= 0x80:
			wide = true
		}
	}
	if !wide {
		return nil
	}
	if c, ok := r.unicode[s]; ok {
		return c
	}
	if r.unicode == nil || len(r.unicode) >= 512 {
		r.unicode = make(map[string]*textCells)
	}
	c := &textCells{cells: parseCells(s, tcell.StyleDefault, false).cells, w: textWidth(s)}
	r.unicode[s] = c
	return c
}

// blank reports whether a plain space at (x, y) may be skipped: nothing
// has been drawn there in this frame, so end leaves it blank anyway.
func (r *Renderer) blank(x, y int) bool {
	return x >= 0 && y >= 0 && x < r.w && y < r.h && r.flags[y*r.w+x]&inked == 0
}

// putString writes the plain text s from (x, y) rightwards with style st,
// clipped to the columns of clip.
func (r *Renderer) putString(x, y int, s string, st tcell.Style, clip rect) {
	if c := r.unicodeText(s); c != nil {
		r.replayAs(c.cells, x, y, clip, st)
		return
	}
	if printableASCII(s) { // a cell a byte, all in st: most figures and names
		id := r.styles.id(st)
		for i := 0; i < len(s); i++ {
			if cx := x + i; clip.contains(cx, y) && !(s[i] == ' ' && id == 0 && r.blank(cx, y)) {
				r.putID(cx, y, s[i:i+1], 1, id)
			}
		}
		return
	}
	p := ansiPainter{r: r, clip: clip, base: st}
	p.paint(x, y, s)
}

// printableASCII reports whether s is printable ASCII only: no escape
// sequence, control character or anything beyond ASCII.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false
		}
	}
	return true
}
