package proto

import (
	"bytes"
	"encoding/binary"
	"errors"
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

// openPacketConn is FuzzOpenPacket's connection id; its key is testKeys'
// server → client key.
const openPacketConn = 0x0A0B0C0D

// openPacketSeeds returns FuzzOpenPacket's seeds, named: the sealed form
// of every sealed packet type's fixture (packet numbers 1, 2, ... in
// order, epochs 0, 1, ...), as the committed corpus holds them too.
func openPacketSeeds(tb testing.TB) (names []string, seeds [][]byte) {
	s, _ := newPair(tb, ServerToClient, openPacketConn)
	for i, c := range sealedCases() {
		c.pkt.Head().Seq = s.Sent() + 1
		d, err := s.AppendPacket(nil, c.pkt, uint8(i))
		if err != nil {
			tb.Fatal(err)
		}
		names = append(names, "sealed-"+c.name)
		seeds = append(seeds, d)
	}
	return names, seeds
}

// FuzzOpenPacket takes mutated sealed datagrams down a receiver's whole
// path: Open, SplitSealedBody and the packet type's body parser. Nothing
// panics, every error is one of the sentinels, and what opens and parses
// seals again, from the packet it parsed to, into exactly the same bytes.
// Under a fixed key only the seeds themselves open (the fuzzer cannot
// forge a tag), so this target guards Open against hostile bytes and the
// path after it against every body the seeds hold; FuzzParse* explore the
// bodies.
func FuzzOpenPacket(f *testing.F) {
	_, seeds := openPacketSeeds(f)
	for _, d := range seeds {
		f.Add(d)
	}
	parsers := map[Type]func([]byte) (packet, error){}
	for _, c := range codecCases() {
		parsers[c.pkt.PacketType()] = c.parse
	}
	header := testHeader(0)
	f.Fuzz(func(t *testing.T, b []byte) {
		_, o := newPair(t, ServerToClient, openPacketConn)
		h, body, err := o.Open(nil, b)
		if err != nil {
			if body != nil {
				t.Fatalf("failed (%v) with a body %x", err, body)
			}
			for _, known := range []error{ErrSealedShort, ErrSealedHeader, ErrReplay, ErrTooOld, ErrOpen} {
				if errors.Is(err, known) {
					return
				}
			}
			t.Fatalf("Open returned an error that is none of the sentinels: %v", err)
		}
		epoch, match, rest, err := SplitSealedBody(h.Type, body)
		if err != nil {
			if !errors.Is(err, ErrShort) {
				t.Fatalf("SplitSealedBody: %v, want ErrShort", err)
			}
			return
		}
		head := Header{Type: h.Type, Session: header.Session, Match: header.Match, Player: header.Player, Seq: h.PN}
		if h.Type == TypeStart {
			head.Match = match
		}
		parse, ok := parsers[h.Type]
		if !ok {
			if _, err := ParseHeader(clearOf(head, rest)); err == nil {
				t.Fatalf("type %v has no parser, but ParseHeader takes it", h.Type)
			}
			return
		}
		p, err := parse(clearOf(head, rest))
		if err != nil {
			checkKnownError(t, err)
			return
		}
		re, _ := newPair(t, ServerToClient, openPacketConn)
		re.next = h.PN - 1
		again, err := re.AppendPacket(nil, p, epoch)
		if err != nil || !bytes.Equal(again, b) {
			t.Fatalf("opened %+v from %x, which sealed again is %x (%v)", p, b, again, err)
		}
	})
}
