package sshplay

import (
	"bytes"
	"io"
	"testing"
	"time"
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
