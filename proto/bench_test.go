package proto

import "testing"

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
