package sshterm

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"
)

// termModel is as much of a terminal as tcell and streamScreen use to
// draw: cursor addressing (CUP), clearing (ED), SGR, backspace and text, each cell
// keeping its text and the SGR state it was written in. Other control
// and escape sequences (modes, charsets, OSC) are skipped. An io.Writer,
// safe for concurrent use.
type termModel struct {
	mu    sync.Mutex
	w, h  int
	text  []string // "" for the right half of a wide character
	sgr   []sgrState
	x, y  int
	cur   sgrState
	state int // 0 ground, 1 after ESC, 2 in CSI, 3 in a string, 4 skip one byte
	seq   []byte
	pend  []byte // an incomplete UTF-8 sequence, or a cluster being built
}

// sgrState is the attributes and colours SGR has set: colours as the
// parameters that set them ("" the default).
type sgrState struct {
	bold, dim, italic, underline, blink, reverse, strike bool
	fg, bg                                               string
}

func newTermModel(w, h int) *termModel {
	m := &termModel{w: w, h: h, text: make([]string, w*h), sgr: make([]sgrState, w*h)}
	m.clear()
	return m
}

func (m *termModel) clear() {
	for i := range m.text {
		m.text[i], m.sgr[i] = " ", sgrState{}
	}
}

func (m *termModel) Write(p []byte) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, c := range p {
		switch m.state {
		case 0:
			switch {
			case c == 0x1b:
				m.flushText()
				m.state, m.seq = 1, m.seq[:0]
			case c == '\b':
				m.flushText()
				m.x = max(m.x-1, 0)
			case c < 0x20:
				m.flushText() // BEL, and the like
			default:
				m.pend = append(m.pend, c)
			}
		case 1:
			switch c {
			case '[':
				m.state = 2
			case ']', 'P', '_', '^':
				m.state = 3
			case '(', ')', '*', '+':
				m.state = 4
			default:
				m.state = 0 // ESC = and the like
			}
		case 2:
			if c >= 0x40 && c <= 0x7e {
				m.csi(string(m.seq), c)
				m.state = 0
			} else {
				m.seq = append(m.seq, c)
			}
		case 3:
			if c == 0x07 || c == '\\' {
				m.state = 0
			}
		case 4:
			m.state = 0
		}
	}
	return len(p), nil
}

// flushText writes the text gathered since the last control, cluster by
// cluster, at the cursor.
func (m *termModel) flushText() {
	s := string(m.pend)
	m.pend = m.pend[:0]
	state := -1
	for len(s) > 0 {
		var g string
		var w int
		g, s, w, state = uniseg.FirstGraphemeClusterInString(s, state)
		if m.x < m.w && m.y < m.h {
			i := m.y*m.w + m.x
			m.text[i], m.sgr[i] = g, m.cur
			if w == 2 && m.x+1 < m.w {
				m.text[i+1], m.sgr[i+1] = "", m.cur
			}
		}
		m.x += max(w, 1)
	}
}

// csi carries out CSI params final.
func (m *termModel) csi(params string, final byte) {
	if strings.HasPrefix(params, "?") || strings.HasPrefix(params, ">") {
		return // modes
	}
	var ps []int
	for _, f := range strings.FieldsFunc(params, func(r rune) bool { return r == ';' }) {
		n, _ := strconv.Atoi(f)
		ps = append(ps, n)
	}
	arg := func(i, def int) int {
		if i < len(ps) && ps[i] != 0 {
			return ps[i]
		}
		return def
	}
	switch final {
	case 'H', 'f':
		m.y, m.x = arg(0, 1)-1, arg(1, 1)-1
	case 'J':
		switch arg(0, 0) {
		case 0: // to the end of the screen
			for i := m.y*m.w + m.x; i < len(m.text); i++ {
				m.text[i], m.sgr[i] = " ", sgrState{}
			}
		case 2:
			m.clear()
		}
	case 'm':
		m.setSGR(ps)
	}
}

func (m *termModel) setSGR(ps []int) {
	if len(ps) == 0 {
		ps = []int{0}
	}
	for i := 0; i < len(ps); i++ {
		switch p := ps[i]; {
		case p == 0:
			m.cur = sgrState{}
		case p == 1:
			m.cur.bold = true
		case p == 2:
			m.cur.dim = true
		case p == 3:
			m.cur.italic = true
		case p == 4:
			m.cur.underline = true
		case p == 5:
			m.cur.blink = true
		case p == 7:
			m.cur.reverse = true
		case p == 9:
			m.cur.strike = true
		case p >= 30 && p <= 37, p >= 90 && p <= 97:
			m.cur.fg = strconv.Itoa(p)
		case p == 39:
			m.cur.fg = ""
		case p >= 40 && p <= 47, p >= 100 && p <= 107:
			m.cur.bg = strconv.Itoa(p)
		case p == 49:
			m.cur.bg = ""
		case p == 38 || p == 48:
			var c string
			if i+2 < len(ps) && ps[i+1] == 5 {
				c, i = "5;"+strconv.Itoa(ps[i+2]), i+2
			} else if i+4 < len(ps) && ps[i+1] == 2 {
				c, i = fmt.Sprintf("2;%d;%d;%d", ps[i+2], ps[i+3], ps[i+4]), i+4
			}
			if p == 38 {
				m.cur.fg = c
			} else {
				m.cur.bg = c
			}
		}
	}
}

