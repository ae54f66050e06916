package game

// RNG is the game's own pseudo-random generator (SplitMix64). Its whole
// state is one uint64, which the Snapshot carries, so a restored world draws
// exactly the numbers the original drew. The zero RNG is usable.
type RNG struct{ State uint64 }

// Next returns the next 64 pseudo-random bits.
func (r *RNG) Next() uint64 {
	r.State += 0x9e3779b97f4a7c15
	z := r.State
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Intn returns a pseudo-random number in [0, n). It panics if n <= 0.
// The tiny modulo bias is irrelevant for gameplay and fully deterministic.
func (r *RNG) Intn(n int) int {
	if n <= 0 {
		panic("game: RNG.Intn with n <= 0")
	}
	return int(r.Next() % uint64(n))
}
