//go:build !race

package netcode

// exactnessTicks is the number of distinct ticks the replay-exactness test
// checks; the race detector's run checks fewer (it hunts races, not
// mismatches).
const exactnessTicks = 100_000
