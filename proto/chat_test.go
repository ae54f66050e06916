package proto

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCleanChat(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "gg wp", "gg wp"},
		{"spaces", "  gg \t\n  wp  ", "gg wp"},
		{"control characters", "g\x00g\x07 \x7fw\u0080p", "gg wp"},
		{"escape sequences", "\x1b[2J\x1b]0;pwned\x07hi \x1b[31mred", "hi red"},
		{"bidi override", "abc\u202edcba\u202c", "abcdcba"},
		{"bidi isolates and marks", "\u2066a\u2067b\u2068c\u2069\u200e\u200f\u061c", "abc"},
		{"zero-width", "a\u200bb\u200cc\u200dd\u2060e\ufefff", "abcdef"},
		{"invisible fillers", "a\u3164b\u2800c", "a b c"},
		{"stacked marks", "e\u0301\u0302\u0303\u0304!", "e\u0301\u0302!"},
		{"mark on nothing", "\u0301 \u0301a", "a"},
		{"invalid UTF-8", "a\xffb", "ab"},
		{"wide characters", "你好，世界", "你好，世界"},
	}
	for _, tt := range tests {
		got, err := CleanChat(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("%s: CleanChat(%q) = %q, %v; want %q", tt.name, tt.in, got, err, tt.want)
			continue
		}
		if again, err := CleanChat(got); err != nil || again != got {
			t.Errorf("%s: not idempotent: %q → %q, %v", tt.name, got, again, err)
		}
	}
	for _, bad := range []struct{ name, in string }{
		{"empty", ""},
		{"only spaces", " \t "},
		{"only controls and overrides", "\x01\u202e\u200b"},
		{"121 characters", strings.Repeat("x", MaxChatRunes+1)},
		{"10 KB", strings.Repeat("spam ", 2048)},
	} {
		if got, err := CleanChat(bad.in); !errors.Is(err, ErrChat) {
			t.Errorf("%s: CleanChat = %q, %v; want ErrChat", bad.name, got, err)
		}
	}
	if got, err := CleanChat(strings.Repeat("é", MaxChatRunes)); err != nil || utf8.RuneCountInString(got) != MaxChatRunes {
		t.Errorf("120 two-byte characters: %d characters, %v", utf8.RuneCountInString(got), err)
	}
}

// TestChatDecodeRefuses: the decoders refuse what a hostile peer could
// send to be shown as it is: a text too long or empty, invalid UTF-8,
// and (ChatLine) a text or name not in the cleaned form, or unknown flags.
func TestChatDecodeRefuses(t *testing.T) {
	h := testHeader(TypeChat)
	long := (&Chat{Header: h, ID: 1, Text: strings.Repeat("x", MaxChatBytes+1)}).Append(nil)
	if _, err := ParseChat(long); !errors.Is(err, ErrChat) {
		t.Errorf("a %d-byte line: %v, want ErrChat", MaxChatBytes+1, err)
	}
	if _, err := ParseChat((&Chat{Header: h, ID: 1}).Append(nil)); !errors.Is(err, ErrChat) {
		t.Errorf("an empty line: %v, want ErrChat", err)
	}
	if _, err := ParseChat((&Chat{Header: h, ID: 1, Text: "a\xff"}).Append(nil)); !errors.Is(err, ErrChat) {
		t.Errorf("invalid UTF-8: %v, want ErrChat", err)
	}
	ok := (&Chat{Header: h, ID: 1, Text: "hi"}).Append(nil)
	if _, err := ParseChat(ok[:len(ok)-1]); !errors.Is(err, ErrShort) {
		t.Errorf("cut short: %v, want ErrShort", err)
	}
	if _, err := ParseChat(append(ok, 0)); !errors.Is(err, ErrTrailing) {
		t.Errorf("a byte more: %v, want ErrTrailing", err)
	}
	lh := testHeader(TypeChatLine)
	for _, bad := range []struct {
		name string
		l    ChatLine
		want error
	}{
		{"bidi override in the text", ChatLine{Header: lh, Seq: 1, Name: "bob", Text: "a\u202eb"}, ErrChat},
		{"escape in the text", ChatLine{Header: lh, Seq: 1, Name: "bob", Text: "\x1b[2Jx"}, ErrChat},
		{"control in the name", ChatLine{Header: lh, Seq: 1, Name: "b\x07b", Text: "x"}, ErrName},
		{"unknown flag", ChatLine{Header: lh, Seq: 1, Flags: 4, Name: "bob", Text: "x"}, ErrFlags},
	} {
		if _, err := ParseChatLine(bad.l.Append(nil)); !errors.Is(err, bad.want) {
			t.Errorf("%s: %v, want %v", bad.name, err, bad.want)
		}
	}
}

// FuzzChat: no bytes make a chat decoder panic; what decodes re-encodes
// to the same bytes, and a ChatLine's text and name are always safe to
// show (CleanChat and SanitizeName leave them as they are).
func FuzzChat(f *testing.F) {
	f.Add(mustHex(f, goldenChat)[HeaderLen:], false)
	f.Add(mustHex(f, goldenChatLine)[HeaderLen:], true)
	f.Fuzz(func(t *testing.T, body []byte, line bool) {
		if line {
			h := testHeader(TypeChatLine)
			p, err := ParseChatLineBody(h, body)
			if err != nil {
				return
			}
			if c, err := CleanChat(p.Text); err != nil || c != p.Text || SanitizeName(p.Name) != p.Name {
				t.Fatalf("a decoded ChatLine shows unsafe text %q or name %q", p.Text, p.Name)
			}
			if got := p.AppendBody(nil); string(got) != string(body) {
				t.Fatalf("re-encodes as %x, was %x", got, body)
			}
			return
		}
		p, err := ParseChatBody(testHeader(TypeChat), body)
		if err != nil {
			return
		}
		if got := p.AppendBody(nil); string(got) != string(body) {
			t.Fatalf("re-encodes as %x, was %x", got, body)
		}
		_, _ = CleanChat(p.Text)
	})
}
