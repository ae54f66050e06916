package sshterm

import (
	"bytes"
	"os"
	"strconv"
	"sync/atomic"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"
	"github.com/rivo/uniseg"
)

// streamScreen is a session's tcell.Screen: tcell's own terminfo screen
// sets the terminal up and restores it, reads its keys and rings its
// bell, but the drawing skips tcell's cell buffers. Put writes the
// cell's escape sequences (a cursor move when it is not where the last
// cell left it, the style when it changed, the text) at once into the
// frame being written, and Show sends the frame in one write.
//
// tui's Renderer keeps its own copy of the screen and puts only the
// cells a frame changes, so tcell's two copies of every cell (its
// current and its last shown, 192 bytes a cell: 368 KB at 80x24, 4.9 MB
// at 256x100) and its comparison of all of them on every Show were a
// second time over the same work. tcell's screen is told the window is
// one cell, so it keeps one (unless LINES and COLUMNS in the server's
// environment make it start larger); the size the Renderer draws at, and the
// resize events, come from the ChannelTty. So a streamScreen only draws
// what is Put on it: Fill, Get and GetContent, which tui does not use,
// see tcell's one cell. Clear and Sync make the next frame clear the
// terminal first; the Renderer draws every cell after them.
//
// Cells are written as tcell writes them: a frame as one synchronised
// update on an xterm-like terminal, a wide character after clearing the
// two cells it takes, a style as sgr0, the colours mapped to the
// terminal's palette, then the attributes (each style's sequence made
// once). A terminal without colours gets none (tcell would pick reverse
// video by luminance). The bottom-right cell is left blank on a terminal
// whose cursor wraps there, that cannot turn that off and that can
// insert a character (tcell's way to fill it, which needs the cell
// beside it). Control characters are written as '?', and so is every
// non-ASCII character when the server's locale is not UTF-8 (tcell's
// encoding then). TestStreamScreenMatchesTcell compares the two.
//
// Not safe for concurrent use, but for Size and the resize callback.
type streamScreen struct {
	tcell.Screen // tcell's, on a one-cell view of the tty
	tty          *ChannelTty
	ti           *terminfo.Terminfo
	size         atomic.Uint32 // width<<16 | height, from the tty
	ascii        bool          // only ASCII can be written
	cup          bool          // ti.SetCursor is the ANSI "CSI row;col H"
	sync         bool          // frames are sent as synchronised updates (xterm-like terminals)
	lastCell     bool          // the bottom-right cell may be written
	truecolor    bool          // RGB colours are written as such
	palette      []tcell.Color // the terminal's colours

	out        []byte // the frame being written
	x, y       int    // where the cursor is; x < 0: unknown
	w, h       int    // the size the cursor is known at
	style      tcell.Style
	styled     bool // the terminal draws in style
	sgr        map[tcell.Style]string
	cursor     bool // the cursor shows
	cx, cy     int  // where ShowCursor put it
	showCursor bool // ShowCursor was called more recently than HideCursor
}

// maxFrameBuf is the largest frame buffer a streamScreen keeps between
// frames: a whole screen redrawn (after a resize) may take far more,
// and is let go.
const maxFrameBuf = 16 << 10

// newStreamScreen returns the screen of a session on tty, a terminal
// described by ti, the session's own copy of the entry (lookupTerm): its
// size is set to one cell, the size tcell's screen starts at.
func newStreamScreen(tty *ChannelTty, ti *terminfo.Terminfo) (*streamScreen, error) {
	ti.Columns, ti.Lines = 1, 1
	inner, err := tcell.NewTerminfoScreenFromTtyTerminfo(oneCellTty{tty}, ti)
	if err != nil {
		return nil, err
	}
	s := &streamScreen{Screen: inner, tty: tty, ti: ti, ascii: !localeUTF8(nil), x: -1,
		cup:       ti.SetCursor == "\x1b[%i%p1%d;%p2%dH",
		lastCell:  !ti.AutoMargin || ti.DisableAutoMargin != "" || ti.InsertChar == "",
		truecolor: (ti.SetFgBgRGB != "" || ti.SetFgRGB != "" || ti.SetBgRGB != "") && os.Getenv("TCELL_TRUECOLOR") != "disable",
		sgr:       make(map[tcell.Style]string)}
	s.setSize()
	return s, nil
}

// oneCellTty is the ChannelTty as tcell's screen sees it under a
// streamScreen: a window of one cell that never changes size.
type oneCellTty struct{ *ChannelTty }

func (oneCellTty) WindowSize() (tcell.WindowSize, error) {
	return tcell.WindowSize{Width: 1, Height: 1}, nil
}

func (oneCellTty) NotifyResize(func()) {}

// setSize takes the tty's size.
func (s *streamScreen) setSize() {
	ws, _ := s.tty.WindowSize()
	s.size.Store(uint32(ws.Width)<<16 | uint32(ws.Height))
}

