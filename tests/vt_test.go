package tests

import (
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// vt is a minimal terminal emulator: enough of ECMA-48 and xterm to
// rebuild the screen grid tcell draws. It keeps characters only: SGR and
// modes are parsed and ignored (except autowrap), OSC/DCS strings and
// charset designations are skipped. Wide runes take two cells. It is an
// io.Writer, safe for concurrent use.
type vt struct {
	mu       sync.Mutex
	w, h     int
	cells    [][]rune // 0: blank; wideTail: right half of a wide rune
	x, y     int
	wrapNext bool // the last column was written: the next rune wraps
	autowrap bool
	saved    [2]int
	last     rune // for REP
	after    func()

	state  vtState
	params []byte
	inter  []byte
	pend   []byte // an incomplete UTF-8 sequence
	bytes  int    // bytes written so far
}

type vtState uint8

const (
	vtGround vtState = iota
	vtEsc
	vtEscSkip // ESC ( B and the like: skip one byte
	vtCSI
	vtString    // OSC, DCS, APC, PM, SOS: up to BEL or ST
	vtStringEsc // ESC seen inside a string
)

const wideTail rune = -1

func newVT(w, h int) *vt {
	v := &vt{autowrap: true}
	v.resize(w, h)
	return v
}

// Resize changes the grid size, keeping what fits, as a terminal window
// does before it tells the program.
func (v *vt) Resize(w, h int) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.resize(w, h)
}

func (v *vt) resize(w, h int) {
	cells := make([][]rune, h)
	for y := range cells {
		cells[y] = make([]rune, w)
		if y < len(v.cells) {
			copy(cells[y], v.cells[y])
		}
	}
	v.w, v.h, v.cells = w, h, cells
	v.x, v.y = min(v.x, w-1), min(v.y, h-1)
	v.wrapNext = false
}

// Size is the grid's width and height.
func (v *vt) Size() (int, int) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.w, v.h
}

// Bytes is the number of bytes written so far.
func (v *vt) Bytes() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.bytes
}

