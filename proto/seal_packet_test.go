package proto

import (
	"bytes"
	"encoding/hex"
	"errors"
	"reflect"
	"testing"
)

// sealedCases returns the fixture of every packet type that travels
// sealed, and of Reject, which does when it answers a Request. Like
// codecCases it builds new fixtures on every call.
func sealedCases() []codecCase {
	var out []codecCase
	for _, c := range codecCases() {
		if t := Type(c.pkt.Append(nil)[3]); t.Sealed() || t == TypeReject {
			out = append(out, c)
		}
	}
	return out
}

// TestSealPacketRoundTrip takes every sealed packet type through both
// ends of the sealed layer: its clear datagram seals in place into a
// datagram of the documented size, opens with the peer's Opener, and
// SplitSealedBody and AppendClear rebuild, from the epoch's header with
// Seq = pn, the clear datagram its parser returns the packet from.
func TestSealPacketRoundTrip(t *testing.T) {
	var names []string
	for _, c := range sealedCases() {
		names = append(names, c.name)
	}
	want := []string{"Start", "Input", "Ack", "State", "Leave", "Reject", "Request", "PathChallenge", "PathResponse"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("sealed fixtures %v, want %v", names, want)
	}
	for _, dir := range []Direction{ClientToServer, ServerToClient} {
		s, o := newPair(t, dir, 0x01020304)
		for i := range names {
			for _, epoch := range []uint8{0, 1, 255} {
				c := sealedCases()[i]
				h := c.pkt.Head()
				h.Seq = s.Sent() + 1 // the clear header's seq is the pn its datagram carries
				clear := c.pkt.Append(make([]byte, 0, MaxDatagram))
				typ := Type(clear[3])
				prefix := 1 // the epoch
				if typ == TypeStart {
					prefix = 5 // the epoch and the match
				}
				sealed, err := s.SealPacket(clear, epoch)
				if err != nil {
					t.Fatalf("%s: SealPacket: %v", c.name, err)
				}
				if want := len(clear) - HeaderLen + SealedHeaderLen + prefix + SealTagLen; len(sealed) != want {
					t.Errorf("%s: sealed %d bytes from %d, want %d", c.name, len(sealed), len(clear), want)
				}
				if &sealed[0] != &clear[0] {
					t.Errorf("%s: not sealed in place although the buffer had room", c.name)
				}
				if _, err := ParseHeader(sealed); !errors.Is(err, ErrType) {
					t.Errorf("%s: ParseHeader of the sealed datagram: %v, want ErrType", c.name, err)
				}
				sh, ok := ParseSealedHeader(sealed)
				if wantHead := (SealedHeader{Type: typ, Conn: 0x01020304, PN: h.Seq}); !ok || sh != wantHead {
					t.Errorf("%s: ParseSealedHeader = %+v, %v; want %+v", c.name, sh, ok, wantHead)
				}
				oh, body, err := o.Open(nil, sealed)
				if err != nil {
					t.Fatalf("%s: Open: %v", c.name, err)
				}
				gotEpoch, match, rest, err := SplitSealedBody(oh.Type, body)
				if err != nil {
					t.Fatalf("%s: SplitSealedBody: %v", c.name, err)
				}
				if gotEpoch != epoch {
					t.Errorf("%s: epoch %d, want %d", c.name, gotEpoch, epoch)
				}
				wantMatch := uint32(0)
				if typ == TypeStart {
					wantMatch = h.Match // only a Start carries its match
				}
				if match != wantMatch {
					t.Errorf("%s: match %#x, want %#x", c.name, match, wantMatch)
				}
				back := AppendClear(nil, Header{Type: oh.Type, Session: h.Session, Match: h.Match, Player: h.Player, Seq: oh.PN}, rest)
				if orig := c.pkt.Append(nil); !bytes.Equal(back, orig) {
					t.Errorf("%s: rebuilt\n %x\nwant\n %x", c.name, back, orig)
				}
				got, err := c.parse(back)
				if err != nil {
					t.Fatalf("%s: parse of the rebuilt datagram: %v", c.name, err)
				}
				if !reflect.DeepEqual(got, c.pkt) {
					t.Errorf("%s: parsed\n %+v\nwant\n %+v", c.name, got, c.pkt)
				}
			}
		}
	}
}

