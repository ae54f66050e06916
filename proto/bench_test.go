package proto

import (
	"testing"

	"ttytanks/game"
)

// benchState is a 2-tank State with 4 bullets, as in a typical duel.
func benchState() *State {
	p := testState()
	s := &p.Snapshot
	s.NumBullets = 4
	s.Bullets[2], s.Bullets[3] = s.Bullets[0], s.Bullets[1]
	return p
}

func BenchmarkAppendState(b *testing.B) {
	p := benchState()
	buf := make([]byte, 0, MaxDatagram)
	b.ReportAllocs()
	for b.Loop() {
		buf = p.Append(buf[:0])
	}
	b.SetBytes(int64(len(buf)))
}

func BenchmarkParseState(b *testing.B) {
	buf := benchState().Append(nil)
	var dst State
	b.ReportAllocs()
	b.SetBytes(int64(len(buf)))
	for b.Loop() {
		if err := ParseState(buf, &dst); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAppendInput(b *testing.B) {
	p := testInput()
	buf := make([]byte, 0, MaxDatagram)
	b.ReportAllocs()
	for b.Loop() {
		buf = p.Append(buf[:0])
	}
	b.SetBytes(int64(len(buf)))
}

func BenchmarkParseInput(b *testing.B) {
	buf := testInput().Append(nil)
	b.ReportAllocs()
	b.SetBytes(int64(len(buf)))
	for b.Loop() {
		if _, err := ParseInput(buf); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAppendAck(b *testing.B) {
	p := &Ack{Header: testHeader(TypeAck), AckInfo: testAckInfo(), Hash: 42}
	buf := make([]byte, 0, MaxDatagram)
	b.ReportAllocs()
	for b.Loop() {
		buf = p.Append(buf[:0])
	}
	b.SetBytes(int64(len(buf)))
}

func BenchmarkParseAck(b *testing.B) {
	buf := (&Ack{Header: testHeader(TypeAck), AckInfo: testAckInfo(), Hash: 42}).Append(nil)
	b.ReportAllocs()
	b.SetBytes(int64(len(buf)))
	for b.Loop() {
		if _, err := ParseAck(buf); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCookieIssueVerify(b *testing.B) {
	j := NewCookieJar(cookieSecret)
	b.ReportAllocs()
	for b.Loop() {
		c := j.Issue(cookieAddr, cookieSession, cookieNow)
		if err := j.Verify(c, cookieAddr, cookieSession, cookieNow); err != nil {
			b.Fatal(err)
		}
	}
}

// benchDelta is a delta State of slots tanks, 8 ticks back (a baseline a
// round trip of about 100 ms behind). At rest every player holds one
// input throughout; in combat each turns once and fires twice in those
// ticks: three to five runs a slot.
func benchDelta(slots int, combat bool) *State {
	p := &State{Header: testHeader(TypeState), AckInfo: testAckInfo(), Hash: 42, Back: 8}
	p.Snapshot.Tick, p.Snapshot.Slots = 1000, uint8(slots)
	for i := 0; i < 8; i++ {
		for slot := 0; slot < slots; slot++ {
			in := game.Input{Tick: game.Tick(1000 - 1 - i), MoveX: 1}
			if combat {
				if i < 3+slot%3 {
					in.MoveX, in.MoveY = 0, -1 // turned
				}
				if i == 1 || i == 5 {
					in.Buttons = game.ButtonFire
				}
			}
			p.Steps[i][slot] = in
		}
	}
	return p
}

func benchDeltaCases() []struct {
	name string
	p    *State
} {
	return []struct {
		name string
		p    *State
	}{
		{"2tanks/rest", benchDelta(2, false)}, {"2tanks/combat", benchDelta(2, true)},
		{"8tanks/rest", benchDelta(8, false)}, {"8tanks/combat", benchDelta(8, true)},
	}
}

// BenchmarkAppendStateDelta encodes delta States; "bytes" is the State's
// clear form (its sealed datagram is 8 bytes longer), "full" the whole
// State of those tanks with 4 bullets in flight.
func BenchmarkAppendStateDelta(b *testing.B) {
	for _, c := range benchDeltaCases() {
		b.Run(c.name, func(b *testing.B) {
			buf := make([]byte, 0, MaxDatagram)
			b.ReportAllocs()
			for b.Loop() {
				buf = c.p.Append(buf[:0])
			}
			b.ReportMetric(float64(len(buf)), "bytes")
			b.ReportMetric(float64(StateLen(int(c.p.Snapshot.Slots), int(c.p.Snapshot.Slots), 4)), "full")
		})
	}
}

// BenchmarkParseStateDelta decodes them.
func BenchmarkParseStateDelta(b *testing.B) {
	for _, c := range benchDeltaCases() {
		b.Run(c.name, func(b *testing.B) {
			buf := c.p.Append(nil)
			var dst State
			b.ReportAllocs()
			for b.Loop() {
				if err := ParseState(buf, &dst); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(buf)), "bytes")
		})
	}
}
