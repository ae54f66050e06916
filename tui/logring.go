package tui

import (
	"strings"
	"sync"
	"unicode/utf8"
)

// MaxLogLine is the longest log line, in bytes, a LogRing keeps; a longer
// line is cut and ends in "…".
const MaxLogLine = 512

// maxLogRaw bounds the bytes of one unfinished line a LogRing buffers
// before it is cleaned: the rest of a longer line is dropped.
const maxLogRaw = 4 * MaxLogLine

// LogRing is an io.Writer that keeps the last lines written to it, for the
// server's dashboard to show in its log pane while the terminal is taken
// (route a slog handler into it instead of stderr). Memory is bounded: at
// most its capacity of lines, each at most MaxLogLine bytes, plus one
// unfinished line. Each line is cleaned as it is completed: escape
// sequences, control characters and invalid UTF-8 are removed (see
// cleanText), since log text can carry hostile player names; empty lines
// are dropped. A LogRing is safe for concurrent use; concurrent writers'
// lines stay whole as long as each Write ends with a newline, as each
// slog record does.
type LogRing struct {
	mu      sync.Mutex
	lines   []string // a ring of cap(lines) lines; next is the oldest once full
	next    int
	full    bool
	partial []byte // the unfinished line, at most maxLogRaw bytes
	cut     bool   // partial was cut: drop the rest of the line
}

// NewLogRing returns a LogRing that keeps the last n lines (at least 1).
func NewLogRing(n int) *LogRing {
	return &LogRing{lines: make([]string, max(n, 1))}
}

// Write adds p's complete lines to the ring and keeps an unfinished last
// line until its newline arrives. It never fails and always returns
// len(p).
func (r *LogRing) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := 0
		for i < len(p) && p[i] != '\n' {
			i++
		}
		if room := maxLogRaw - len(r.partial); i > room {
			r.partial = append(r.partial, p[:room]...)
			r.cut = true
		} else {
			r.partial = append(r.partial, p[:i]...)
		}
		if i == len(p) {
			break
		}
		r.add(string(r.partial), r.cut)
		r.partial, r.cut = r.partial[:0], false
		p = p[i+1:]
	}
	return n, nil
}

// add cleans a completed line and puts it in the ring.
func (r *LogRing) add(raw string, cut bool) {
	s := strings.TrimRight(cleanText(raw), " ")
	if len(s) > MaxLogLine {
		s, cut = s[:MaxLogLine], true
		for !utf8.ValidString(s) { // do not split a rune
			s = s[:len(s)-1]
		}
	}
	if cut {
		s += "…"
	}
	if s == "" {
		return
	}
	r.lines[r.next] = s
	r.next++
	if r.next == len(r.lines) {
		r.next, r.full = 0, true
	}
}

// Lines returns the newest n complete lines (fewer when the ring holds
// fewer), oldest first, in a new slice. A nil LogRing holds no lines.
func (r *LogRing) Lines(n int) []string {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	have := r.next
	if r.full {
		have = len(r.lines)
	}
	n = min(max(n, 0), have)
	out := make([]string, n)
	for i := range n {
		out[i] = r.lines[(r.next-n+i+len(r.lines))%len(r.lines)]
	}
	return out
}
