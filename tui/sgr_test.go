package tui

import (
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/gdamore/tcell/v2"
)

// paintTest paints s at (0, 0) of a fresh 20×3 screen and returns it.
func paintTest(t *testing.T, s string, opts Options) tcell.SimulationScreen {
	t.Helper()
	scr := newScreen(t, 20, 3)
	r := NewRenderer(scr, opts)
	r.begin(20, 3)
	p := ansiPainter{r: r, clip: rect{0, 0, 20, 3}}
	p.paint(0, 0, s)
	r.end()
	scr.Show()
	return scr
}

func TestPainterSGR(t *testing.T) {
	def := tcell.StyleDefault
	red := def.Foreground(tcell.PaletteColor(1))
	type cell struct {
		x, y  int
		text  string
		style tcell.Style
	}
	tests := []struct {
		name string
		in   string
		want []cell
	}{
		{"plain", "ab", []cell{{0, 0, "a", def}, {1, 0, "b", def}}},
		{"bold then reset", "\x1b[1mA\x1b[0mB", []cell{{0, 0, "A", def.Bold(true)}, {1, 0, "B", def}}},
		{"empty SGR resets", "\x1b[7mA\x1b[mB", []cell{{0, 0, "A", def.Reverse(true)}, {1, 0, "B", def}}},
		{"faint italic underline", "\x1b[2;3;4mA", []cell{{0, 0, "A", def.Dim(true).Italic(true).Underline(true)}}},
		{"22 clears bold and faint", "\x1b[1;2mA\x1b[22mB", []cell{{0, 0, "A", def.Bold(true).Dim(true)}, {1, 0, "B", def}}},
		{"27 clears reverse", "\x1b[7mA\x1b[27mB", []cell{{0, 0, "A", def.Reverse(true)}, {1, 0, "B", def}}},
		{"basic fg", "\x1b[31mA", []cell{{0, 0, "A", red}}},
		{"bright fg", "\x1b[91mA", []cell{{0, 0, "A", def.Foreground(tcell.PaletteColor(9))}}},
		{"basic and bright bg", "\x1b[42mA\x1b[103mB", []cell{
			{0, 0, "A", def.Background(tcell.PaletteColor(2))},
			{1, 0, "B", def.Background(tcell.PaletteColor(11))}}},
		{"256 colours", "\x1b[38;5;196;48;5;17mA", []cell{{0, 0, "A", def.Foreground(tcell.PaletteColor(196)).Background(tcell.PaletteColor(17))}}},
		{"true colour", "\x1b[38;2;10;20;30mA\x1b[48;2;1;2;3mB", []cell{
			{0, 0, "A", def.Foreground(tcell.NewRGBColor(10, 20, 30))},
			{1, 0, "B", def.Foreground(tcell.NewRGBColor(10, 20, 30)).Background(tcell.NewRGBColor(1, 2, 3))}}},
		{"39 and 49 default", "\x1b[31;42mA\x1b[39mB\x1b[49mC", []cell{
			{0, 0, "A", red.Background(tcell.PaletteColor(2))},
			{1, 0, "B", def.Background(tcell.PaletteColor(2))},
			{2, 0, "C", def}}},
		{"other CSI skipped", "A\x1b[2KB\x1b[?25lC", []cell{{0, 0, "A", def}, {1, 0, "B", def}, {2, 0, "C", def}}},
		{"OSC hyperlink skipped", "\x1b]8;;http://x\x1b\\A\x1b]8;;\x07B", []cell{{0, 0, "A", def}, {1, 0, "B", def}}},
		{"newline returns to the start column", "ab\ncd", []cell{{0, 1, "c", def}, {1, 1, "d", def}}},
		{"wide rune takes two cells", "世x", []cell{{0, 0, "世", def}, {2, 0, "x", def}}},
		{"control characters dropped", "a\x01\x7fb", []cell{{0, 0, "a", def}, {1, 0, "b", def}}},
		{"colour carries across lines", "\x1b[31ma\nb", []cell{{0, 1, "b", red}}},
		{"malformed 38 ignored", "\x1b[38;9mA", []cell{{0, 0, "A", def}}},
		{"truncated escape", "A\x1b[31", []cell{{0, 0, "A", def}, {1, 0, " ", def}}},
	}
	for _, tt := range tests {
		scr := paintTest(t, tt.in, Options{})
		for _, c := range tt.want {
			got, st := cellAt(scr, c.x, c.y)
			if got != c.text || st != c.style {
				t.Errorf("%s: cell (%d,%d) = %q %v, want %q %v", tt.name, c.x, c.y, got, st, c.text, c.style)
			}
		}
	}
}

func TestPainterNoColor(t *testing.T) {
	scr := paintTest(t, "\x1b[1;38;5;196;48;2;1;2;3mA\x1b[31;7mB", Options{NoColor: true})
	if _, st := cellAt(scr, 0, 0); st != tcell.StyleDefault.Bold(true) {
		t.Errorf("A: style %v, want bold only", st)
	}
	if _, st := cellAt(scr, 1, 0); st != tcell.StyleDefault.Bold(true).Reverse(true) {
		t.Errorf("B: style %v, want bold and reverse only", st)
	}
}

func TestPainterClips(t *testing.T) {
	scr := newScreen(t, 20, 3)
	r := NewRenderer(scr, Options{})
	r.begin(20, 3)
	p := ansiPainter{r: r, clip: rect{2, 1, 3, 1}}
	p.paint(1, 0, "abcde\nfghij\nklmno")
	r.end()
	scr.Show()
	want := []string{"                    ", "  ghi               ", "                    "}
	for y, line := range screenLines(scr) {
		if line != want[y] {
			t.Errorf("row %d = %q, want %q", y, line, want[y])
		}
	}
}

// TestThemeCellStyles: the tcell styles used for the sidebar's values are
// the lipgloss styles, converted.
func TestThemeCellStyles(t *testing.T) {
	th := themeFor(Options{})
	if fg, _, a := th.valueCell.Decompose(); a&tcell.AttrBold == 0 || fg != tcell.ColorDefault {
		t.Errorf("value style = %v, want bold in the default colour", th.valueCell)
	}
	if fg, _, _ := th.slotCell[0].Decompose(); fg != tcell.PaletteColor(int(slotColors[0])) {
		t.Errorf("slot 0 style fg = %v, want palette %d", fg, slotColors[0])
	}
	st := leadingStyle(th.r.NewStyle().Foreground(lipgloss.Color("#0a141e")).Render("x"), tcell.StyleDefault, false)
	if fg, _, _ := st.Decompose(); fg == tcell.ColorDefault {
		t.Errorf("a true-colour lipgloss style converted to %v", st)
	}
	plain := themeFor(Options{NoColor: true})
	for i, st := range plain.slotCell {
		if fg, bg, _ := st.Decompose(); fg != tcell.ColorDefault || bg != tcell.ColorDefault {
			t.Errorf("NoColor slot %d style has colours %v/%v", i, fg, bg)
		}
	}
}
