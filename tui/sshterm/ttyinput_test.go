package sshterm

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"go.uber.org/goleak"
)

// TestTtyPasteDiscarded: a megabyte pasted at once, with nobody reading
// the Tty, is read off the channel to the end (Pump never blocks on a
// slow reader), and what Read then gets is at most InputBurst bytes, the
// start of the paste; the rest is counted as dropped.
func TestTtyPasteDiscarded(t *testing.T) {
	const size = 1 << 20
	paste := bytes.Repeat([]byte("wasd "), size/5)
	tty := NewChannelTty(pipeChannel{Reader: bytes.NewReader(paste), Writer: io.Discard}, 80, 24)
	pumped := make(chan error, 1)
	go func() { tty.Pump(); pumped <- nil }()
	if err := within(t, 5*time.Second, pumped, "Pump reading the paste to its end with no reader"); err != nil {
		t.Fatal(err)
	}
	var got []byte
	p := make([]byte, 100)
	for {
		tty.mu.Lock()
		queued := len(tty.in)
		tty.mu.Unlock()
		if queued == 0 {
			break
		}
		n, err := tty.Read(p)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, p[:n]...)
	}
	if len(got) == 0 || len(got) > InputBurst {
		t.Errorf("Read %d bytes of the paste, want 1..%d", len(got), InputBurst)
	}
	if !bytes.HasPrefix(paste, got) {
		t.Errorf("Read %q..., want the start of the paste", got[:min(len(got), 20)])
	}
	if d := tty.Dropped(); d != int64(len(paste)-len(got)) {
		t.Errorf("Dropped %d, want %d (the paste less what was read)", d, len(paste)-len(got))
	}
}

// TestTtyTypingPassesThrough: keys typed at a fast typist's pace all
// reach Read, none dropped.
func TestTtyTypingPassesThrough(t *testing.T) {
	ch, keys, closeAll := newPipeChannel(t)
	defer closeAll()
	tty := NewChannelTty(ch, 80, 24)
	go tty.Pump()
	typed := bytes.Repeat([]byte("\x1b[A"), 300) // 900 bytes: within the burst
	go func() {
		for i := 0; i < len(typed); i += 3 {
			_, _ = keys.Write(typed[i : i+3])
		}
	}()
	var got []byte
	p := make([]byte, 64)
	for len(got) < len(typed) {
		if err := within(t, 2*time.Second, readAsyncInto(tty, p, &got), "typed keys"); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(got, typed) || tty.Dropped() != 0 {
		t.Errorf("got %d bytes (equal %v), dropped %d; want every key", len(got), bytes.Equal(got, typed), tty.Dropped())
	}
}

func readAsyncInto(tty *ChannelTty, p []byte, got *[]byte) chan error {
	done := make(chan error, 1)
	go func() {
		n, err := tty.Read(p)
		*got = append(*got, p[:n]...)
		done <- err
	}()
	return done
}

// BenchmarkTtyPaste measures Pump on a 16 MB paste: the cost per pasted
// byte of reading and discarding input beyond the budget.
func BenchmarkTtyPaste(b *testing.B) {
	const size = 16 << 20
	paste := bytes.Repeat([]byte("wasdx "), size/6)
	b.ReportAllocs()
	b.SetBytes(int64(len(paste)))
	for b.Loop() {
		tty := NewChannelTty(pipeChannel{Reader: bytes.NewReader(paste), Writer: io.Discard}, 80, 24)
		tty.Pump()
	}
}

// TestTtyBadUTF8NeverReachesTcell: bytes that start no valid UTF-8
// sequence (a lone 0xE9 before an ASCII key, 0xFF, the start of a 4-byte
// sequence that an ASCII key breaks off) are removed before tcell sees them — tcell's input
// scanner spins for ever on one, pinning a core and hanging the session —
// while a character the channel delivers in two reads arrives whole. A
// screen on the Tty still gets every key after them, and finishes.
func TestTtyBadUTF8NeverReachesTcell(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	ch, keys, closeAll := newPipeChannel(t)
	defer closeAll()
	tty, screen, pumped := newTtyScreen(t, ch, 80, 24)
	events := make(chan tcell.Event, 64)
	quit := make(chan struct{})
	go screen.ChannelEvents(events, quit)

	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		for _, w := range [][]byte{
			{0xE9}, []byte("a"), // a lone lead byte, then a key
			{0xFF, 'b'},
			{0xC3}, {0xA9}, // é in two reads
			{0xF0, 0x9F}, {0x92, 'c'}, // a 4-byte sequence broken off by c
			[]byte("q"),
		} {
			if _, err := keys.Write(w); err != nil {
				return
			}
		}
	}()
	var runes []rune
	deadline := time.After(3 * time.Second)
	for len(runes) == 0 || runes[len(runes)-1] != 'q' {
		select {
		case ev := <-events:
			if k, ok := ev.(*tcell.EventKey); ok && k.Key() == tcell.KeyRune {
				runes = append(runes, k.Rune())
			}
		case <-deadline:
			t.Fatalf("no q after the bad bytes; keys so far %q", string(runes))
		}
	}
	<-wrote
	got := string(runes)
	if got != "abécq" {
		t.Errorf("keys %q, want \"abécq\"", got)
	}
	if d := tty.Dropped(); d != 5 {
		t.Errorf("dropped %d bytes, want the 5 invalid ones counted", d)
	}
	close(quit)
	finished := make(chan error, 1)
	go func() { screen.Fini(); finished <- nil }()
	within(t, time.Second, finished, "Fini")
	keys.Close()
	<-pumped
}

// TestTtyBudgetNeverCutsACharacter: when the input budget ends inside a
// multi-byte character, the whole character is left out (never its first
// bytes, which tcell would choke on), and Read never ends inside one.
func TestTtyBudgetNeverCutsACharacter(t *testing.T) {
	tty := NewChannelTty(pipeChannel{Reader: bytes.NewReader(nil), Writer: io.Discard}, 80, 24)
	paste := append(bytes.Repeat([]byte{'c'}, InputBurst-1), "é"...) // one byte over the burst
	tty.queue(paste, 0)
	tty.mu.Lock()
	queued := string(tty.in)
	tty.mu.Unlock()
	if queued != strings.Repeat("c", InputBurst-1) || tty.Dropped() != 2 {
		t.Fatalf("queued %d bytes (valid %v), dropped %d; want the c's only and é's 2 bytes dropped",
			len(queued), utf8.ValidString(queued), tty.Dropped())
	}
	p := make([]byte, 100)
	for range (InputBurst - 1) / 100 {
		if _, err := tty.Read(p); err != nil {
			t.Fatal(err)
		}
	}
	tty.queue([]byte("日本"), time.Second) // a second later: budget for them
	var rest []byte
	for {
		tty.mu.Lock()
		n := len(tty.in)
		tty.mu.Unlock()
		if n == 0 {
			break
		}
		m, err := tty.Read(p[:4])
		if err != nil {
			t.Fatal(err)
		}
		if !utf8.Valid(p[:m]) {
			t.Fatalf("a Read of %q ends inside a character", p[:m])
		}
		rest = append(rest, p[:m]...)
	}
	if want := strings.Repeat("c", (InputBurst-1)%100) + "日本"; string(rest) != want {
		t.Errorf("then read %q, want %q", rest, want)
	}
}
