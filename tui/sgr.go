package tui

import (
	"math"
	"slices"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"
)

// ansiPainter puts ANSI-styled text, as lipgloss renders it, into the
// Renderer's cells. It understands SGR sequences (ESC [ ... m): reset,
// bold, faint, italic, underline, blink, reverse, strikethrough, their
// resets, the 16 basic and bright colours, 38;5;n / 48;5;n palette colours,
// 38;2;r;g;b / 48;2;r;g;b true colours and 39 / 49 defaults. Other CSI,
// OSC, DCS, APC, PM and two-byte escape sequences are skipped; other
// control characters are dropped and a tab is a space. Text is clipped to
// the painter's rectangle. With the theme's noColor every colour code is
// ignored.
//
// A plain space (default style) is not written where nothing else has been
// drawn in the frame: the Renderer leaves such cells blank anyway.
type ansiPainter struct {
	r    *Renderer
	clip rect
	base tcell.Style // the style ESC[0m returns to
}

// paint draws s with its first line at (x, y). A newline returns to column x
// on the next row. It returns the number of rows s spans.
func (p *ansiPainter) paint(x, y int, s string) int {
	return eachCell(s, x, y, p.base, p.r.t.noColor, func(cx, cy int, g string, w int, style tcell.Style) {
		if p.clip.contains(cx, cy) && cx+w <= p.clip.x+p.clip.w &&
			!(g == " " && style == tcell.StyleDefault && p.r.blank(cx, cy)) {
			p.r.put(cx, cy, g, w, style)
		}
	})
}

// paintedCell is one cell of a parsed ANSI text, relative to its corner:
// its grapheme cluster, its width and the number of its style in the
// text's styles. It is 24 bytes (a tcell.Style alone is 72): the panels
// and sidebars of every session are kept parsed.
type paintedCell struct {
	x, y int16
	w    uint8
	st   uint16
	g    string
}

// paintedText is an ANSI text parsed into cells, the styles they use,
// and the columns and rows they span from (0, 0).
type paintedText struct {
	cells  []paintedCell
	styles []tcell.Style
	w, h   int
}

// parseCells parses the ANSI text s painted at (0, 0) into its cells, so
// a text painted every frame is parsed once (see Renderer.replay). Cells
// beyond 32767 columns or rows, which no screen shows, are left out.
func parseCells(s string, base tcell.Style, noColor bool) paintedText {
	var out paintedText
	eachCell(s, 0, 0, base, noColor, func(x, y int, g string, w int, st tcell.Style) {
		if x > math.MaxInt16 || y > math.MaxInt16 {
			return
		}
		k := slices.Index(out.styles, st)
		if k < 0 {
			if len(out.styles) > math.MaxUint16 {
				return
			}
			k = len(out.styles)
			out.styles = append(out.styles, st)
		}
		out.cells = append(out.cells, paintedCell{x: int16(x), y: int16(y), w: uint8(w), st: uint16(k), g: g})
		out.w, out.h = max(out.w, x+w), max(out.h, y+1)
	})
	out.cells = slices.Clip(out.cells)
	return out
}

// eachCell walks the ANSI text s from (x, y), a newline returning to
// column x, and calls put for every visible grapheme cluster with its
// width (> 0) and style. It returns the number of rows s spans.
func eachCell(s string, x, y int, base tcell.Style, noColor bool, put func(x, y int, g string, w int, st tcell.Style)) int {
	style := base
	cx, cy := x, y
	rows := 1
	for i := 0; i < len(s); {
		c := s[i]
		var g string
		w := 1
		switch {
		case c == 0x1b:
			i = skipEscape(s, i, &style, base, noColor)
			continue
		case c == '\n':
			cx, cy = x, cy+1
			rows++
			i++
			continue
		case c == '\t':
			g = " "
			i++
		case c < 0x20 || c == 0x7f:
			i++
			continue
		case c < 0x80:
			g = s[i : i+1]
			i++
		default:
			g, _, w, _ = uniseg.FirstGraphemeClusterInString(s[i:], -1)
			i += len(g)
		}
		if w > 0 {
			put(cx, cy, g, w, style)
		}
		cx += w
	}
	return rows
}

