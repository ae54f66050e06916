//go:build !race

package netcode

// exactnessTicks is the number of ticks each of the two clients of the
// replay-exactness test is checked for; the race detector's run checks
// fewer (it hunts races, not mismatches).
const exactnessTicks = 100_000
