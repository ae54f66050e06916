package tui

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"

	"ttytanks/game"
	"ttytanks/proto"
)

// MaxRoomName is the longest room name or join code, in bytes, the
// lobby's forms accept (the bound of a player's name).
const MaxRoomName = proto.MaxNameLen

// textField is a one-line text input: printable runes are appended,
// Backspace removes the last rune, Ctrl-U clears. It holds at most max
// bytes.
type textField struct {
	text string
	max  int
}

// key applies ev to the field and reports whether it used it.
func (f *textField) key(ev *tcell.EventKey) bool {
	switch ev.Key() {
	case tcell.KeyBackspace, tcell.KeyBackspace2:
		if f.text != "" {
			_, size := utf8.DecodeLastRuneInString(f.text)
			f.text = f.text[:len(f.text)-size]
		}
		return true
	case tcell.KeyCtrlU:
		f.text = ""
		return true
	case tcell.KeyRune:
		r := ev.Rune()
		if ev.Modifiers()&(tcell.ModCtrl|tcell.ModAlt) != 0 || !unicode.IsPrint(r) {
			return false
		}
		if len(f.text)+utf8.RuneLen(r) <= f.max {
			f.text += string(r)
		}
		return true
	}
	return false
}

// value is the field's text without leading and trailing spaces.
func (f *textField) value() string { return strings.TrimSpace(f.text) }

// The create form's fields, in the order Tab visits them.
const (
	fieldName = iota
	fieldSeats
	fieldBots
	fieldPrivate
	fieldRanked
	numFields
)

// Bounds of the create form.
const (
	minSeats     = 2
	maxSeats     = game.MaxPlayers
	defaultSeats = 4
)

// createForm is the "create a room" form: a name, the seats (minSeats to
// maxSeats), the bots (0 to seats-1), whether the room is private, and
// whether it is ranked (rated on the server's ladder; a room with bots
// never is, and a room not ranked is created casual).
type createForm struct {
	field   int
	name    textField
	seats   int
	bots    int
	private bool
	ranked  bool
}

func newCreateForm() createForm {
	return createForm{name: textField{max: MaxRoomName}, seats: defaultSeats, ranked: true}
}

// flag is the yes-or-no value of the focused field, nil on a number or
// the name.
func (f *createForm) flag() *bool {
	switch f.field {
	case fieldPrivate:
		return &f.private
	case fieldRanked:
		return &f.ranked
	}
	return nil
}

// formResult is what a key did to a form.
type formResult uint8

const (
	formGoing  formResult = iota // the form stays open
	formDone                     // Enter: submit
	formCancel                   // Esc: back to the list
)

// key applies ev to the form. Tab and Down move to the next field,
// Backtab and Up to the previous one; on seats and bots Left/Right (or -/+,
// h/l) change the number and a digit sets it; on private and ranked
// Left/Right, Space, y and n set it; on the name typing edits it. Enter
// submits, Esc cancels.
func (f *createForm) key(ev *tcell.EventKey) formResult {
	switch ev.Key() {
	case tcell.KeyEnter:
		return formDone
	case tcell.KeyEscape:
		return formCancel
	case tcell.KeyTab, tcell.KeyDown:
		f.field = (f.field + 1) % numFields
		return formGoing
	case tcell.KeyBacktab, tcell.KeyUp:
		f.field = (f.field + numFields - 1) % numFields
		return formGoing
	}
	if f.field == fieldName {
		f.name.key(ev)
		return formGoing
	}
	step := 0
	switch ev.Key() {
	case tcell.KeyLeft:
		step = -1
	case tcell.KeyRight:
		step = 1
	case tcell.KeyRune:
		flag := f.flag()
		switch r := ev.Rune(); {
		case r == '-' || r == 'h':
			step = -1
		case r == '+' || r == '=' || r == 'l':
			step = 1
		case r >= '0' && r <= '9' && flag == nil:
			f.set(int(r - '0'))
			return formGoing
		case r == ' ' && flag != nil:
			*flag = !*flag
		case (r == 'y' || r == 'Y') && flag != nil:
			*flag = true
		case (r == 'n' || r == 'N') && flag != nil:
			*flag = false
		}
	}
	if step != 0 {
		switch f.field {
		case fieldSeats:
			f.set(f.seats + step)
		case fieldBots:
			f.set(f.bots + step)
		case fieldPrivate, fieldRanked:
			*f.flag() = !*f.flag()
		}
	}
	return formGoing
}

// set sets the focused number to n, clamped to its bounds; fewer seats
// lower the bots with them.
func (f *createForm) set(n int) {
	switch f.field {
	case fieldSeats:
		f.seats = min(max(n, minSeats), maxSeats)
		f.bots = min(f.bots, f.seats-1)
	case fieldBots:
		f.bots = min(max(n, 0), f.seats-1)
	}
}
