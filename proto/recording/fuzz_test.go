package recording

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// FuzzParseHeader: any bytes either fail to parse or parse to a header
// that re-encodes to exactly the bytes it was parsed from.
func FuzzParseHeader(f *testing.F) {
	h := sampleHeader()
	f.Add(h.Append(nil))
	f.Add(sharedMatch(f)[:64])
	f.Fuzz(func(t *testing.T, b []byte) {
		h, n, err := ParseHeader(b)
		if err != nil {
			return
		}
		if got := h.Append(nil); !bytes.Equal(got, b[:n]) || h.Len() != n {
			t.Fatalf("re-encoded %x (Len %d), parsed from %x", got, h.Len(), b[:n])
		}
	})
}

// FuzzParseBlock: any bytes either fail to parse or parse to a block that
// re-encodes to exactly the bytes it was parsed from.
func FuzzParseBlock(f *testing.F) {
	k := sampleBlock()
	f.Add(uint8(2), k.Append(nil))
	file := sharedMatch(f)
	_, ks, offs, _ := readAll(file)
	for i := range 3 {
		f.Add(uint8(4), file[offs[i]:offs[i]+int64(ks[i].Len())])
	}
	f.Fuzz(func(t *testing.T, slots uint8, b []byte) {
		k, n, err := ParseBlock(b, int(slots))
		if err != nil {
			return
		}
		if got := k.Append(nil); !bytes.Equal(got, b[:n]) || k.Len() != n {
			t.Fatalf("re-encoded %x (Len %d), parsed from %x", got, k.Len(), b[:n])
		}
	})
}

// FuzzReader: a Reader over any bytes returns blocks in tick order and
// stops with io.EOF or an error (a *BlockError once past the header);
// blocks it returns re-encode to the bytes between their offsets.
func FuzzReader(f *testing.F) {
	file := sharedMatch(f)
	f.Add(file[:min(len(file), 600)])
	f.Add(file[:200])
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := NewReader(bytes.NewReader(b))
		if err != nil {
			return
		}
		next := r.Header().Start
		for {
			off := r.Offset()
			k, err := r.Next()
			if err == io.EOF {
				return
			}
			var be *BlockError
			if err != nil {
				if !errors.As(err, &be) || be.Offset != off {
					t.Fatalf("error %v at byte %d is not a BlockError naming the offset", err, off)
				}
				return
			}
			if k.First != next {
				t.Fatalf("block at tick %d, expected %d", k.First, next)
			}
			next = k.First.Add(int32(k.Count))
			if enc := k.Append(nil); !bytes.Equal(enc, b[off:r.Offset()]) {
				t.Fatalf("block at byte %d re-encodes differently", off)
			}
		}
	})
}
