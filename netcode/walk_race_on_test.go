//go:build race

package netcode

// walkRace shortens TestLifecycleWalk under the race detector, which hunts
// races, not lifecycle defects, and runs the walk ten times slower.
const walkRace = true
