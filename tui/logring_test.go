package tui

import (
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

func TestLogRingKeepsTheNewestLines(t *testing.T) {
	r := NewLogRing(3)
	if got := r.Lines(10); len(got) != 0 {
		t.Errorf("empty ring: %q", got)
	}
	fmt.Fprint(r, "one\ntwo\n")
	if got := strings.Join(r.Lines(10), "|"); got != "one|two" {
		t.Errorf("two lines: %q", got)
	}
	fmt.Fprint(r, "three\nfour\nfi")
	if got := strings.Join(r.Lines(10), "|"); got != "two|three|four" {
		t.Errorf("after wrapping: %q", got)
	}
	if got := strings.Join(r.Lines(2), "|"); got != "three|four" {
		t.Errorf("Lines(2): %q", got)
	}
	if got := r.Lines(0); len(got) != 0 {
		t.Errorf("Lines(0): %q", got)
	}
	if got := r.Lines(-1); len(got) != 0 {
		t.Errorf("Lines(-1): %q", got)
	}
	// The unfinished line completes with its newline, in pieces.
	fmt.Fprint(r, "ve")
	fmt.Fprint(r, "\n\n\n")
	if got := strings.Join(r.Lines(10), "|"); got != "three|four|five" {
		t.Errorf("after a line in pieces and empty lines: %q", got)
	}
	// Lines returns a copy.
	got := r.Lines(1)
	got[0] = "changed"
	if r.Lines(1)[0] != "five" {
		t.Error("Lines shares the ring's storage")
	}
}

func TestLogRingBounds(t *testing.T) {
	var none *LogRing
	if got := none.Lines(5); got != nil {
		t.Errorf("nil ring: %q", got)
	}
	r := NewLogRing(0) // at least one line
	fmt.Fprint(r, "a\nb\n")
	if got := strings.Join(r.Lines(5), "|"); got != "b" {
		t.Errorf("ring of one: %q", got)
	}
	r = NewLogRing(4)
	long := strings.Repeat("é", MaxLogLine) // 2 bytes a rune: cut mid-rune if careless
	n, err := r.Write([]byte(long + "\n"))
	if n != len(long)+1 || err != nil {
		t.Errorf("Write returned %d, %v", n, err)
	}
	got := r.Lines(1)[0]
	if !utf8.ValidString(got) || !strings.HasSuffix(got, "…") || len(got) > MaxLogLine+len("…") {
		t.Errorf("long line: %d bytes, valid %v, suffix %q", len(got), utf8.ValidString(got), got[len(got)-6:])
	}
	// A line without a newline is bounded however much arrives.
	for range 1000 {
		fmt.Fprint(r, strings.Repeat("z", 1000))
	}
	r.mu.Lock()
	partial := len(r.partial)
	r.mu.Unlock()
	if partial > maxLogRaw {
		t.Errorf("unfinished line holds %d bytes", partial)
	}
	fmt.Fprint(r, "\nafter\n")
	if got := r.Lines(2); len(got[0]) > MaxLogLine+len("…") || !strings.HasSuffix(got[0], "…") || got[1] != "after" {
		t.Errorf("after a huge line: %d bytes, %q", len(got[0]), got[1])
	}
}

func TestLogRingHostileBytes(t *testing.T) {
	r := NewLogRing(8)
	fmt.Fprint(r, "player \x1b[2J\x1b]0;title\x07mallory\x1b[31m joined\r\n")
	fmt.Fprint(r, "bad \xff\xfe utf8 \u202eevil\x00\x08\x7f tab\there\n")
	fmt.Fprint(r, "\x1b[H\x1b[2J\n") // nothing printable: dropped
	fmt.Fprint(r, "c1 \u009b31m csi\n")
	want := []string{"player mallory joined", "bad  utf8 evil tab here", "c1 31m csi"}
	got := r.Lines(8)
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q\nwant %q", got, want)
	}
	for _, l := range got {
		for _, c := range []byte(l) {
			if c < 0x20 || c == 0x7f {
				t.Errorf("control byte %#x in %q", c, l)
			}
		}
	}
}

// TestLogRingSlog: slog's text handler writes one whole record per Write,
// and the records come out as lines.
func TestLogRingSlog(t *testing.T) {
	r := NewLogRing(8)
	log := slog.New(slog.NewTextHandler(r, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}}))
	log.Info("ssh session", "user", "eve\x1b[2J")
	if got := r.Lines(1); len(got) != 1 || got[0] != `level=INFO msg="ssh session" user="eve\x1b[2J"` {
		t.Errorf("slog line: %q", got)
	}
}

// TestLogRingConcurrent: writers and readers at once (run with -race);
// every line comes out whole.
func TestLogRingConcurrent(t *testing.T) {
	r := NewLogRing(64)
	const writers, each = 8, 500
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				fmt.Fprintf(r, "writer %d line %d %s\n", w, i, strings.Repeat("x", i%50))
			}
		}()
	}
	stop := make(chan struct{})
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		for {
			select {
			case <-stop:
				return
			default:
			}
			for _, l := range r.Lines(64) {
				var w, i int
				if _, err := fmt.Sscanf(l, "writer %d line %d", &w, &i); err != nil || !strings.HasSuffix(l, " "+strings.Repeat("x", i%50)) && i%50 != 0 {
					t.Errorf("torn line %q", l)
					return
				}
			}
		}
	}()
	wg.Wait()
	close(stop)
	<-readerDone
	if got := r.Lines(1000); len(got) != 64 {
		t.Errorf("%d lines kept, want 64", len(got))
	}
}