// TestSealPacketVector pins SealPacket's layout with vectors computed
// apart from this code, from the design alone, with Python's cryptography
// 48: ChaCha20Poly1305(key).encrypt(direction u32 || pn u64, epoch ||
// (Start: match u32) || the golden datagram after its 21-byte header,
// 5454 04 type|0x80 conn pn).
func TestSealPacketVector(t *testing.T) {
	tests := []struct {
		name   string
		golden string
		dir    Direction // key: testKeys' of the direction
		epoch  uint8
		want   string
	}{
		{"Leave", goldenLeave, ClientToServer, 7,
			"5454048901020304000000016e5dc0c347bda10f34da0bdb8da4f88a9b93"},
		{"Start", goldenStart, ServerToClient, 1,
			"54540484010203040000000187a7e02d8395321225eec19ff13ea7d5bf32468c4963dd451948088abf7c6eeebe1f1d25" +
				"f6a92f4bc5a92ca2b27666a99c3ee08bfcf49282b34d25c27d815c765beedddf471c6252123fcd38a322268617de8d39" +
				"9736b4d826"},
	}
	for _, tt := range tests {
		s, o := newPair(t, tt.dir, 0x01020304)
		got, err := s.SealPacket(mustHex(t, tt.golden), tt.epoch)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if h := hex.EncodeToString(got); h != tt.want {
			t.Errorf("%s: sealed\n %s\nwant\n %s", tt.name, h, tt.want)
		}
		if _, _, err := o.Open(nil, got); err != nil {
			t.Errorf("%s: the vector does not open: %v", tt.name, err)
		}
	}
}

// TestSealPacketAllocs: with spare capacity SealPacket seals in place and
// allocates nothing; without, it allocates the sealed datagram, and the
// result opens all the same.
func TestSealPacketAllocs(t *testing.T) {
	s, o := newPair(t, ServerToClient, 9)
	clear := testState().Append(nil)
	buf := make([]byte, 0, MaxDatagram)
	var sealed []byte
	seal := func(b []byte) {
		var err error
		if sealed, err = s.SealPacket(b, 3); err != nil {
			panic(err)
		}
	}
	if n := testing.AllocsPerRun(100, func() { seal(append(buf[:0], clear...)) }); n != 0 {
		t.Errorf("SealPacket with spare capacity allocates %v times, want 0", n)
	}
	if &sealed[0] != &buf[:1][0] {
		t.Error("SealPacket with spare capacity did not seal in place")
	}
	checkOpensTo(t, o, sealed, clear)

	// Exactly as long as the clear datagram: AllocsPerRun calls its
	// function 101 times; each gets its own copy.
	tight := make([][]byte, 101)
	for i := range tight {
		tight[i] = make([]byte, len(clear))
		copy(tight[i], clear)
	}
	next := 0
	n := testing.AllocsPerRun(100, func() {
		seal(tight[next])
		next++
	})
	if n < 1 {
		t.Errorf("SealPacket without spare capacity allocates %v times, want at least 1", n)
	}
	t.Logf("SealPacket without spare capacity: %v allocations", n)
	checkOpensTo(t, o, sealed, clear)
}

// checkOpensTo opens sealed and requires that it stands for the clear
// datagram clear, whose header seq is ignored.
func checkOpensTo(t *testing.T, o *Opener, sealed, clear []byte) {
	t.Helper()
	h, body, err := o.Open(nil, sealed)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	_, _, rest, err := SplitSealedBody(h.Type, body)
	if err != nil {
		t.Fatalf("SplitSealedBody: %v", err)
	}
	if h.Type != Type(clear[3]) || !bytes.Equal(rest, clear[HeaderLen:]) {
		t.Errorf("opened type %v body %x, want %v %x", h.Type, rest, Type(clear[3]), clear[HeaderLen:])
	}
}

