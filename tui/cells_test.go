package tui

import (
	"math/rand/v2"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"
)

// TestRendererCellsMatchOneShot: a Renderer kept across frames, which
// remembers each cell as a number of its style table and writes only the
// cells a frame changes, leaves the screen as a Renderer that writes
// every cell of every frame does, over random frames: cells drawn over
// within a frame (to other content and back), wide characters, more
// changes than a frame remembers the old content of (maxWas), and more
// styles than a table keeps (keepStyles).
func TestRendererCellsMatchOneShot(t *testing.T) {
	const w, h = 40, 12
	rng := rand.New(rand.NewPCG(1, 2))
	glyphs := []string{"a", "b", " ", "─", "世"}
	styles := []tcell.Style{tcell.StyleDefault, tcell.StyleDefault.Bold(true),
		tcell.StyleDefault.Foreground(tcell.PaletteColor(196)), tcell.StyleDefault.Foreground(tcell.PaletteColor(33)).Reverse(true),
		tcell.StyleDefault.Underline(true)}
	kept := newScreen(t, w, h)
	r := NewRenderer(kept, Options{})
	type put struct {
		x, y int
		g    string
		st   tcell.Style
	}
	for frame := range 300 {
		var puts []put
		// A wide character is drawn where nothing else is in the frame:
		// drawn over, it leaves its right half unwritten (as before the
		// cells were numbered), which the two ways leave differently.
		took := make([]byte, w*h) // 1: narrow, 2: wide
		add := func(p put) {
			i := p.y*w + p.x
			if uniseg.StringWidth(p.g) == 2 {
				if p.x+1 >= w || took[i] != 0 || took[i+1] != 0 {
					return
				}
				took[i], took[i+1] = 2, 2
			} else if took[i] == 2 {
				return
			} else {
				took[i] = 1
			}
			puts = append(puts, p)
		}
		n := rng.IntN(60)
		switch frame % 10 {
		case 3:
			n = w * h // a whole screen: beyond maxWas
		case 7:
			n = 0
		}
		for range n {
			p := put{x: rng.IntN(w), y: rng.IntN(h), g: glyphs[rng.IntN(len(glyphs))], st: styles[rng.IntN(len(styles))]}
			if frame%50 == 20 { // a frame of many styles
				p.st = tcell.StyleDefault.Foreground(tcell.NewRGBColor(rng.Int32N(256), rng.Int32N(256), rng.Int32N(256)))
			}
			if rng.IntN(4) == 0 && uniseg.StringWidth(p.g) == 1 { // drawn over at once, then as it was
				add(put{x: p.x, y: p.y, g: "a", st: styles[0]})
			}
			add(p)
		}
		draw := func(r *Renderer) {
			r.begin(w, h)
			for _, p := range puts {
				r.put(p.x, p.y, p.g, uniseg.StringWidth(p.g), p.st)
			}
			r.end()
			r.puts = 0
			r.screen.Show()
		}
		draw(r)
		fresh := newScreen(t, w, h)
		once := NewRenderer(fresh, Options{})
		once.oneShot = true
		draw(once)
		a, _, _ := kept.GetContents()
		b, _, _ := fresh.GetContents()
		for i := 0; i < len(b); i++ {
			if string(a[i].Runes) != string(b[i].Runes) || a[i].Style != b[i].Style {
				t.Fatalf("frame %d: cell (%d,%d) is %q in %v kept, %q in %v drawn whole",
					frame, i%w, i/w, string(a[i].Runes), a[i].Style, string(b[i].Runes), b[i].Style)
			}
			if uniseg.StringWidth(string(b[i].Runes)) == 2 {
				i++ // the wide character covers the next cell
			}
		}
	}
	if r.styles.len() > keepStyles+w*h {
		t.Errorf("the style table holds %d styles: never emptied", r.styles.len())
	}
}
