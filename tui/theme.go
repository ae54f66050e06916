package tui

import (
	"io"
	"strings"
	"sync"

	"github.com/charmbracelet/lipgloss"
	"github.com/gdamore/tcell/v2"
	"github.com/muesli/termenv"

	"ttytanks/game"
	"ttytanks/netcode"
)

// slotColors are the 256-colour palette indices of the eight player slots,
// chosen to stay distinct from each other and from the grey walls.
var slotColors = [game.MaxPlayers]uint8{196, 33, 46, 226, 201, 208, 51, 141}

const (
	wallColor   = 244
	accentColor = 75  // section headers, borders
	labelColor  = 250 // sidebar labels
	faintColor  = 242 // rules, secondary text
)

// theme is everything about looks that depends only on Options: the glyphs,
// the tcell styles of the play field and the lipgloss styles of the sidebar
// and message boxes. It is built once per Options (see themeFor) and is
// read-only afterwards, so it is safe for concurrent use.
type theme struct {
	g       *glyphs
	noColor bool

	// tcell styles for cells drawn directly.
	wall, text, title, banner tcell.Style
	slot                      [game.MaxPlayers]tcell.Style

	// lipgloss renderer and styles. The renderer writes nowhere and has its
	// colour profile set explicitly: nothing is detected from stdout.
	r                                *lipgloss.Renderer
	box, rule                        lipgloss.Style // the sidebar's frame: full box or left rule
	header, label, value, faint, key lipgloss.Style
	status                           [netcode.StatusClosed + 1]lipgloss.Style
	slotName                         [game.MaxPlayers]lipgloss.Style
	panel                            lipgloss.Style // centred message boxes
	panelTitle                       lipgloss.Style
	sparkStyle                       [2]lipgloss.Style // RTT, replay

	// The sidebar's per-frame values are written straight into cells, in
	// these conversions of the lipgloss styles above.
	valueCell, labelCell tcell.Style
	statusCell           [netcode.StatusClosed + 1]tcell.Style
	slotCell             [game.MaxPlayers]tcell.Style
	sparkCell            [2]tcell.Style

	side *sidebar
}

// cell converts a lipgloss style's text attributes and colours to a tcell
// style, by rendering a sample and reading back its SGR sequence.
func (t *theme) cell(s lipgloss.Style) tcell.Style {
	return leadingStyle(s.Render("x"), tcell.StyleDefault, t.noColor)
}

var themes struct {
	once [8]sync.Once
	t    [8]*theme
}

// themeFor returns the cached theme for the looks-related fields of opts.
func themeFor(opts Options) *theme {
	i := 0
	if opts.ASCII {
		i |= 1
	}
	if opts.NoColor {
		i |= 2
	}
	if opts.Lobby {
		i |= 4
	}
	themes.once[i].Do(func() { themes.t[i] = newTheme(opts.ASCII, opts.NoColor, opts.Lobby) })
	return themes.t[i]
}

func newTheme(ascii, noColor, lobby bool) *theme {
	t := &theme{g: &unicodeGlyphs, noColor: noColor}
	if ascii {
		t.g = &asciiGlyphs
	}
	if lobby {
		// The key hints say how to go back to the lobby.
		g := *t.g
		sep := " " + g.dot + " "
		if ascii {
			sep = ", "
		}
		g.keys[1] = strings.Replace(g.keys[1], "q quit", "l lobby"+sep+"q quit", 1)
		g.watchKeys[1] = strings.Replace(g.watchKeys[1], "q quit", "l lobby"+sep+"q quit", 1)
		t.g = &g
	}

	// tcell styles. With noColor only attributes are set.
	pal := func(n uint8) tcell.Style {
		if noColor {
			return tcell.StyleDefault
		}
		return tcell.StyleDefault.Foreground(tcell.PaletteColor(int(n)))
	}
	t.wall = pal(wallColor)
	t.text = tcell.StyleDefault
	t.title = tcell.StyleDefault.Bold(true)
	t.banner = pal(226).Bold(true)
	for i, c := range slotColors {
		t.slot[i] = pal(c).Bold(true)
	}

	// lipgloss.
	t.r = lipgloss.NewRenderer(io.Discard)
	if noColor {
		t.r.SetColorProfile(termenv.Ascii)
	} else {
		t.r.SetColorProfile(termenv.ANSI256)
	}
	t.r.SetHasDarkBackground(true)
	col := func(s lipgloss.Style, n uint8) lipgloss.Style {
		if noColor {
			return s
		}
		return s.Foreground(lipgloss.ANSIColor(n))
	}
	border := lipgloss.RoundedBorder()
	if ascii {
		border = lipgloss.ASCIIBorder()
	}
	t.box = t.r.NewStyle().Border(border)
	t.rule = t.r.NewStyle().Border(border, false, false, false, true).PaddingLeft(1)
	if !noColor {
		t.box = t.box.BorderForeground(lipgloss.ANSIColor(accentColor))
		t.rule = t.rule.BorderForeground(lipgloss.ANSIColor(faintColor))
	}
	t.header = col(t.r.NewStyle().Bold(true), accentColor)
	t.label = col(t.r.NewStyle(), labelColor)
	t.value = t.r.NewStyle().Bold(true)
	t.faint = col(t.r.NewStyle(), faintColor)
	t.key = col(t.r.NewStyle(), labelColor)
	statusColors := [...]uint8{
		netcode.StatusConnecting:   226,
		netcode.StatusWaiting:      226,
		netcode.StatusPlaying:      46,
		netcode.StatusReconnecting: 208,
		netcode.StatusClosed:       196,
	}
	for i, c := range statusColors {
		t.status[i] = col(t.r.NewStyle().Bold(true), c)
	}
	for i, c := range slotColors {
		t.slotName[i] = col(t.r.NewStyle(), c)
	}
	t.panel = t.r.NewStyle().Border(border).Padding(1, 3).Align(lipgloss.Center)
	if !noColor {
		t.panel = t.panel.BorderForeground(lipgloss.ANSIColor(accentColor))
	}
	t.panelTitle = col(t.r.NewStyle().Bold(true), 226)
	t.sparkStyle = [2]lipgloss.Style{col(t.r.NewStyle(), 87), col(t.r.NewStyle(), 213)}

	t.valueCell = t.cell(t.value)
	t.labelCell = t.cell(t.label)
	for i := range t.status {
		t.statusCell[i] = t.cell(t.status[i])
	}
	for i := range t.slotName {
		t.slotCell[i] = t.cell(t.slotName[i])
	}
	for i := range t.sparkStyle {
		t.sparkCell[i] = t.cell(t.sparkStyle[i])
	}
	t.side = newSidebar(t)
	return t
}
