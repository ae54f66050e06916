package transport

import (
	"math/rand/v2"
	"time"
)

// Impairment describes what the network does to datagrams on one path.
// The zero value is a perfect network.
type Impairment struct {
	// Latency is the one-way delay added to every datagram.
	Latency time.Duration
	// Jitter adds a uniformly random extra delay in [-Jitter, +Jitter]
	// (never below zero in total), so datagrams may also reorder.
	Jitter time.Duration
	// Loss is the probability (0..1) that a datagram is dropped.
	Loss float64
	// Dup is the probability that a datagram is delivered twice.
	Dup float64
	// Reorder is the probability that a datagram is held back by an extra
	// 1–3 ticks, so datagrams sent after it overtake it.
	Reorder float64
}

// Active reports whether the impairment changes anything.
func (m Impairment) Active() bool { return m != Impairment{} }

// Netsim decides the fate of each datagram on a path: dropped, or
// delivered at one or two (duplicate) future times. It is seeded, so a run
// with the same seed and sends makes the same decisions. Not safe for
// concurrent use.
type Netsim struct {
	Impairment
	rng *rand.Rand
}

// NewNetsim returns a simulator for one path.
func NewNetsim(m Impairment, seed uint64) *Netsim {
	return &Netsim{Impairment: m, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// Plan returns the delivery times of a datagram sent at now: none (lost),
// one, or two (duplicated). It appends to dst and returns it.
func (s *Netsim) Plan(now time.Time, dst []time.Time) []time.Time {
	if s.Loss > 0 && s.rng.Float64() < s.Loss {
		return dst
	}
	dst = append(dst, now.Add(s.delay()))
	if s.Dup > 0 && s.rng.Float64() < s.Dup {
		dst = append(dst, now.Add(s.delay()))
	}
	return dst
}

// reorderStep is what a reordered datagram is held back by, 1 to 3
// times: a tick of the game's 60 Hz clock.
const reorderStep = time.Second / 60

func (s *Netsim) delay() time.Duration {
	d := s.Latency
	if s.Jitter > 0 {
		d += time.Duration(s.rng.Int64N(int64(2*s.Jitter)+1)) - s.Jitter
	}
	if s.Reorder > 0 && s.rng.Float64() < s.Reorder {
		d += time.Duration(1+s.rng.IntN(3)) * reorderStep
	}
	return max(d, 0)
}
