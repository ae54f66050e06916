package statsfile

import (
	"time"

	"ttytanks/internal/cputime"
	"ttytanks/netcode"
)

// Meter keeps a second's samples of the process's CPU time and the
// server's datagram counters over the last 10 s. The zero Meter is
// ready; it is not safe for concurrent use.
type Meter struct {
	samples [11]sample
	n       int // samples taken
}

type sample struct {
	at      time.Time
	cpu     time.Duration
	in, out uint64
}

// Add takes a sample at at of the datagrams in and out so far, with the
// process's CPU time now; samples closer than half a second to the last
// replace it.
func (m *Meter) Add(at time.Time, in, out uint64) {
	cpu, _ := cputime.Process()
	s := sample{at: at, cpu: cpu, in: in, out: out}
	if m.n > 0 && at.Sub(m.samples[(m.n-1)%len(m.samples)].at) < 500*time.Millisecond {
		m.samples[(m.n-1)%len(m.samples)] = s
		return
	}
	m.samples[m.n%len(m.samples)] = s
	m.n++
}

// Load returns the rates between the oldest and the newest sample, with
// st's players, rooms and tick quantiles.
func (m *Meter) Load(st *netcode.ServerStats) Load {
	l := Load{Players: len(st.Players), Rooms: len(st.Rooms), TickP50us: float64(st.TickP50) / 1e3, TickP99us: float64(st.TickP99) / 1e3}
	if m.n < 2 {
		return l
	}
	newest := m.samples[(m.n-1)%len(m.samples)]
	oldest := m.samples[max(0, m.n-len(m.samples))%len(m.samples)]
	span := newest.at.Sub(oldest.at).Seconds()
	if span <= 0 {
		return l
	}
	l.WindowS = span
	l.CPUPerS = (newest.cpu - oldest.cpu).Seconds() / span
	l.DatagramsInPerS = float64(newest.in-oldest.in) / span
	l.DatagramsOutPerS = float64(newest.out-oldest.out) / span
	return l
}
