package game

// Hash returns a 64-bit digest of every field of s that carries state. It
// folds the fields as 64-bit words, in declaration order, through
// h = (h ^ word) * prime (the FNV-1a step on words instead of bytes), then
// avalanches the result. The words are values, not memory, so the digest is
// the same on every CPU and byte order. Each folding step is a bijection of
// h, so changing any one field always changes the digest.
//
// Only the Slots tanks and NumBullets bullets in use are folded (both counts
// are folded too); the rest of the arrays is zero in canonical form.
func Hash(s *Snapshot) uint64 {
	h := hashInit
	h = mix(h, uint64(s.Tick))
	h = mix(h, s.RNG)
	h = mix(h, uint64(s.Slots)|uint64(s.RoundsToWin)<<8)
	r := &s.Round
	h = mix(h, uint64(r.Number)|uint64(r.Phase)<<16|uint64(r.Timer)<<24|uint64(uint8(r.Winner))<<40|
		uint64(r.MazeW)<<48|uint64(r.MazeH)<<56)
	h = mix(h, r.MazeSeed)
	n := min(int(s.Slots), MaxPlayers)
	for i := 0; i < n; i++ {
		t := &s.Tanks[i]
		h = mix(h, uint64(uint32(t.X))|uint64(uint32(t.Y))<<32)
		h = mix(h, uint64(uint32(t.VX))|uint64(uint32(t.VY))<<32)
		h = mix(h, uint64(uint8(t.AimX))|uint64(uint8(t.AimY))<<8|uint64(uint8(t.HP))<<16|
			uint64(t.Cooldown)<<24|uint64(t.Hitstun)<<32|uint64(b2u(t.Alive))<<40|
			uint64(b2u(t.Seated))<<41|uint64(b2u(t.Rematch))<<42|uint64(t.Score)<<48)
		st := &t.Stats
		h = mix(h, uint64(st.Kills)|uint64(st.Deaths)<<16|uint64(st.Shots)<<32|uint64(st.Hits)<<48)
	}
	h = mix(h, uint64(s.NumBullets))
	nb := min(int(s.NumBullets), MaxBullets)
	for k := 0; k < nb; k++ {
		b := &s.Bullets[k]
		h = mix(h, uint64(uint32(b.X))|uint64(uint32(b.Y))<<32)
		h = mix(h, uint64(uint32(b.VX))|uint64(uint32(b.VY))<<32)
		h = mix(h, uint64(b.Owner)|uint64(b.Bounces)<<8|uint64(b.Life)<<16)
	}
	// Final avalanche (MurmurHash3 fmix64), also a bijection.
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

const (
	hashInit  uint64 = 0xcbf29ce484222325 // FNV-1a 64 offset basis
	hashPrime uint64 = 0x100000001b3      // FNV-1a 64 prime
)

func mix(h, v uint64) uint64 { return (h ^ v) * hashPrime }

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// Hash returns the digest of the world's current state; see the function
// Hash.
func (w *World) Hash() uint64 { return Hash(&w.s) }
