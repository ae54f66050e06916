package sshterm

import (
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// TestTtyHugeWindowRendersBounded: a huge window gets a screen of at most
// 256x100 cells, whatever the client claims, so a session's cell buffers
// and frames stay small.
func TestTtyHugeWindowRendersBounded(t *testing.T) {
	ch, _, closeAll := newPipeChannel(t)
	defer closeAll()
	tty := NewChannelTty(ch, 1<<16, 1<<16)
	_, ti := lookupTerm("xterm-256color")
	screen, err := tcell.NewTerminfoScreenFromTtyTerminfo(tty, ti)
	if err != nil {
		t.Fatal(err)
	}
	if err := screen.Init(); err != nil {
		t.Fatal(err)
	}
	defer screen.Fini()
	if w, h := screen.Size(); w > 256 || h > 100 {
		t.Errorf("screen of %dx%d cells for a huge window, want at most 256x100", w, h)
	}
}

// TestConcurrentScreens: sessions start their screens at the same time
// without sharing (and racing on) tcell's terminfo entries; run with
// -race.
func TestConcurrentScreens(t *testing.T) {
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ch, _, closeAll := newPipeChannel(t)
			defer closeAll()
			_, ti := lookupTerm("xterm-256color")
			if _, err := tcell.NewTerminfoScreenFromTtyTerminfo(NewChannelTty(ch, 80, 24), ti); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	_, a := lookupTerm("xterm-256color")
	_, b := lookupTerm("xterm-256color")
	if a == b {
		t.Error("lookupTerm returned the shared entry, not a copy")
	}
}

// TestTtyLastInputMonotonic: LastInput carries a monotonic clock reading,
// so the idle timeout does not jump with the wall clock.
func TestTtyLastInputMonotonic(t *testing.T) {
	ch, keys, closeAll := newPipeChannel(t)
	defer closeAll()
	tty := NewChannelTty(ch, 80, 24)
	if s := tty.LastInput().String(); !strings.Contains(s, "m=") {
		t.Errorf("LastInput %s has no monotonic reading", s)
	}
	go tty.Pump()
	before := time.Now()
	go func() { _, _ = keys.Write([]byte("x")) }()
	if err := within(t, time.Second, readAsync(tty, make([]byte, 8)), "Read"); err != nil {
		t.Fatal(err)
	}
	last := tty.LastInput()
	if !strings.Contains(last.String(), "m=") || last.Before(before) {
		t.Errorf("LastInput after a key: %s, want a monotonic time after %s", last, before)
	}
}

// eofWriter fails every Write with io.EOF, as a closed SSH channel does.
type eofWriter struct{}

func (eofWriter) Write([]byte) (int, error) { return 0, io.EOF }

// TestTtyOnGone: OnGone is called, once, when the channel's input ends
// and when a Write finds the channel closed.
func TestTtyOnGone(t *testing.T) {
	t.Run("input ends", func(t *testing.T) {
		ch, keys, closeAll := newPipeChannel(t)
		defer closeAll()
		tty := NewChannelTty(ch, 80, 24)
		gone := make(chan error, 2)
		tty.OnGone = func() { gone <- nil }
		pumped := make(chan struct{})
		go func() { defer close(pumped); tty.Pump() }()
		keys.Close()
		within(t, time.Second, gone, "OnGone after the input ended")
		<-pumped
	})
	t.Run("write EOF", func(t *testing.T) {
		tty := NewChannelTty(pipeChannel{Writer: eofWriter{}}, 80, 24)
		calls := 0
		tty.OnGone = func() { calls++ }
		for range 2 {
			if _, err := tty.Write([]byte("frame")); err != io.EOF {
				t.Fatalf("Write: %v, want io.EOF", err)
			}
		}
		if calls != 1 {
			t.Errorf("OnGone called %d times, want 1", calls)
		}
	})
}