// resized is the tty's resize callback: the new size, and a resize
// event for the screen's reader.
func (s *streamScreen) resized() {
	s.setSize()
	w, h := s.Size()
	_ = s.Screen.PostEvent(tcell.NewEventResize(w, h)) // a full queue drops it: each frame reads Size anyway
}

// Init implements tcell.Screen: tcell's screen puts the terminal in its
// modes (the alternate screen, keypad, hidden cursor) and clears it.
func (s *streamScreen) Init() error {
	if err := s.Screen.Init(); err != nil {
		return err
	}
	s.sync = s.ti.XTermLike    // tcell's Init decides it, by the terminal's name too
	if s.Screen.Colors() > 0 { // none with NO_COLOR in the server's environment, as tcell
		for i := range min(s.ti.Colors, 256) {
			s.palette = append(s.palette, tcell.PaletteColor(i))
		}
	}
	s.tty.NotifyResize(s.resized)
	s.setSize()
	s.forget()
	return nil
}

// Fini implements tcell.Screen: tcell's screen restores the terminal.
func (s *streamScreen) Fini() {
	s.tty.NotifyResize(nil)
	s.out = s.out[:0]
	s.Screen.Fini()
}

// Size implements tcell.Screen: the tty's size (at most MaxWidth x
// MaxHeight).
func (s *streamScreen) Size() (int, int) {
	v := s.size.Load()
	return int(v >> 16), int(v & 0xffff)
}

// forget makes the cursor's place and the style unknown.
func (s *streamScreen) forget() {
	s.x, s.styled = -1, false
	s.w, s.h = s.Size()
}

// Clear implements tcell.Screen: the next frame starts by clearing the
// terminal.
func (s *streamScreen) Clear() {
	s.begin()
	s.put(s.ti.Clear)
	s.forget()
}

// begin starts a frame's output, if none is started.
func (s *streamScreen) begin() {
	if len(s.out) == 0 && s.sync {
		s.out = append(s.out, syncStart...)
	}
}

// The synchronised update mode's start and end: the terminal shows the
// frame once it has all of it (and ignores them if it cannot).
const (
	syncStart = "\x1b[?2026h"
	syncEnd   = "\x1b[?2026l"
)

// Sync implements tcell.Screen as Clear does: the Renderer, invalidated,
// writes every cell again.
func (s *streamScreen) Sync() { s.Clear() }

// HideCursor implements tcell.Screen.
func (s *streamScreen) HideCursor() { s.showCursor = false }

// ShowCursor implements tcell.Screen: the cursor shows at (x, y) once the
// next frame is sent.
func (s *streamScreen) ShowCursor(x, y int) {
	if x < 0 || y < 0 {
		s.HideCursor()
		return
	}
	s.showCursor, s.cx, s.cy = true, x, y
}

// SetContent implements tcell.Screen as Put.
func (s *streamScreen) SetContent(x, y int, primary rune, combining []rune, style tcell.Style) {
	s.Put(x, y, string(append([]rune{primary}, combining...)), style)
}

// Put implements tcell.Screen: it writes the grapheme cluster str at (x,
// y) in style st into the frame being written.
func (s *streamScreen) Put(x, y int, str string, st tcell.Style) (string, int) {
	w, h := s.Size()
	if w != s.w || h != s.h {
		s.forget() // a resize may have moved the cursor
	}
	if x < 0 || y < 0 || x >= w || y >= h {
		return "", 0
	}
	text, width := s.text(str)
	if x+width > w || x == w-1 && y == h-1 && !s.lastCell {
		return "", width
	}
	s.begin()
	if s.cursor { // hidden while the frame draws, as tcell does
		s.put(s.ti.HideCursor)
		s.cursor = false
	}
	if s.x != x || s.y != y {
		s.move(x, y)
	}
	if !s.styled || st != s.style {
		s.out = append(s.out, s.sgrOf(st)...)
		s.style, s.styled = st, true
	}
	if width > 1 && x+width < w {
		s.out = append(s.out, "  \b\b"...) // clear both cells first, for terminals that draw it narrow
	}
	s.out = append(s.out, text...)
	s.x += width
	if s.x >= w || width > 1 {
		s.x = -1 // at the right edge, or after a wide character: the terminal decides
	}
	return "", width
}

// text returns what to write for the grapheme cluster str, and its width
// in cells.
func (s *streamScreen) text(str string) (string, int) {
	if len(str) == 1 {
		if c := str[0]; c < 0x20 || c == 0x7f {
			return "?", 1
		}
		return str, 1
	}
	if str == "" {
		return " ", 1
	}
	width := max(uniseg.StringWidth(str), 1)
	for _, r := range str {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == utf8.RuneError || s.ascii && r >= 0x80 {
			if width == 2 {
				return "? ", 2
			}
			return "?", 1
		}
	}
	return str, width
}