// skipEscape skips the escape sequence at s[i] (s[i] == ESC), applies it
// to *style when it is an SGR sequence, and returns the index after it.
func skipEscape(s string, i int, style *tcell.Style, base tcell.Style, noColor bool) int {
	if i+1 >= len(s) {
		return len(s)
	}
	switch s[i+1] {
	case '[': // CSI: parameters 0x30–0x3f, intermediates 0x20–0x2f, final 0x40–0x7e
		j := i + 2
		for j < len(s) && s[j] >= 0x20 && s[j] <= 0x3f {
			j++
		}
		if j >= len(s) {
			return len(s)
		}
		if s[j] == 'm' {
			*style = applySGR(s[i+2:j], *style, base, noColor)
		}
		return j + 1
	case ']', 'P', '_', '^': // OSC, DCS, APC, PM: up to BEL or ST (ESC \)
		for j := i + 2; j < len(s); j++ {
			if s[j] == 0x07 {
				return j + 1
			}
			if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
		}
		return len(s)
	}
	return i + 2
}

// leadingStyle returns the style set by the SGR sequences at the start of
// s, as lipgloss renders a styled string, applied to base.
func leadingStyle(s string, base tcell.Style, noColor bool) tcell.Style {
	st := base
	for i := 0; i < len(s) && s[i] == 0x1b; {
		i = skipEscape(s, i, &st, base, noColor)
	}
	return st
}

// applySGR applies the parameters of one SGR sequence to st; 0 (or an
// empty list) returns to base.
func applySGR(params string, st, base tcell.Style, noColor bool) tcell.Style {
	var ps [16]int
	n := 0
	// ';' separates parameters; of a ':' sub-parameter list (4:3) only the
	// first number counts, which is enough for on/off decisions. An empty
	// parameter is 0.
	cur, sub := 0, false
	for k := 0; k <= len(params); k++ {
		if k == len(params) || params[k] == ';' {
			if n < len(ps) {
				ps[n] = cur
				n++
			}
			cur, sub = 0, false
			continue
		}
		switch c := params[k]; {
		case c == ':':
			sub = true
		case c >= '0' && c <= '9' && !sub && cur < 1<<16:
			cur = cur*10 + int(c-'0')
		}
	}
	fg := func(c tcell.Color) {
		if !noColor {
			st = st.Foreground(c)
		}
	}
	bg := func(c tcell.Color) {
		if !noColor {
			st = st.Background(c)
		}
	}
	for k := 0; k < n; k++ {
		switch v := ps[k]; {
		case v == 0:
			st = base
		case v == 1:
			st = st.Bold(true)
		case v == 2:
			st = st.Dim(true)
		case v == 3:
			st = st.Italic(true)
		case v == 4:
			st = st.Underline(true)
		case v == 5 || v == 6:
			st = st.Blink(true)
		case v == 7:
			st = st.Reverse(true)
		case v == 9:
			st = st.StrikeThrough(true)
		case v == 21 || v == 24:
			st = st.Underline(false)
		case v == 22:
			st = st.Bold(false).Dim(false)
		case v == 23:
			st = st.Italic(false)
		case v == 25:
			st = st.Blink(false)
		case v == 27:
			st = st.Reverse(false)
		case v == 29:
			st = st.StrikeThrough(false)
		case v >= 30 && v <= 37:
			fg(tcell.PaletteColor(v - 30))
		case v >= 90 && v <= 97:
			fg(tcell.PaletteColor(v - 90 + 8))
		case v >= 40 && v <= 47:
			bg(tcell.PaletteColor(v - 40))
		case v >= 100 && v <= 107:
			bg(tcell.PaletteColor(v - 100 + 8))
		case v == 39:
			fg(tcell.ColorDefault)
		case v == 49:
			bg(tcell.ColorDefault)
		case v == 38 || v == 48:
			var c tcell.Color
			switch {
			case k+2 < n && ps[k+1] == 5:
				c = tcell.PaletteColor(ps[k+2] & 0xff)
				k += 2
			case k+4 < n && ps[k+1] == 2:
				c = tcell.NewRGBColor(int32(ps[k+2]&0xff), int32(ps[k+3]&0xff), int32(ps[k+4]&0xff))
				k += 4
			default:
				return st // malformed: ignore the rest
			}
			if v == 38 {
				fg(c)
			} else {
				bg(c)
			}
		}
	}
	return st
}
