package proto

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"net/netip"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"ttytanks/game"
)

// docExample is one worked example from PROTOCOL.md.
type docExample struct {
	name string // the packet type named by the marker
	line int    // of the marker, for messages
	data []byte
}

var exampleMarker = regexp.MustCompile(`^<!-- example: (\w+) -->$`)

// readDocExamples returns the examples of PROTOCOL.md: a marker line
// "<!-- example: Type -->" directly followed by a ```hex fenced block whose
// lines hold hex digits, spaces and "#" comments.
func readDocExamples(t *testing.T) []docExample {
	t.Helper()
	f, err := os.Open("../PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []docExample
	sc := bufio.NewScanner(f)
	n := 0
	next := func() (string, bool) {
		if !sc.Scan() {
			return "", false
		}
		n++
		return sc.Text(), true
	}
	for {
		line, ok := next()
		if !ok {
			break
		}
		m := exampleMarker.FindStringSubmatch(line)
		if m == nil {
			if strings.Contains(line, "example:") {
				t.Errorf("PROTOCOL.md:%d: malformed example marker %q", n, line)
			}
			continue
		}
		ex := docExample{name: m[1], line: n}
		if fence, _ := next(); fence != "```hex" {
			t.Fatalf("PROTOCOL.md:%d: example marker not followed by a ```hex block", ex.line)
		}
		var digits strings.Builder
		for {
			l, ok := next()
			if !ok {
				t.Fatalf("PROTOCOL.md:%d: unterminated hex block", ex.line)
			}
			if l == "```" {
				break
			}
			if i := strings.IndexByte(l, '#'); i >= 0 {
				l = l[:i]
			}
			digits.WriteString(strings.Join(strings.Fields(l), ""))
		}
		ex.data, err = hex.DecodeString(digits.String())
		if err != nil {
			t.Fatalf("PROTOCOL.md:%d: bad hex in the %s example: %v", ex.line, ex.name, err)
		}
		out = append(out, ex)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestProtocolDocExamples decodes every worked example of PROTOCOL.md with
// the parser of the packet type its marker names, re-encodes it, and
// requires the same bytes. Every packet type must have exactly one
// example.
func TestProtocolDocExamples(t *testing.T) {
	examples := readDocExamples(t)
	cases := map[string]codecCase{}
	for _, c := range codecCases() {
		cases[c.name] = c
	}
	seen := map[string]bool{}
	for _, ex := range examples {
		c, ok := cases[ex.name]
		if !ok {
			t.Errorf("PROTOCOL.md:%d: example of unknown packet type %q", ex.line, ex.name)
			continue
		}
		if seen[ex.name] {
			t.Errorf("PROTOCOL.md:%d: a second example of %s", ex.line, ex.name)
		}
		seen[ex.name] = true
		h, err := ParseHeader(ex.data)
		if err != nil {
			t.Errorf("PROTOCOL.md:%d: %s example: header: %v", ex.line, ex.name, err)
			continue
		}
		if h.Type.String() != ex.name {
			t.Errorf("PROTOCOL.md:%d: the %s example has type %v", ex.line, ex.name, h.Type)
		}
		p, err := c.parse(ex.data)
		if err != nil {
			t.Errorf("PROTOCOL.md:%d: %s example does not parse: %v", ex.line, ex.name, err)
			continue
		}
		if again := p.Append(nil); !bytes.Equal(again, ex.data) {
			t.Errorf("PROTOCOL.md:%d: %s example re-encodes differently:\n got %x\nwant %x", ex.line, ex.name, again, ex.data)
		}
		if p.Len() != len(ex.data) {
			t.Errorf("PROTOCOL.md:%d: %s example is %d bytes, Len() = %d", ex.line, ex.name, len(ex.data), p.Len())
		}
		checkDocExample(t, ex, p)
	}
	for name := range cases {
		if !seen[name] {
			t.Errorf("PROTOCOL.md has no example of %s", name)
		}
	}
}

// checkDocExample checks what the document claims about particular
// examples beyond their syntax.
func checkDocExample(t *testing.T, ex docExample, p packet) {
	switch p := p.(type) {
	case *Challenge:
		// "secret = the 32 bytes 00 01 02 … 1f, address 192.0.2.7:40000, the header's session,
		// issued at 2026-03-01T12:00:00.123Z"
		secret := make([]byte, 32)
		for i := range secret {
			secret[i] = byte(i)
		}
		issued := time.Date(2026, 3, 1, 12, 0, 0, 123e6, time.UTC)
		addr := netip.MustParseAddrPort("192.0.2.7:40000")
		j := NewCookieJar(secret)
		if err := j.Verify(p.Cookie, addr, p.Session, issued.Add(time.Second)); err != nil {
			t.Errorf("PROTOCOL.md:%d: the Challenge example's cookie does not verify: %v", ex.line, err)
		}
		if got := j.Issue(addr, p.Session, issued); got != p.Cookie {
			t.Errorf("PROTOCOL.md:%d: the Challenge example's cookie is %x, Issue gives %x", ex.line, p.Cookie, got)
		}
	case *State:
		if got := game.Hash(&p.Snapshot); got != p.Hash {
			t.Errorf("PROTOCOL.md:%d: the State example's hash is %#x, game.Hash of its snapshot is %#x", ex.line, p.Hash, got)
		}
	}
}
