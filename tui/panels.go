package tui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"ttytanks/game"
	"ttytanks/netcode"
)

// tooSmallText is the message shown on a terminal smaller than
// MinWidth×MinHeight.
func tooSmallText(w, h int) string {
	return "terminal too small (need " + strconv.Itoa(MinWidth) + "x" + strconv.Itoa(MinHeight) +
		", have " + strconv.Itoa(w) + "x" + strconv.Itoa(h) + ")"
}

// drawTooSmall draws only the "terminal too small" message, word-wrapped to
// the screen and centred on it.
func (r *Renderer) drawTooSmall(w, h int) {
	lines := wrapWords(tooSmallText(w, h), w)
	y := max((h-len(lines))/2, 0)
	for i, line := range lines {
		r.putCentred(rect{0, 0, w, h}, y+i, line, r.t.title)
	}
}

// wrapWords breaks s at spaces into lines at most w cells wide (a longer
// word gets a line of its own and is clipped when drawn).
func wrapWords(s string, w int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case textWidth(line)+1+textWidth(word) <= w:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	return append(lines, line)
}

// renderPanel renders a message box no wider than maxW cells: a bold
// title, then each part of body (a paragraph, or a block of lines), each
// word-wrapped to the box and centred in it. The box is as narrow as its
// widest part allows.
func renderPanel(t *theme, maxW int, title string, body ...string) string {
	room := max(maxW-t.panel.GetHorizontalFrameSize(), 1)
	widest := lipgloss.Width(title)
	for _, b := range body {
		widest = max(widest, lipgloss.Width(b))
	}
	w := min(widest, room)
	para := t.r.NewStyle().Width(w).Align(lipgloss.Center)
	parts := make([]string, 0, 2*len(body)+1)
	parts = append(parts, para.Render(t.panelTitle.Render(title)))
	for _, b := range body {
		parts = append(parts, "", para.Render(b))
	}
	return t.panel.Render(lipgloss.JoinVertical(lipgloss.Left, parts...))
}

// paintCentred paints the styled block s centred in area, clipped to it.
func (r *Renderer) paintCentred(area rect, s string) {
	w, h := lipgloss.Size(s)
	p := ansiPainter{r: r, clip: area}
	p.paint(area.x+max((area.w-w)/2, 0), area.y+max((area.h-h)/2, 0), s)
}

// statusPanel returns the message box for the connecting, waiting,
// reconnecting and closed states, and "" for playing.
func statusPanel(t *theme, maxW int, v *netcode.View, opts Options) string {
	g := t.g
	switch v.Status {
	case netcode.StatusConnecting:
		title := "connecting" + g.ellipsis
		if opts.Server != "" {
			title = "connecting to " + opts.Server + g.ellipsis
		}
		return renderPanel(t, maxW, title, nonEmpty(v.Message)...)
	case netcode.StatusWaiting:
		return renderPanel(t, maxW, "waiting for players", waitingText(v, opts, g), rosterText(t, v, g))
	case netcode.StatusReconnecting:
		return renderPanel(t, maxW, "reconnecting"+g.ellipsis, nonEmpty(v.Message)...)
	case netcode.StatusClosed:
		msg := v.Message
		if msg == "" {
			msg = "the session is over"
		}
		return renderPanel(t, maxW, "session closed", msg)
	}
	return ""
}

// waitingText is "waiting for N more player(s) — share: ttytanks join ADDR".
func waitingText(v *netcode.View, opts Options, g *glyphs) string {
	s := "waiting for " + strconv.Itoa(v.Need) + " more player"
	if v.Need != 1 {
		s += "s"
	}
	// With rooms, the share names the room (or a private room's code).
	room := ""
	switch {
	case v.Code != "":
		room = " --code " + v.Code
	case v.Room != "":
		room = " --room " + v.Room
	}
	switch {
	case opts.Share != "": // ssh: the lobby, then this room
		s += " " + g.dash + " share: " + opts.Share
		if v.Code != "" {
			s += ", code " + v.Code
		} else if v.Room != "" {
			s += ", room " + v.Room
		}
	case opts.ShareAddr != "":
		s += " " + g.dash + " share: ttytanks join " + opts.ShareAddr + room
	}
	if opts.Lobby {
		s += " " + g.dash + " l lobby"
	}
	return s
}

// rosterText lists the seated players, one per line, as a left-aligned
// block.
func rosterText(t *theme, v *netcode.View, g *glyphs) string {
	var b strings.Builder
	b.WriteString("players so far:")
	n := 0
	for i := range game.MaxPlayers {
		if !inRoster(v, i) {
			continue
		}
		b.WriteString("\n" + g.bullet + " " + slotName(v, i))
		if i == v.Slot {
			b.WriteString(" (you)")
		}
		n++
	}
	if n == 0 {
		b.WriteString("\n(none yet)")
	}
	return t.r.NewStyle().Align(lipgloss.Left).Render(b.String())
}

// roundOverPanel is the box shown over the maze while a round is over: the
// result and every player's score.
func roundOverPanel(t *theme, maxW int, v *netcode.View) string {
	r := &v.World.Round
	var scores []string
	for i := range min(int(v.World.Slots), game.MaxPlayers) {
		if !v.World.Tanks[i].Seated {
			continue
		}
		scores = append(scores, t.slotName[i].Render(slotName(v, i))+"  "+
			t.value.Render(strconv.Itoa(int(v.World.Tanks[i].Score))))
	}
	title := "ROUND " + strconv.Itoa(int(r.Number)) + " OVER"
	return renderPanel(t, maxW, title, t.value.Render(winnerText(v)), lipgloss.JoinVertical(lipgloss.Right, scores...))
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}
