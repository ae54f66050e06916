package tui

import "github.com/gdamore/tcell/v2"

// shadowCell is the content of one screen cell as the Renderer put it:
// the grapheme cluster and the number of its style in the Renderer's
// styleTable. It is 24 bytes where the cluster and a tcell.Style are 88,
// and two of them compare as a string and an integer: a Renderer keeps
// one for every cell of its screen.
type shadowCell struct {
	s  string
	st styleID
}

// unknownCell never equals anything a Renderer puts (no style table
// numbers a style maxStyleID), so a cell holding it is always written.
var unknownCell = shadowCell{s: "\x00", st: maxStyleID}

// blankCell is a space in the default style, which styleTable numbers 0.
var blankCell = shadowCell{s: " "}

// coveredCell marks a cell covered by the wide character to its left.
var coveredCell = shadowCell{s: "\x00covered", st: maxStyleID}

// isBlank reports whether c is blankCell.
func (c shadowCell) isBlank() bool { return c.st == 0 && c.s == " " }

// styleID numbers a tcell.Style in a styleTable.
type styleID uint16

// maxStyleID is never a style's number: a frame puts at most
// MaxWidth×MaxHeight-sized screens' worth of cells, each of one style,
// and a table is emptied between frames once it holds more than
// keepStyles.
const maxStyleID = styleID(1<<16 - 1)

// keepStyles is the most styles a styleTable keeps from one frame to the
// next. A session draws with a few dozen (its theme's and those of the
// lipgloss texts it shows).
const keepStyles = 1024

// styleTable numbers the styles a Renderer draws with, from 0 (for
// tcell.StyleDefault) up, so that its cells hold a number rather than a
// 72-byte style. Lookups hash the style's colours and attributes into an
// open-addressed table and compare the whole style, so two styles that
// differ only in what the hash leaves out (a hyperlink, an underline
// colour) get numbers of their own. Not safe for concurrent use.
type styleTable struct {
	styles []tcell.Style // by number
	slots  []uint16      // a power of two long; each holds a number+1, 0 when empty
}

// id returns st's number, giving it the next one if it has none.
func (t *styleTable) id(st tcell.Style) styleID {
	if len(t.slots) == 0 {
		t.reset()
	}
	mask := uint64(len(t.slots) - 1)
	for i := styleHash(st) & mask; ; i = (i + 1) & mask {
		n := t.slots[i]
		if n == 0 {
			break
		}
		if t.styles[n-1] == st {
			return styleID(n - 1)
		}
	}
	id := styleID(len(t.styles))
	t.styles = append(t.styles, st)
	if 2*len(t.styles) > len(t.slots) {
		t.rehash(2 * len(t.slots))
	} else {
		t.place(id)
	}
	return id
}

// style returns the style numbered id.
func (t *styleTable) style(id styleID) tcell.Style { return t.styles[id] }

// len is the number of styles numbered.
func (t *styleTable) len() int { return len(t.styles) }

// reset forgets every style but tcell.StyleDefault, number 0.
func (t *styleTable) reset() {
	t.styles = append(t.styles[:0], tcell.StyleDefault)
	t.rehash(64)
}

// rehash places every style again in n slots.
func (t *styleTable) rehash(n int) {
	if cap(t.slots) >= n {
		t.slots = t.slots[:n]
		clear(t.slots)
	} else {
		t.slots = make([]uint16, n)
	}
	for id := range t.styles {
		t.place(styleID(id))
	}
}

// place puts number id in the first free slot from its style's hash.
func (t *styleTable) place(id styleID) {
	mask := uint64(len(t.slots) - 1)
	i := styleHash(t.styles[id]) & mask
	for t.slots[i] != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = uint16(id) + 1
}

// styleHash mixes a style's colours and attributes.
func styleHash(st tcell.Style) uint64 {
	fg, bg, attrs := st.Decompose()
	h := uint64(fg)*0x9e3779b97f4a7c15 ^ uint64(bg)*0xc2b2ae3d27d4eb4f ^ uint64(attrs)*0x165667b19e3779f9
	return h ^ h>>29
}
