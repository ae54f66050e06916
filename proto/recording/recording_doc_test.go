package recording

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
)

var exampleMarker = regexp.MustCompile(`^<!-- example: (\w+) -->$`)

// readDocExamples returns the hex examples of RECORDING.md by name: a
// marker line "<!-- example: Name -->" followed by a ```hex block whose
// lines hold hex digits, spaces and "#" comments.
func readDocExamples(t *testing.T) map[string][]byte {
	t.Helper()
	f, err := os.Open("../../RECORDING.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]byte{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := exampleMarker.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		if !sc.Scan() || sc.Text() != "```hex" {
			t.Fatalf("example %s: marker not followed by a ```hex block", m[1])
		}
		var digits strings.Builder
		for sc.Scan() && sc.Text() != "```" {
			l := sc.Text()
			if i := strings.IndexByte(l, '#'); i >= 0 {
				l = l[:i]
			}
			digits.WriteString(strings.Join(strings.Fields(l), ""))
		}
		b, err := hex.DecodeString(digits.String())
		if err != nil {
			t.Fatalf("example %s: %v", m[1], err)
		}
		out[m[1]] = b
	}
	return out
}

// TestRecordingDocExamples decodes the examples of RECORDING.md: each is
// the encoding of the values its text describes (the sample header and
// block of the codec tests), re-encodes to the same bytes, and the header
// followed by the block is a file that reads back as one block.
func TestRecordingDocExamples(t *testing.T) {
	ex := readDocExamples(t)
	hb, kb := ex["Header"], ex["Block"]
	if len(ex) != 2 || hb == nil || kb == nil {
		t.Fatalf("RECORDING.md has examples %v, want Header and Block", len(ex))
	}
	h, n, err := ParseHeader(hb)
	if err != nil || n != len(hb) {
		t.Fatalf("Header example: %v (%d of %d bytes)", err, n, len(hb))
	}
	if want := sampleHeader(); !deepEqual(h, want) {
		t.Errorf("Header example decodes to %+v, want %+v", h, want)
	}
	k, n, err := ParseBlock(kb, h.Slots)
	if err != nil || n != len(kb) {
		t.Fatalf("Block example: %v (%d of %d bytes)", err, n, len(kb))
	}
	if want := sampleBlock(); !deepEqual(k, want) {
		t.Errorf("Block example decodes to %+v, want %+v", k, want)
	}
	if !bytes.Equal(h.Append(nil), hb) || !bytes.Equal(k.Append(nil), kb) {
		t.Error("the examples do not re-encode to the same bytes")
	}
	r, err := NewReader(bytes.NewReader(append(hb, kb...)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("after the example block: %v, want io.EOF", err)
	}
}