func TestSealPacketErrors(t *testing.T) {
	s, o := newPair(t, ClientToServer, 1)
	if _, err := s.SealPacket(mustHex(t, goldenLeave)[:HeaderLen-1], 1); !errors.Is(err, ErrSealedShort) {
		t.Errorf("a datagram shorter than a header: %v, want ErrSealedShort", err)
	}
	// The largest bodies: a Start's prefix is 4 bytes longer.
	for _, tt := range []struct {
		t    Type
		body int // the largest clear body that seals
	}{{TypeInput, MaxSealedBody - 1}, {TypeStart, MaxSealedBody - 5}} {
		for _, extra := range []int{0, 1} {
			h := testHeader(tt.t)
			b := append(h.AppendHeader(nil), make([]byte, tt.body+extra)...)
			d, err := s.SealPacket(b, 1)
			switch {
			case extra == 0 && (err != nil || len(d) != MaxDatagram):
				t.Errorf("%v with a %d-byte body: %d bytes, %v; want %d bytes", tt.t, tt.body, len(d), err, MaxDatagram)
			case extra == 1 && !errors.Is(err, ErrSealedBody):
				t.Errorf("%v with a %d-byte body: %v, want ErrSealedBody", tt.t, tt.body+1, err)
			}
		}
	}
	sent := s.Sent()
	if sent != 2 {
		t.Errorf("after 2 sealed datagrams and 3 errors: Sent() = %d, want 2", sent)
	}
	s.next = ^uint32(0) - 1
	last, err := s.SealPacket(mustHex(t, goldenLeave), 1)
	if err != nil {
		t.Fatalf("the last packet number: %v", err)
	}
	if _, err := s.SealPacket(mustHex(t, goldenLeave), 1); !errors.Is(err, ErrPNExhausted) {
		t.Errorf("after packet number %#x: %v, want ErrPNExhausted", ^uint32(0), err)
	}
	if h, _, err := o.Open(nil, last); err != nil || h.PN != ^uint32(0) {
		t.Errorf("the last packet number: opened %+v, %v", h, err)
	}
}

func TestSplitSealedBody(t *testing.T) {
	tests := []struct {
		t     Type
		body  string
		epoch uint8
		match uint32
		rest  string
		err   error
	}{
		{TypeStart, "", 0, 0, "", ErrShort},
		{TypeStart, "01a1b2c3", 0, 0, "", ErrShort},
		{TypeStart, "01a1b2c3d4", 1, 0xa1b2c3d4, "", nil},
		{TypeStart, "ffa1b2c3d4beef", 255, 0xa1b2c3d4, "beef", nil},
		{TypeInput, "", 0, 0, "", ErrShort},
		{TypeInput, "07", 7, 0, "", nil},
		{TypeState, "07a1b2c3d4", 7, 0, "a1b2c3d4", nil},
		{TypeRequest, "00beef", 0, 0, "beef", nil},
	}
	for _, tt := range tests {
		epoch, match, rest, err := SplitSealedBody(tt.t, mustHex(t, tt.body))
		if !errors.Is(err, tt.err) || (tt.err == nil && err != nil) {
			t.Errorf("%v %s: error %v, want %v", tt.t, tt.body, err, tt.err)
			continue
		}
		if err == nil && (epoch != tt.epoch || match != tt.match || hex.EncodeToString(rest) != tt.rest) {
			t.Errorf("%v %s: epoch %d match %#x rest %x; want %d %#x %s", tt.t, tt.body, epoch, match, rest, tt.epoch, tt.match, tt.rest)
		}
	}
}

// BenchmarkSealState2Tanks seals the clear datagram of a 2-tank State (the
// fixtures' testState) in place, as a server does for each client; the
// copy into the buffer stands for the State's Append.
func BenchmarkSealState2Tanks(b *testing.B) {
	s, _ := newPair(b, ServerToClient, 1)
	clear := testState().Append(nil)
	buf := make([]byte, 0, MaxDatagram)
	b.SetBytes(int64(len(clear)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.SealPacket(append(buf[:0], clear...), 1); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpenState2Tanks opens the sealed 2-tank State into a reused
// buffer and rebuilds its clear datagram, as a client does before
// ParseState. The Opener's replay window is reset before each Open (a
// field of this package), so one datagram serves every iteration.
func BenchmarkOpenState2Tanks(b *testing.B) {
	s, o := newPair(b, ServerToClient, 1)
	p := testState()
	sealed, err := s.SealPacket(p.Append(nil), 1)
	if err != nil {
		b.Fatal(err)
	}
	body := make([]byte, 0, MaxDatagram)
	clear := make([]byte, 0, MaxDatagram)
	b.SetBytes(int64(len(sealed)))
	b.ReportAllocs()
	for b.Loop() {
		o.window = replayWindow{}
		h, out, err := o.Open(body[:0], sealed)
		if err != nil {
			b.Fatal(err)
		}
		_, _, rest, err := SplitSealedBody(h.Type, out)
		if err != nil {
			b.Fatal(err)
		}
		clear = AppendClear(clear[:0], Header{Type: h.Type, Session: p.Session, Match: p.Match, Player: p.Player, Seq: h.PN}, rest)
	}
	if _, err := ParseHeader(clear); err != nil {
		b.Fatal(err)
	}
}
