package netcode

import "ttytanks/game"

// DefaultHistory is the default capacity, in ticks, of the client's input
// and snapshot histories: about 68 s at 60 Hz.
const DefaultHistory = 4096

// Ring is a history indexed by tick: slot tick % capacity. Each slot
// remembers the tick it holds, and Get verifies it, so a slot overwritten by
// a later tick (or never written) is reported missing rather than mistaken
// for the one asked for. A Ring is not safe for concurrent use.
type Ring[T any] struct {
	ticks []game.Tick
	full  []bool
	vals  []T
}

// NewRing returns a ring of the given capacity (at least 1).
func NewRing[T any](capacity int) *Ring[T] {
	capacity = max(capacity, 1)
	return &Ring[T]{ticks: make([]game.Tick, capacity), full: make([]bool, capacity), vals: make([]T, capacity)}
}

// Cap returns the capacity in ticks.
func (r *Ring[T]) Cap() int { return len(r.vals) }

func (r *Ring[T]) slot(t game.Tick) int { return int(uint32(t) % uint32(len(r.vals))) }

// Put stores v for tick t, replacing whatever the slot held.
func (r *Ring[T]) Put(t game.Tick, v T) {
	i := r.slot(t)
	r.ticks[i], r.full[i], r.vals[i] = t, true, v
}

// Ref returns a pointer to the slot for tick t, claiming it for t, so large
// values can be written in place. The pointer is valid until the slot is
// reused.
func (r *Ring[T]) Ref(t game.Tick) *T {
	i := r.slot(t)
	r.ticks[i], r.full[i] = t, true
	return &r.vals[i]
}

// Get returns the value stored for tick t, if the slot still holds t.
func (r *Ring[T]) Get(t game.Tick) (T, bool) {
	i := r.slot(t)
	if !r.full[i] || r.ticks[i] != t {
		var zero T
		return zero, false
	}
	return r.vals[i], true
}

// Lookup is Get returning a pointer into the ring (nil when missing); the
// pointer is valid until the slot is reused.
func (r *Ring[T]) Lookup(t game.Tick) *T {
	i := r.slot(t)
	if !r.full[i] || r.ticks[i] != t {
		return nil
	}
	return &r.vals[i]
}

// Has reports whether the ring holds tick t.
func (r *Ring[T]) Has(t game.Tick) bool {
	i := r.slot(t)
	return r.full[i] && r.ticks[i] == t
}

// Clear forgets every entry.
func (r *Ring[T]) Clear() {
	clear(r.full)
}