// move moves the cursor to (x, y).
func (s *streamScreen) move(x, y int) {
	if s.cup {
		s.out = append(s.out, "\x1b["...)
		s.out = strconv.AppendInt(s.out, int64(y+1), 10)
		s.out = append(s.out, ';')
		s.out = strconv.AppendInt(s.out, int64(x+1), 10)
		s.out = append(s.out, 'H')
	} else {
		s.put(s.ti.TGoto(x, y))
	}
	s.x, s.y = x, y
}

// put appends the terminfo string seq, its padding resolved.
func (s *streamScreen) put(seq string) {
	if seq == "" {
		return
	}
	var b bytes.Buffer
	s.ti.TPuts(&b, seq)
	s.out = append(s.out, b.Bytes()...)
}

// sgrOf returns the sequence that sets style st, as tcell writes it.
func (s *streamScreen) sgrOf(st tcell.Style) string {
	if seq, ok := s.sgr[st]; ok {
		return seq
	}
	ti := s.ti
	var b bytes.Buffer
	ti.TPuts(&b, ti.AttrOff)
	fg, bg, attrs := st.Decompose()
	if len(s.palette) > 0 {
		if fg == tcell.ColorReset || bg == tcell.ColorReset {
			ti.TPuts(&b, ti.ResetFgBg)
		}
		if s.truecolor {
			if ti.SetFgBgRGB != "" && fg.IsRGB() && bg.IsRGB() {
				r1, g1, b1 := fg.RGB()
				r2, g2, b2 := bg.RGB()
				ti.TPuts(&b, ti.TParm(ti.SetFgBgRGB, int(r1), int(g1), int(b1), int(r2), int(g2), int(b2)))
				fg, bg = tcell.ColorDefault, tcell.ColorDefault
			}
			if fg.IsRGB() && ti.SetFgRGB != "" {
				r, g, bl := fg.RGB()
				ti.TPuts(&b, ti.TParm(ti.SetFgRGB, int(r), int(g), int(bl)))
				fg = tcell.ColorDefault
			}
			if bg.IsRGB() && ti.SetBgRGB != "" {
				r, g, bl := bg.RGB()
				ti.TPuts(&b, ti.TParm(ti.SetBgRGB, int(r), int(g), int(bl)))
				bg = tcell.ColorDefault
			}
		}
		fg, bg = s.fit(fg), s.fit(bg)
		switch {
		case fg.Valid() && bg.Valid() && ti.SetFgBg != "":
			ti.TPuts(&b, ti.TParm(ti.SetFgBg, int(fg&0xff), int(bg&0xff)))
		default:
			if fg.Valid() && ti.SetFg != "" {
				ti.TPuts(&b, ti.TParm(ti.SetFg, int(fg&0xff)))
			}
			if bg.Valid() && ti.SetBg != "" {
				ti.TPuts(&b, ti.TParm(ti.SetBg, int(bg&0xff)))
			}
		}
	}
	for _, a := range [...]struct {
		on  bool
		seq string
	}{
		{attrs&tcell.AttrBold != 0, ti.Bold},
		{st.GetUnderlineStyle() != tcell.UnderlineStyleNone, ti.Underline},
		{attrs&tcell.AttrReverse != 0, ti.Reverse},
		{attrs&tcell.AttrBlink != 0, ti.Blink},
		{attrs&tcell.AttrDim != 0, ti.Dim},
		{attrs&tcell.AttrItalic != 0, ti.Italic},
		{attrs&tcell.AttrStrikeThrough != 0, ti.StrikeThrough},
	} {
		if a.on {
			ti.TPuts(&b, a.seq)
		}
	}
	seq := b.String()
	if len(s.sgr) >= 256 {
		clear(s.sgr)
	}
	s.sgr[st] = seq
	return seq
}

// fit returns the colour of the terminal's palette that shows c: c
// itself when it is one, else the nearest.
func (s *streamScreen) fit(c tcell.Color) tcell.Color {
	if !c.Valid() || c&^tcell.ColorValid < tcell.Color(len(s.palette)) {
		return c
	}
	return tcell.FindColor(c, s.palette)
}

// Show implements tcell.Screen: it sends the frame written since the last
// Show, in one write.
func (s *streamScreen) Show() {
	switch {
	case s.showCursor && s.cx < s.w && s.cy < s.h:
		if len(s.out) > 0 || !s.cursor || s.x != s.cx || s.y != s.cy {
			s.begin()
			s.move(s.cx, s.cy)
			s.put(s.ti.ShowCursor)
			s.cursor = true
		}
	case s.cursor:
		s.begin()
		s.put(s.ti.HideCursor)
		s.cursor = false
	}
	if len(s.out) == 0 {
		return
	}
	if s.sync {
		s.out = append(s.out, syncEnd...)
	}
	_, _ = s.tty.Write(s.out)
	if cap(s.out) > maxFrameBuf {
		s.out = nil
	} else {
		s.out = s.out[:0]
	}
}
