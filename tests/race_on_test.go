//go:build race

package tests

// raceDetector reports whether the race detector is on: it slows CPU-bound
// code (the SSH transport's ciphers, a flood's handshakes) tenfold and
// more, so tests that measure CPU or drive a flood scale by it.
const raceDetector = true
