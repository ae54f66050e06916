// Package bot is a deterministic computer player for ttytanks.
//
// A Bot is called once per tick with the newest state (predicted or
// authoritative) and returns one slot's input. It is pure in the same sense
// as package game: no clocks, IO, goroutines, maps, floats or global
// randomness, and no allocation per call. It keeps no memory between calls
// (only scratch space), so its input is a function of its seed, the state,
// the maze and the slot: replays and rollbacks get the same answer.
package bot
