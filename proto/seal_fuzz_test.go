package proto

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// FuzzOpenSealed feeds hostile datagrams to an Opener: it never panics,
// and whatever it opens is exactly what the Sealer of that key, connection
// and packet number makes of the body (a datagram opens only if it was
// sealed with the key: nothing else can be forged into one).
func FuzzOpenSealed(f *testing.F) {
	s, _ := newPair(f, ClientToServer, 0x0A0B0C0D)
	for _, body := range [][]byte{nil, {1}, []byte("input"), make([]byte, 91)} {
		d, err := s.Seal(nil, TypeInput, body)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(d)
	}
	f.Add([]byte{0x54, 0x54, Version, 0x85})
	f.Add(make([]byte, SealedHeaderLen+SealTagLen))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, o := newPair(t, ClientToServer, 0x0A0B0C0D)
		h, out, err := o.Open(nil, b)
		if err != nil {
			if out != nil {
				t.Fatalf("failed (%v) with a body %x", err, out)
			}
			return
		}
		re, _ := newPair(t, ClientToServer, 0x0A0B0C0D)
		re.next = h.PN - 1
		again, err := re.Seal(nil, h.Type, out)
		if err != nil || !bytes.Equal(again, b) {
			t.Fatalf("opened %x from %x, which resealed is %x (%v)", out, b, again, err)
		}
	})
}

// FuzzReplayWindow drives the replay window with packet numbers read from
// the input (each a u16 offset around the newest) and checks every
// verdict against the plain model of TestReplayWindowModel.
func FuzzReplayWindow(f *testing.F) {
	f.Add([]byte{0, 1, 0, 2, 0, 1})
	f.Add([]byte{1, 0, 0, 200, 0x80, 0x10, 0x7f, 0xff, 0x80, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		var w replayWindow
		seen := map[uint32]bool{}
		var newest uint32
		for len(b) >= 2 {
			d := int32(int16(binary.BigEndian.Uint16(b))) // −32768..32767 around the newest
			b = b[2:]
			pn := uint32(max(0, int64(newest)+int64(d)))
			want := pn != 0 && !seen[pn] && (pn > newest || newest-pn < ReplayWindow)
			err := w.check(pn)
			if (err == nil) != want {
				t.Fatalf("pn %d with newest %d: check %v, want accepted=%v", pn, newest, err, want)
			}
			if err == nil {
				w.mark(pn)
				seen[pn] = true
				newest = max(newest, pn)
			}
		}
	})
}
