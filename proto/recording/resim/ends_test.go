package resim

import (
	"bytes"
	"fmt"
	"testing"

	"ttytanks/game"
	"ttytanks/proto/recording"
	"ttytanks/proto/recording/rectest"
)

// recordEnding writes a match of 3 seats and ticks ticks with random
// inputs, then the seat changes leave (seats that go after the last step,
// as the server's last human leaving or timing out does), then ends it
// with End when end is set, else with Flush (the server closing the room).
// With a mid-block checkpoint interval (checkEvery below the block's 60
// ticks), a seat also leaves at a checkpoint tick in mid-block.
func recordEnding(t *testing.T, ticks, checkEvery int, leave []int, end bool) []byte {
	t.Helper()
	m := rectest.NewMatch(t, recording.Header{Rules: game.RulesVersion, Match: 3, Seed: 11, Slots: 3,
		Start: 500, CheckEvery: checkEvery, Server: "test", Names: []string{"ann", "bob", "cy"}}, rectest.RandomInputs(7))
	for i := 0; i < ticks; i++ {
		if checkEvery > 0 && i == 2*checkEvery { // a checkpoint tick, inside the block when checkEvery < 30
			m.Seat(2, "cy", false)
		}
		m.Step()
	}
	for _, s := range leave {
		m.Seat(s, "", false)
	}
	if end {
		return m.End()
	}
	return m.Flush()
}

// TestVerifyEveryEnding: a recording verifies however its match ends:
// the last players leaving after the last step (the end, then the last
// checkpoint, fall at the tick of the leave), with the block full or
// not; a leave at a checkpoint tick in mid-block; the room closed after a
// leave (no end). The checkpoint at a tick is the world after the step
// before it, before that tick's seat changes (RECORDING.md §7).
func TestVerifyEveryEnding(t *testing.T) {
	for _, c := range []struct {
		ticks, checkEvery int
		leave             []int
		end               bool
	}{
		{ticks: 484, leave: []int{0, 1}, end: true}, // the last block has 4 ticks
		{ticks: 480, leave: []int{0, 1}, end: true}, // the leave falls after a full block
		{ticks: 301, leave: []int{1}, end: true},
		{ticks: 301, leave: []int{1}, end: false},
		{ticks: 250, checkEvery: 20, leave: []int{0}, end: true},
		{ticks: 250, checkEvery: 20, end: false},
	} {
		t.Run(fmt.Sprintf("%d ticks, checks every %d, leave %v, end %v", c.ticks, c.checkEvery, c.leave, c.end), func(t *testing.T) {
			file := recordEnding(t, c.ticks, c.checkEvery, c.leave, c.end)
			sum, err := Verify(bytes.NewReader(file))
			if err != nil {
				t.Fatalf("verify: %v", err)
			}
			if sum.Ticks != c.ticks || sum.Ended != c.end || sum.Interrupted != nil {
				t.Fatalf("summary %+v; want %d ticks, ended %v", sum, c.ticks, c.end)
			}
			tl, err := Load(bytes.NewReader(file))
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			tl.Seek(tl.End())
		})
	}
}