// cell returns the text and SGR state of cell (x, y).
func (m *termModel) cell(x, y int) (string, sgrState) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.flushText()
	return m.text[y*m.w+x], m.sgr[y*m.w+x]
}

// modelScreen is a screen on a ChannelTty of w×h whose output a
// termModel takes.
type modelScreen struct {
	tcell.Screen
	model *termModel
	keys  *io.PipeWriter
}

func newModelScreen(t *testing.T, term string, w, h int, stream bool) *modelScreen {
	t.Helper()
	model := newTermModel(w, h)
	kr, kw := io.Pipe()
	tty := NewChannelTty(pipeChannel{Reader: kr, Writer: model}, w, h)
	go tty.Pump()
	_, ti := lookupTerm(term)
	var scr tcell.Screen
	var err error
	if stream {
		scr, err = newStreamScreen(tty, ti)
	} else {
		scr, err = tcell.NewTerminfoScreenFromTtyTerminfo(tty, ti)
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	ms := &modelScreen{Screen: scr, model: model, keys: kw}
	t.Cleanup(func() {
		scr.Fini()
		kw.Close()
		tty.Close()
	})
	return ms
}

// TestStreamScreenMatchesTcell: frames of cells put on a streamScreen
// leave the terminal as the same frames put on tcell's screen do, text
// and attributes and colours, on terminals of 256, 8 and 16 colours:
// random cells in random styles, wide characters, the bottom-right cell,
// a cleared screen.
func TestStreamScreenMatchesTcell(t *testing.T) {
	for _, term := range []string{"xterm-256color", "xterm", "linux", "screen"} {
		t.Run(term, func(t *testing.T) {
			const w, h = 30, 10
			rng := rand.New(rand.NewPCG(3, 4))
			styles := []tcell.Style{tcell.StyleDefault, tcell.StyleDefault.Bold(true), tcell.StyleDefault.Reverse(true),
				tcell.StyleDefault.Underline(true).Dim(true), tcell.StyleDefault.Italic(true).Blink(true).StrikeThrough(true),
				tcell.StyleDefault.Foreground(tcell.PaletteColor(196)).Bold(true),
				tcell.StyleDefault.Foreground(tcell.PaletteColor(3)).Background(tcell.PaletteColor(12)),
				tcell.StyleDefault.Foreground(tcell.PaletteColor(244)),
				tcell.StyleDefault.Background(tcell.PaletteColor(33)).Reverse(true),
				tcell.StyleDefault.Foreground(tcell.NewRGBColor(250, 120, 10)),
			}
			narrow := []string{"a", "Z", " ", "─", "│", "é", "▓"}
			screens := []*modelScreen{newModelScreen(t, term, w, h, false), newModelScreen(t, term, w, h, true)}
			for frame := range 40 {
				type put struct {
					x, y int
					g    string
					st   tcell.Style
				}
				var puts []put
				for range 1 + rng.IntN(80) {
					st := styles[rng.IntN(len(styles))]
					x, y := rng.IntN(w), rng.IntN(h)
					if x < w/2-1 { // the left half: wide characters, two cells apart
						puts = append(puts, put{x &^ 1, y, "世", st})
					} else {
						puts = append(puts, put{x, y, narrow[rng.IntN(len(narrow))], st})
					}
				}
				if frame%5 == 0 {
					puts = append(puts, put{w - 1, h - 1, "#", styles[rng.IntN(len(styles))]})
				}
				for _, s := range screens {
					if frame == 20 {
						s.Clear()
					}
					for _, p := range puts {
						s.Put(p.x, p.y, p.g, p.st)
					}
					s.Show()
				}
				for y := range h {
					for x := range w {
						a, as := screens[0].model.cell(x, y)
						b, bs := screens[1].model.cell(x, y)
						if a != b || as != bs {
							t.Fatalf("frame %d, cell (%d,%d): tcell drew %q in %+v, the stream %q in %+v", frame, x, y, a, as, b, bs)
						}
					}
				}
			}
		})
	}
}

// TestStreamScreenResize: a streamScreen has the tty's size, while
// tcell's screen under it keeps one cell; a window-change gives it the
// new size and a resize event of that size.
func TestStreamScreenResize(t *testing.T) {
	s := newModelScreen(t, "xterm-256color", 80, 24, true).Screen.(*streamScreen)
	if w, h := s.Size(); w != 80 || h != 24 {
		t.Errorf("Size %dx%d, want 80x24", w, h)
	}
	if w, h := s.Screen.Size(); w != 1 || h != 1 {
		t.Errorf("tcell's screen under it is %dx%d, want one cell", w, h)
	}
	events := make(chan tcell.Event, 16)
	quit := make(chan struct{})
	go s.ChannelEvents(events, quit)
	defer close(quit)
	s.tty.Resize(100, 30)
	deadline := time.After(5 * time.Second)
	for resized := false; !resized; {
		select {
		case ev := <-events:
			if r, ok := ev.(*tcell.EventResize); ok {
				w, h := r.Size()
				resized = w == 100 && h == 30 // tcell's own screen may tell of its one cell first
			}
		case <-deadline:
			t.Fatal("no resize event of 100x30 after the window-change")
		}
	}
	if w, h := s.Size(); w != 100 || h != 30 {
		t.Errorf("Size %dx%d after the window-change, want 100x30", w, h)
	}
}
