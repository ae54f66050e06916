package proto

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSanitizeName(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"alice", "alice"},
		{"  bob  ", "bob"},
		{"", ""},
		{"   ", ""},
		{"\x1b[31mred\x1b[0m", "red"},
		{"\x1b[1;38;5;196mbold", "bold"},
		{"\x1b]0;pwned\x07title", "title"},
		{"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"\x1bPdcs string\x1b\\ok", "ok"},
		{"\x1b(Bab", "ab"},
		{"\x1bcreset", "reset"},
		{"\x1b", ""},
		{"a\x1b", "a"},
		{"a\tb\nc\rd\x00e\x7f", "abcde"},
		{"\u009b31mx", "31mx"},         // C1 CSI is removed; its parameters are harmless text
		{"ab\u202ecd\u200b", "abcd"},   // bidi override, zero-width space
		{"\xff\xfeok\xc3", "ok"},       // invalid UTF-8
		{"\u00a0nbsp\u3000", "nbsp"},   // non-ASCII spaces are not printable
		{"héllo wörld", "héllo wörld"}, // 13 bytes
		{"0123456789abcdefXYZ", "0123456789abcdef"},
		{"ééééééééé", "éééééééé"},               // 18 bytes: cut to 16, not mid-rune
		{"aaaaaaaaaaaaaaa€", "aaaaaaaaaaaaaaa"}, // the euro sign would make 18
		{"a               b", "a"},              // cut at 16, then trailing spaces trimmed
		{"   \x1b[0m  x  ", "x"},                // leading spaces around an escape
		{"\x1b[", ""},                           // unterminated CSI
		{"日本語のなまえです", "日本語のな"},                  // 3-byte runes: 15 bytes
		{"🙂🙂🙂🙂🙂", "🙂🙂🙂🙂"},                       // 4-byte runes: 16 bytes
		{"x\u0301y", "x\u0301y"},                // combining mark stays
	}
	for _, tt := range tests {
		got := SanitizeName(tt.in)
		if got != tt.want {
			t.Errorf("SanitizeName(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if again := SanitizeName(got); again != got {
			t.Errorf("SanitizeName not idempotent: %q -> %q -> %q", tt.in, got, again)
		}
		if !isSanitized([]byte(got)) {
			t.Errorf("SanitizeName(%q) = %q, which isSanitized rejects", tt.in, got)
		}
	}
}

func TestIsSanitized(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"", true},
		{"alice", true},
		{"a b", true},
		{" a", false},
		{"a ", false},
		{"a\x1b", false},
		{"a\u200b", false},
		{"\xff", false},
		{strings.Repeat("x", 16), true},
		{strings.Repeat("x", 17), false},
	}
	for _, tt := range tests {
		if got := isSanitized([]byte(tt.name)); got != tt.want {
			t.Errorf("isSanitized(%q) = %v, want %v", tt.name, got, tt.want)
		}
		if got := SanitizeName(tt.name) == tt.name; got != tt.want {
			t.Errorf("SanitizeName(%q) == itself is %v, but isSanitized says %v", tt.name, got, tt.want)
		}
	}
}

func FuzzSanitizeName(f *testing.F) {
	for _, s := range []string{"alice", "  bob ", "\x1b[31mred", "\x1b]0;t\x07x", "ééééééééé", "\xff", "a\u202eb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := SanitizeName(s)
		if len(got) > MaxNameLen || !utf8.ValidString(got) {
			t.Fatalf("SanitizeName(%q) = %q: too long or not UTF-8", s, got)
		}
		if strings.ContainsAny(got, "\x1b\x07\x00\r\n\t\u009b") {
			t.Fatalf("SanitizeName(%q) = %q still holds a control character", s, got)
		}
		if !isSanitized([]byte(got)) || SanitizeName(got) != got {
			t.Fatalf("SanitizeName(%q) = %q is not a fixed point", s, got)
		}
		if isSanitized([]byte(s)) != (got == s) {
			t.Fatalf("isSanitized(%q) = %v but SanitizeName gives %q", s, isSanitized([]byte(s)), got)
		}
	})
}

// TestSanitizeNameDropsInvisibles: characters that render as nothing or
// as a blank cannot hide in a name or make one look like another.
func TestSanitizeNameDropsInvisibles(t *testing.T) {
	for in, want := range map[string]string{
		"a\u3164":            "a", // Hangul filler after a
		"\u3164\u3164":       "",  // nothing visible left: no name
		"root\u3164admin":    "rootadmin",
		"\u2800\u2800x":      "x",          // Braille blanks
		"x\ufe0f":            "x",          // a variation selector
		"\u115f\u1160\uffa0": "",           // the other Hangul fillers
		"café":               "café",       // visible letters stay
		"cafe\u0301":         "cafe\u0301", // a combining accent on its letter stays
		"\u0301\u0301\u0301": "",           // marks on nothing
		"\u20dd\u20dd\u20dd": "",           // enclosing marks on nothing
		"\u0e31\u0e31":       "",           // Thai vowel marks on nothing
		"a \u0301b":          "a b",        // a mark on a space
		"\u0301ann":          "ann",
	} {
		if got := SanitizeName(in); got != want {
			t.Errorf("SanitizeName(%q) = %q, want %q", in, got, want)
		}
		if !isSanitized([]byte(SanitizeName(in))) {
			t.Errorf("SanitizeName(%q) is not sanitised", in)
		}
	}
	if isSanitized([]byte("a\u3164")) {
		t.Error("a name with a Hangul filler passes as sanitised")
	}
	if isSanitized([]byte("\u0301\u0301")) {
		t.Error("a name of combining marks alone passes as sanitised")
	}
}