// Screen is the grid as text: one line per row, blanks as spaces, trailing
// spaces trimmed.
func (v *vt) Screen() string {
	v.mu.Lock()
	defer v.mu.Unlock()
	var b strings.Builder
	for y, row := range v.cells {
		if y > 0 {
			b.WriteByte('\n')
		}
		var line strings.Builder
		for _, r := range row {
			switch r {
			case wideTail:
			case 0:
				line.WriteByte(' ')
			default:
				line.WriteRune(r)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
	}
	return b.String()
}

// Cell is the rune at column x, row y (0 for a blank).
func (v *vt) Cell(x, y int) rune {
	v.mu.Lock()
	defer v.mu.Unlock()
	if y < 0 || y >= v.h || x < 0 || x >= v.w {
		return 0
	}
	return v.cells[y][x]
}

func (v *vt) Write(p []byte) (int, error) {
	v.mu.Lock()
	v.bytes += len(p)
	for _, c := range p {
		v.feed(c)
	}
	after := v.after
	v.mu.Unlock()
	if after != nil {
		after()
	}
	return len(p), nil
}

// OnWrite has f called after each Write has been applied to the grid (by
// the writer's goroutine, with the emulator unlocked): it sees the screen
// as each piece of output left it.
func (v *vt) OnWrite(f func()) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.after = f
}

func (v *vt) feed(c byte) {
	switch v.state {
	case vtGround:
		if len(v.pend) > 0 || c >= 0x80 {
			v.pend = append(v.pend, c)
			if utf8.FullRune(v.pend) {
				r, _ := utf8.DecodeRune(v.pend)
				v.pend = v.pend[:0]
				v.print(r)
			}
			return
		}
		switch {
		case c == 0x1b:
			v.state = vtEsc
		case c < 0x20 || c == 0x7f:
			v.control(c)
		default:
			v.print(rune(c))
		}
	case vtEsc:
		v.state = vtGround
		switch c {
		case '[':
			v.state, v.params, v.inter = vtCSI, v.params[:0], v.inter[:0]
		case ']', 'P', 'X', '^', '_':
			v.state = vtString
		case '(', ')', '*', '+', '-', '.', '/', '#', '%', ' ':
			v.state = vtEscSkip
		case '7':
			v.saved = [2]int{v.x, v.y}
		case '8':
			v.x, v.y, v.wrapNext = v.saved[0], v.saved[1], false
		case 'c':
			v.clear(0, 0, v.w, v.h)
			v.x, v.y, v.wrapNext = 0, 0, false
		case 'D':
			v.lineFeed()
		case 'E':
			v.x = 0
			v.lineFeed()
		case 'M':
			v.wrapNext = false
			if v.y == 0 {
				v.scroll(-1)
			} else {
				v.y--
			}
		}
	case vtEscSkip:
		v.state = vtGround
	case vtCSI:
		switch {
		case c >= 0x30 && c <= 0x3f:
			v.params = append(v.params, c)
		case c >= 0x20 && c <= 0x2f:
			v.inter = append(v.inter, c)
		case c >= 0x40 && c <= 0x7e:
			v.state = vtGround
			v.csi(c)
		case c == 0x1b:
			v.state = vtEsc
		case c < 0x20:
			v.control(c)
		}
	case vtString:
		switch c {
		case 0x07:
			v.state = vtGround
		case 0x1b:
			v.state = vtStringEsc
		}
	case vtStringEsc:
		v.state = vtGround // ST is ESC \; any other byte ends it too
	}
}

func (v *vt) control(c byte) {
	switch c {
	case '\r':
		v.x, v.wrapNext = 0, false
	case '\n', 0x0b, 0x0c:
		v.lineFeed()
	case '\b':
		v.x, v.wrapNext = max(v.x-1, 0), false
	case '\t':
		v.x, v.wrapNext = min((v.x/8+1)*8, v.w-1), false
	}
}

func (v *vt) lineFeed() {
	v.wrapNext = false
	if v.y == v.h-1 {
		v.scroll(1)
		return
	}
	v.y++
}

// scroll moves the whole grid up by n rows (down when n < 0).
func (v *vt) scroll(n int) {
	blank := func() []rune { return make([]rune, v.w) }
	for ; n > 0; n-- {
		v.cells = append(v.cells[1:], blank())
	}
	for ; n < 0; n++ {
		v.cells = append([][]rune{blank()}, v.cells[:v.h-1]...)
	}
}

func (v *vt) print(r rune) {
	wd := uniseg.StringWidth(string(r))
	if wd == 0 {
		return // combining marks and the like: not drawn by tcell here
	}
	if v.wrapNext && v.autowrap {
		v.x = 0
		v.lineFeed()
	}
	v.wrapNext = false
	if wd == 2 && v.x == v.w-1 {
		if !v.autowrap {
			return
		}
		v.x = 0
		v.lineFeed()
	}
	v.put(v.x, v.y, r)
	if wd == 2 {
		v.put(v.x+1, v.y, wideTail)
	}
	v.last = r
	v.x += wd
	if v.x >= v.w {
		v.x, v.wrapNext = v.w-1, true
	}
}

// put writes one cell, blanking the other half of a wide rune it breaks.
func (v *vt) put(x, y int, r rune) {
	row := v.cells[y]
	if row[x] == wideTail && x > 0 && r != wideTail {
		row[x-1] = 0
	}
	if x+1 < v.w && row[x+1] == wideTail && r != wideTail {
		row[x+1] = 0
	}
	row[x] = r
}

func (v *vt) clear(x0, y0, x1, y1 int) {
	for y := max(y0, 0); y < min(y1, v.h); y++ {
		for x := max(x0, 0); x < min(x1, v.w); x++ {
			v.cells[y][x] = 0
		}
	}
}

// param is the i-th numeric parameter, or def when absent or zero.
func (v *vt) param(i, def int) int {
	fields := strings.Split(string(v.params), ";")
	if i >= len(fields) {
		return def
	}
	n, err := strconv.Atoi(fields[i])
	if err != nil || n == 0 {
		return def
	}
	return n
}

func (v *vt) csi(final byte) {
	private := len(v.params) > 0 && v.params[0] >= 0x3c // ? > = <
	if private {
		if v.params[0] == '?' && (final == 'h' || final == 'l') {
			for _, f := range strings.Split(string(v.params[1:]), ";") {
				if f == "7" {
					v.autowrap = final == 'h'
				}
			}
		}
		return
	}
	if len(v.inter) > 0 {
		return // DECSCUSR and friends
	}
	n := v.param(0, 1)
	clampX := func(x int) int { return min(max(x, 0), v.w-1) }
	clampY := func(y int) int { return min(max(y, 0), v.h-1) }
	v.wrapNext = false
	switch final {
	case 'A':
		v.y = clampY(v.y - n)
	case 'B', 'e':
		v.y = clampY(v.y + n)
	case 'C', 'a':
		v.x = clampX(v.x + n)
	case 'D':
		v.x = clampX(v.x - n)
	case 'E':
		v.x, v.y = 0, clampY(v.y+n)
	case 'F':
		v.x, v.y = 0, clampY(v.y-n)
	case 'G', '`':
		v.x = clampX(n - 1)
	case 'd':
		v.y = clampY(n - 1)
	case 'H', 'f':
		v.y, v.x = clampY(v.param(0, 1)-1), clampX(v.param(1, 1)-1)
	case 'J':
		switch v.param(0, 0) {
		case 0:
			v.clear(v.x, v.y, v.w, v.y+1)
			v.clear(0, v.y+1, v.w, v.h)
		case 1:
			v.clear(0, 0, v.w, v.y)
			v.clear(0, v.y, v.x+1, v.y+1)
		default:
			v.clear(0, 0, v.w, v.h)
		}
	case 'K':
		switch v.param(0, 0) {
		case 0:
			v.clear(v.x, v.y, v.w, v.y+1)
		case 1:
			v.clear(0, v.y, v.x+1, v.y+1)
		default:
			v.clear(0, v.y, v.w, v.y+1)
		}
	case 'X':
		v.clear(v.x, v.y, v.x+n, v.y+1)
	case 'P': // delete characters
		row := v.cells[v.y]
		n = min(n, v.w-v.x)
		copy(row[v.x:], row[v.x+n:])
		clear(row[v.w-n:])
	case '@': // insert blanks
		row := v.cells[v.y]
		n = min(n, v.w-v.x)
		copy(row[v.x+n:], row[v.x:v.w-n])
		clear(row[v.x : v.x+n])
	case 'S':
		v.scroll(n)
	case 'T':
		v.scroll(-n)
	case 'b': // REP
		for range min(n, v.w*v.h) {
			v.print(v.last)
		}
	}
	// m (SGR), h/l (modes), r (margins), n (reports), t, u, q: ignored.
}

// TestVT checks the emulator on the sequences tcell uses, so that the SSH
// tests read the screen right.
func TestVT(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"cup, el, osc, charset, sgr, wide",
			"\x1b[?1049h\x1b[H\x1b[2Jab\x1b[31mc\x1b[m\x1b[2;3H█→\x1b]0;title\x07\x1b(B\x1b[3;1H世x\x1b[1;2H\x1b[K",
			"a\n  █→\n世x"},
		{"relative moves", "\x1b[2;2HX\x1b[AY\x1b[2CZ\x1b[BW\x1b[5DV\x1b[3GU\x1b[3dT",
			"  Y  Z\n XU   W\n   T"},
		{"erase below and chars", "aaaa\r\nbbbb\r\ncccc\x1b[2;3H\x1b[J\x1b[1;2H\x1b[2X", "a  a\nbb"},
		{"no autowrap", "\x1b[?7l0123456789xyz", "012345678z"},
		{"autowrap", "0123456789xy", "0123456789\nxy"},
		{"wide rune overwritten", "世\x1b[1;2Hx", " x"},
		{"scroll", "1\r\n2\r\n3\r\n4", "2\n3\n4"},
		{"line feed keeps the column", "1\n2", "1\n 2"},
		{"rep", "-\x1b[3b", "----"},
		{"dcs skipped", "\x1bP+q544e\x1b\\ok", "ok"},
	} {
		v := newVT(10, 3)
		if _, err := v.Write([]byte(tc.in)); err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimRight(v.Screen(), "\n"); got != tc.want {
			t.Errorf("%s: screen\n%q\nwant\n%q", tc.name, got, tc.want)
		}
	}
}
