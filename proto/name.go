package proto

import (
	"unicode"
	"unicode/utf8"
)

// SanitizeName returns s made safe to show in a terminal and to send: it
// removes ANSI/ECMA-48 escape sequences (ESC and what follows it: CSI,
// OSC/DCS/APC/PM/SOS strings up to BEL or ESC \, and two-byte escapes),
// every other rune that unicode.IsPrint rejects (control characters, C1
// codes, format characters, invalid UTF-8), combining marks that follow
// no character or a space (a name of marks alone would show as nothing)
// and leading and trailing spaces, then bounds the result to MaxNameLen bytes without splitting a
// rune. It returns "" when nothing printable remains; the caller picks a
// default. SanitizeName is idempotent.
func SanitizeName(s string) string {
	var out [MaxNameLen]byte
	n := 0
	base := false // the last rune kept is a character a combining mark may go on
	for i := 0; i < len(s); {
		c := s[i]
		if c == 0x1b {
			i = skipEscape(s, i+1)
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if (r == utf8.RuneError && size == 1) || !shown(r) {
			continue
		}
		if r == ' ' && n == 0 {
			continue // leading space
		}
		mark := unicode.Is(unicode.M, r)
		if mark && !base {
			continue // a combining mark on nothing, or on a space, shows as nothing
		}
		if n+size > MaxNameLen {
			break
		}
		n += utf8.EncodeRune(out[n:], r)
		if !mark {
			base = r != ' '
		}
	}
	for n > 0 && out[n-1] == ' ' {
		n--
	}
	if n == len(s) && string(out[:n]) == s {
		return s
	}
	return string(out[:n])
}

// skipEscape returns the index just past the escape sequence whose ESC is
// at i-1.
func skipEscape(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch c := s[i]; {
	case c == '[': // CSI: parameters and intermediates 0x20–0x3F, final 0x40–0x7E
		i++
		for i < len(s) && s[i] >= 0x20 && s[i] <= 0x3f {
			i++
		}
		if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
			i++
		}
		return i
	case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
		// String: up to BEL or ST (ESC \), or the end.
		for i++; i < len(s); i++ {
			if s[i] == 0x07 {
				return i + 1
			}
			if s[i] == 0x1b {
				if i+1 < len(s) && s[i+1] == '\\' {
					return i + 2
				}
				return i + 1
			}
		}
		return i
	case c >= 0x20 && c <= 0x2f: // intermediates, then a final byte
		for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
			i++
		}
		if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
			i++
		}
		return i
	case c >= 0x30 && c <= 0x7e: // two-byte escape such as ESC 7 or ESC c
		return i + 1
	}
	return i
}

// isSanitized reports whether name is in the form SanitizeName returns:
// at most MaxNameLen bytes of valid UTF-8, every rune printable, every
// combining mark on a character, no leading or trailing space. It does not
// allocate.
func isSanitized(name []byte) bool {
	if len(name) > MaxNameLen {
		return false
	}
	if len(name) > 0 && (name[0] == ' ' || name[len(name)-1] == ' ') {
		return false
	}
	base := false
	for len(name) > 0 {
		r, size := utf8.DecodeRune(name)
		if (r == utf8.RuneError && size == 1) || !shown(r) {
			return false
		}
		if unicode.Is(unicode.M, r) {
			if !base {
				return false
			}
		} else {
			base = r != ' '
		}
		name = name[size:]
	}
	return true
}

// shown reports whether r may be in a name: printable (Unicode IsPrint:
// no control, format or non-ASCII space characters), not one of the
// characters that render as nothing (Unicode's default-ignorable code
// points, such as the Hangul fillers), and not a blank that looks like a
// space (the Braille blank), so a name cannot hide or pass for another
// with invisible characters.
func shown(r rune) bool {
	return unicode.IsPrint(r) && !unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) &&
		!unicode.Is(unicode.Variation_Selector, r) && r != '\u2800' && r != '\u115f' && r != '\u1160' &&
		r != '\u3164' && r != '\uffa0'
}
