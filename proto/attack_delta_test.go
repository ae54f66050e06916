package proto

import (
	"bytes"
	"testing"

	"ttytanks/game"
)

// deltaBody builds a delta State body (after the header): report, back,
// slots, then raw run bytes.
func attackDeltaDatagram(tick uint32, back, slots byte, runs ...byte) []byte {
	st := State{Header: Header{Session: 1, Match: 2, Player: 0, Seq: 3}}
	st.Snapshot.Tick = game.Tick(tick)
	b := st.appendAs(nil, TypeState)
	b = appendAckInfo(b, &st.AckInfo, game.Tick(tick), 0x1234)
	b = append(b, back, slots)
	return append(b, runs...)
}

// FuzzDeltaCanonical: whatever parses as a delta State re-encodes to the
// very same bytes (one encoding per delta), its Len is its size, and every
// step input is valid and for the tick it is stepped at.
func FuzzDeltaCanonical(f *testing.F) {
	f.Add(attackDeltaDatagram(1006, 4, 3, 0x01, 0x02, 0x11, 0x01, 0x81, 0x88, 0x80))
	f.Add(attackDeltaDatagram(5, 1, 1, 0x80))
	f.Add(attackDeltaDatagram(0, 120, 8, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x89))
	f.Add(attackDeltaDatagram(0xffffffff, 120, 1, 0x01, 119, 0x80))
	f.Add(attackDeltaDatagram(3, 121, 1, 0x80))
	f.Add(attackDeltaDatagram(3, 2, 1, 0x01, 0x00, 0x80))
	f.Add(attackDeltaDatagram(3, 2, 1, 0x01, 0x01, 0x81))
	f.Add(attackDeltaDatagram(3, 2, 9, 0x80))
	f.Fuzz(func(t *testing.T, b []byte) {
		var st State
		if err := ParseState(b, &st); err != nil {
			return
		}
		if got := st.Len(); got != len(b) {
			t.Fatalf("Len %d, datagram %d bytes", got, len(b))
		}
		if !st.Delta() {
			return
		}
		out := st.Append(nil)
		if !bytes.Equal(out, b) {
			t.Fatalf("delta re-encodes differently:\n in %x\nout %x", b, out)
		}
		base := st.Base()
		for k := 0; k < int(st.Back); k++ {
			ins := st.StepInputs(k)
			if len(ins) != int(st.Snapshot.Slots) {
				t.Fatalf("step %d: %d inputs for %d slots", k, len(ins), st.Snapshot.Slots)
			}
			for i, in := range ins {
				if !in.Valid() || in.Tick != base.Add(int32(k)) {
					t.Fatalf("step %d slot %d: %+v (base %d)", k, i, in, base)
				}
			}
		}
	})
}

// TestDeltaDecoderHostileRuns feeds hand-made malformed runs.
func TestDeltaDecoderHostileRuns(t *testing.T) {
	cases := []struct {
		name string
		b    []byte
		ok   bool
	}{
		{"one last run", attackDeltaDatagram(10, 3, 1, 0x85), true},
		{"back 0 is a full state, short", attackDeltaDatagram(10, 0, 1, 0x85), false},
		{"back 121", attackDeltaDatagram(200, 121, 1, 0x80), false},
		{"back 255", attackDeltaDatagram(200, 255, 1, 0x80), false},
		{"slots 0", attackDeltaDatagram(10, 3, 0), false},
		{"slots 9", attackDeltaDatagram(10, 3, 9, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80), false},
		{"zero-length run", attackDeltaDatagram(10, 3, 1, 0x01, 0x00, 0x80), false},
		{"run to the end, not last", attackDeltaDatagram(10, 3, 1, 0x01, 0x03), false},
		{"run past the end", attackDeltaDatagram(10, 3, 1, 0x01, 0x04, 0x80), false},
		{"run of 255", attackDeltaDatagram(10, 120, 1, 0x01, 0xff, 0x80), false},
		{"same input twice", attackDeltaDatagram(10, 3, 1, 0x01, 0x01, 0x81), false},
		{"alternating runs", attackDeltaDatagram(10, 4, 1, 0x01, 0x01, 0x00, 0x01, 0x81), true},
		{"bit 6", attackDeltaDatagram(10, 3, 1, 0xc0), false},
		{"move 10", attackDeltaDatagram(10, 3, 1, 0x82), false},
		{"no last run", attackDeltaDatagram(10, 3, 1, 0x01, 0x01, 0x00, 0x01), false},
		{"trailing", attackDeltaDatagram(10, 3, 1, 0x80, 0x00), false},
		{"missing slot", attackDeltaDatagram(10, 3, 2, 0x80), false},
		{"wraps tick 0", attackDeltaDatagram(1, 3, 1, 0x01, 0x02, 0x80), true},
	}
	for _, c := range cases {
		var st State
		err := ParseState(c.b, &st)
		if (err == nil) != c.ok {
			t.Errorf("%s: err %v, want ok %v", c.name, err, c.ok)
		}
	}
}
