package tui

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
)

// cleanText returns s made safe to draw as one line of a terminal: it
// removes escape sequences (ESC and what follows it, as the SGR painter
// skips them), control characters, invalid UTF-8 and every other rune that
// unicode.IsPrint rejects (format characters such as bidirectional
// overrides included); a tab becomes a space. Text from the network (room
// and player names, error messages) and log lines pass through it before
// they are shown. Unlike proto.SanitizeName it does not bound the length:
// the caller truncates to the cells it has.
func cleanText(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		switch c := s[i]; c {
		case 0x1b:
			var st tcell.Style
			i = skipEscape(s, i, &st, st, true)
			continue
		case '\t':
			b.WriteByte(' ')
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if (r == utf8.RuneError && size == 1) || (r != ' ' && !unicode.IsPrint(r)) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// padText returns the plain text s cut to w cells (ending in ellipsis when
// cut) and padded with spaces to exactly w cells, on the right or, when
// right is set, on the left.
func padText(s string, w int, right bool, ellipsis string) string {
	s = truncate(s, w, ellipsis)
	pad := w - textWidth(s)
	if pad <= 0 {
		return s
	}
	if right {
		return strings.Repeat(" ", pad) + s
	}
	return s + strings.Repeat(" ", pad)
}
