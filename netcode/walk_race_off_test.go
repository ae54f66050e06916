//go:build !race

package netcode

const walkRace = false
