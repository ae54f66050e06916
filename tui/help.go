package tui

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// helpEntry is one line of the help overlay: a key or a sidebar figure,
// and what it means.
type helpEntry struct{ key, meaning string }

// helpKeys are the keys, as the help overlay lists them.
var helpKeys = []helpEntry{
	{"arrows / WASD", "a tap: one tile (at a wall: turn); held: drive on"},
	{"space", "fire where the tank faces"},
	{"x / p", "stop where you are / pause (only against bots)"},
	{"n / m", "names on the map / chat shown: all, players, none"},
	{"Enter / t", "chat: type a line, Enter sends, Esc cancels"},
	{"Tab / 1-8", "sidebar: full, middle, scores / follow a player"},
	{"r / l", "vote for a rematch (match over) / to the lobby"},
	{"? / F1", "this help; Esc closes it"},
	{"q / Ctrl-C", "quit (leaving a ranked match under way loses it)"},
}

// helpFigures say what each sidebar figure means.
var helpFigures = []helpEntry{
	{"tick / server tick", "our predicted tick / the server's newest"},
	{"RTT", "round trip to the server, smoothed"},
	{"input lead", "ticks we run ahead of the server"},
	{"arrival margin", "how early our inputs reach the server"},
	{"loss up/down", "packets lost each way"},
	{"state delay", "our tick minus the newest State's tick"},
	{"bandwidth", "KB/s sent and received"},
	{"rollbacks", "States that corrected our own tank"},
	{"replay ticks / cost", "ticks re-simulated per State, and the time"},
	{"hash mismatches", "States whose snapshot failed the server's hash"},
	{"resyncs", "full resynchronisations"},
}

// helpPanel returns the help overlay for a w×h screen: every key and what
// it does, and a short meaning of each sidebar figure; packed tighter when
// the roomy box does not fit (80x24 takes the packed one), and only the
// keys when even that does not.
func helpPanel(t *theme, w, h int, paused bool) string {
	table := func(es []helpEntry) string { return helpTable(t, es) }
	title := "help " + t.g.dash + " Esc closes"
	if paused {
		title = "paused " + t.g.dot + " " + title
	}
	full := renderPanel(t, w, title, table(helpKeys), table(helpFigures))
	if fw, fh := lipgloss.Size(full); fw <= w && fh <= h {
		return full
	}
	packed := t.panel.Padding(0, 1).Render(lipgloss.JoinVertical(lipgloss.Center,
		t.panelTitle.Render(title), table(helpKeys), table(helpFigures)))
	if pw, ph := lipgloss.Size(packed); pw <= w && ph <= h {
		return packed
	}
	return renderPanel(t, w, title, table(helpKeys), t.label.Render("(a larger window also explains the sidebar)"))
}

// helpTable renders es as two columns, the keys aligned.
func helpTable(t *theme, es []helpEntry) string {
	kw := 0
	for _, e := range es {
		kw = max(kw, lipgloss.Width(e.key))
	}
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = t.value.Render(e.key+strings.Repeat(" ", kw-lipgloss.Width(e.key))) + "  " + t.label.Render(e.meaning)
	}
	return t.r.NewStyle().Align(lipgloss.Left).Render(strings.Join(lines, "\n"))
}
