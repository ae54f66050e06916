package resim

import (
	"bytes"
	"testing"
	"ttytanks/proto/recording/rectest"
)

// FuzzVerify: Verify and Load of any bytes return an error or a result,
// never panic, and a loaded timeline seeks anywhere and steps to its end.
func FuzzVerify(f *testing.F) {
	file := rectest.Record(f, 2, 300, true, true, rectest.RandomInputs(1))
	f.Add(file)
	f.Add(file[:len(file)/2])
	f.Fuzz(func(t *testing.T, b []byte) {
		Verify(bytes.NewReader(b))
		tl, err := Load(bytes.NewReader(b))
		if err != nil {
			return
		}
		tl.Seek(tl.End())
		tl.Seek(tl.Start().Add(int32(len(b))))
		for tl.Step() {
		}
		if tl.Tick() != tl.End() {
			t.Fatalf("stepped to %d, end %d", tl.Tick(), tl.End())
		}
	})
}
