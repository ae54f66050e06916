package sshterm

import (
	"runtime/debug"
	"sync"
	"time"
)

// Returning the memory of ended sessions. The Go runtime keeps the heap
// it grew for the sessions at their peak until a collection finds it
// free (with few allocations, only the forced one every two minutes)
// and then gives it back to the operating system a little at a time, so
// a server whose players have left would hold their memory for minutes.
// A Game therefore collects and returns the free memory itself
// (debug.FreeOSMemory) once the sessions in play have fallen to at most
// half of their peak since it last did, by at least releaseLeft
// sessions, releaseDelay after the session end that crossed that line
// (the others of a wave of leaves end meanwhile).
const (
	releaseLeft  = 8
	releaseDelay = 2 * time.Second
)

// heapRelease counts a Game's sessions and returns the heap when enough
// have ended. Safe for concurrent use.
type heapRelease struct {
	mu      sync.Mutex
	active  int  // sessions in play
	peak    int  // the most in play at once since the last release
	pending bool // a release is scheduled
	// free returns the memory and after schedules it (tests replace
	// them): debug.FreeOSMemory and time.AfterFunc.
	free  func()
	after func(d time.Duration, f func())
}

func newHeapRelease() *heapRelease {
	return &heapRelease{free: debug.FreeOSMemory, after: func(d time.Duration, f func()) { time.AfterFunc(d, f) }}
}

// begin counts a session in.
func (h *heapRelease) begin() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.active++
	h.peak = max(h.peak, h.active)
}

// end counts a session out, and schedules a release when the sessions
// in play have fallen far enough.
func (h *heapRelease) end() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.active--
	if h.pending || h.peak-h.active < releaseLeft || 2*h.active > h.peak {
		return
	}
	h.pending = true
	h.after(releaseDelay, h.release)
}

// release returns the free heap to the operating system.
func (h *heapRelease) release() {
	h.mu.Lock()
	h.pending = false
	h.peak = h.active
	h.mu.Unlock()
	h.free()
}
