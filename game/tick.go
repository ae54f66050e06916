package game

// Tick numbers one fixed simulation step. There are TickRate ticks per
// second. A Tick is a uint32 and wraps around after about 2.27 years of play
// at 60 Hz; ticks must therefore never be compared with < or >. Use
// Tick.Diff, Tick.Before and Tick.After, which treat the difference as a
// signed 32-bit value and are correct across the wrap as long as the two
// ticks are less than 2^31 apart.
type Tick uint32

// TickRate is the number of simulation ticks per second.
const TickRate = 60

// Diff returns t − u as a signed number of ticks, correct across the
// wrap-around of the uint32 counter.
func (t Tick) Diff(u Tick) int32 { return int32(uint32(t) - uint32(u)) }

// Before reports whether t is earlier than u (wrap-safe).
func (t Tick) Before(u Tick) bool { return t.Diff(u) < 0 }

// After reports whether t is later than u (wrap-safe).
func (t Tick) After(u Tick) bool { return t.Diff(u) > 0 }

// Add returns the tick n ticks after t (n may be negative).
func (t Tick) Add(n int32) Tick { return Tick(uint32(t) + uint32(n)) }
