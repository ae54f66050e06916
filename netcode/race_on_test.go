//go:build race

package netcode

const exactnessTicks = 6_000
