package tui

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/gdamore/tcell/v2"

	"ttytanks/netcode"
)

// Panel is a sidebar, a help overlay and an event feed of the caller's
// own, which a Renderer draws in place of a live session's (Renderer.SetPanel):
// the replay screen shows its position and the followed player's figures,
// not a client's netcode figures, lists its own keys, and feeds the
// events of the recording up to the tick shown.
type Panel struct {
	// Mode is the title row's first word ("REPLAY") where a live
	// spectator's says SPECTATING.
	Mode string
	// Sections are drawn from the top of the sidebar, each under its
	// title; the players follow them, then the Keys.
	Sections []PanelSection
	// Keys are the key help lines at the foot of the sidebar.
	Keys []string
	// Help is the help overlay's table, key and meaning.
	Help [][2]string
	// Feed is the event feed, oldest first: the newest lines are shown.
	Feed []string
}

// PanelSection is one titled group of a Panel's sidebar.
type PanelSection struct {
	Title string
	Rows  []PanelRow
}

// PanelRow is one line of a PanelSection: a label on the left, its value
// right-aligned.
type PanelRow struct{ Label, Value string }

// SetPanel makes the following frames draw p's sidebar, help and feed
// instead of the session's; nil goes back to the session's. The Renderer
// keeps p until the next SetPanel: the caller may change its values
// between frames, not during one.
func (r *Renderer) SetPanel(p *Panel) { r.panel = p }

// panelFrame is the static part of a Panel's sidebar for one size and
// outline, as sideFrame is for the session's.
type panelFrame struct {
	text    paintedText
	in      rect
	rows    []int // the row of each PanelRow, section by section; -1 when left out
	players int   // first roster row; -1 when there is none
}

// panelKey identifies a Panel's static sidebar: its size, roster length
// and every title, label and key line.
type panelFrameKey struct {
	w, h, players int
	outline       string
}

// panelOutline is the part of p that panelFrame depends on.
func panelOutline(p *Panel) string {
	var b strings.Builder
	for _, s := range p.Sections {
		b.WriteString(s.Title + "\x00")
		for _, row := range s.Rows {
			b.WriteString(row.Label + "\x01")
		}
	}
	b.WriteString("\x02" + strings.Join(p.Keys, "\x01"))
	return b.String()
}

// panelFrames caches the static sidebars of panels, as sidebar.frames
// does for the session's.
var panelFrames = newMemo[panelFrameKey, *panelFrame](64)

// panelFrame lays out p's sidebar for a w×h area with players roster
// lines: a box with section headers when they fit; without the box, then
// without the headers, then without the key help when they do not.
func (sb *sidebar) panelFrame(w, h, players int, p *Panel) *panelFrame {
	k := panelFrameKey{w: w, h: h, players: players, outline: panelOutline(p)}
	return panelFrames.get(k, func() *panelFrame {
		t := sb.t
		inner := max(w-2, 1)
		rows := 0
		for _, s := range p.Sections {
			rows += len(s.Rows)
		}
		type level struct{ box, headers, keys bool }
		lv := level{}
		for _, l := range []level{{true, true, true}, {false, true, true}, {false, false, true}, {false, false, false}} {
			n := rows + players
			if l.headers {
				n += len(p.Sections) + 2 // the players' and the keys' headers too
			}
			if l.keys {
				n += len(p.Keys)
			}
			if l.box {
				n += 2
			}
			if n <= h {
				lv = l
				break
			}
		}
		f := &panelFrame{players: -1}
		var lines []string
		for _, s := range p.Sections {
			if lv.headers {
				lines = append(lines, sb.header(s.Title, inner))
			}
			for _, row := range s.Rows {
				f.rows = append(f.rows, len(lines))
				lines = append(lines, t.label.Render(row.Label))
			}
		}
		if players > 0 {
			if lv.headers {
				lines = append(lines, sb.header("players", inner))
			}
			f.players = len(lines)
			for range players {
				lines = append(lines, "")
			}
		}
		if lv.keys && len(p.Keys) > 0 {
			if lv.headers {
				lines = append(lines, sb.header("keys", inner))
			}
			for _, k := range p.Keys {
				lines = append(lines, t.key.Render(k))
			}
		}
		style := t.rule
		f.in = rect{x: 2, y: 0, w: inner, h: min(len(lines), h)}
		if lv.box {
			style = t.box
			f.in = rect{x: 1, y: 1, w: inner, h: min(len(lines), h-2)}
		}
		text := style.Width(inner + style.GetHorizontalPadding()).MaxHeight(h).Render(lipgloss.JoinVertical(lipgloss.Left, lines...))
		f.text = parseCells(text, tcell.StyleDefault, t.noColor)
		return f
	})
}

// drawPanel draws p's sidebar for v in area.
func (sb *sidebar) drawPanel(r *Renderer, area rect, v *netcode.View, p *Panel) {
	t, g := sb.t, sb.t.g
	f := sb.panelFrame(area.w, area.h, rosterLen(v), p)
	r.replay(&f.text, area.x, area.y, area)
	in := f.in
	in.x += area.x
	in.y += area.y
	k := 0
	for _, s := range p.Sections {
		for _, row := range s.Rows {
			if y := f.rows[k]; y >= 0 && y < in.h {
				room := in.w - textWidth(row.Label) - 1
				r.putRight(in, in.y+y, truncate(row.Value, room, g.ellipsis), t.valueCell)
			}
			k++
		}
	}
	if f.players >= 0 {
		sb.drawRoster(r, in, in.y+f.players, v)
	}
}

// panelHelp returns the help overlay of p for a w×h screen: its keys
// table in the help box.
func panelHelp(t *theme, w int, p *Panel) string {
	es := make([]helpEntry, len(p.Help))
	for i, h := range p.Help {
		es[i] = helpEntry{h[0], h[1]}
	}
	return renderPanel(t, w, "help "+t.g.dash+" ? or Esc closes", helpTable(t, es))
}
