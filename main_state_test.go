package main

import (
	"os"
	"testing"
)

// TestMain gives the package's tests their own state directory, so a join
// run in a test remembers server keys there and not in the user's
// ~/.local/state.
func TestMain(m *testing.M) {
	state, err := os.MkdirTemp("", "ttytanks-state-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_STATE_HOME", state)
	code := m.Run()
	os.RemoveAll(state)
	os.Exit(code)
}
