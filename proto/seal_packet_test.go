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

// rawPacket is a packet of any type with any body, for the sealed
// layer's limits.
type rawPacket struct {
	Header
	typ  Type
	body []byte
}

func (p *rawPacket) PacketType() Type           { return p.typ }
func (p *rawPacket) AppendBody(b []byte) []byte { return append(b, p.body...) }

// clearOf rebuilds the clear datagram an opened packet stands for, from
// the header its receiver knows and the body after the prefix: what the
// packet's own Parse function takes.
func clearOf(h Header, rest []byte) []byte { return append(h.AppendHeader(nil), rest...) }

// TestAppendPacketRoundTrip takes every sealed packet type through both
// ends of the sealed layer: the packet seals into a datagram of the
// documented size, opens with the peer's Opener, and SplitSealedBody
// gives the epoch, a Start's match, and the very body of its clear form,
// which its parser turns back into the packet.
func TestAppendPacketRoundTrip(t *testing.T) {
	var names []string
	for _, c := range sealedCases() {
		names = append(names, c.name)
	}
	want := []string{"Start", "Input", "Ack", "State", "StateDelta", "Leave", "Reject", "Request", "PathChallenge", "PathResponse", "Chat", "ChatLine", "ChatAck", "Redirect", "LadderQuery", "LadderPage", "Rated"}
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
				typ := c.pkt.PacketType()
				if got := Type(c.pkt.Append(nil)[3]); got != typ {
					t.Fatalf("%s: PacketType %v, Append writes %v", c.name, typ, got)
				}
				prefix := 1 // the epoch
				if typ == TypeStart {
					prefix = 5 // the epoch and the match
				}
				sealed, err := s.AppendPacket(nil, c.pkt, epoch)
				if err != nil {
					t.Fatalf("%s: AppendPacket: %v", c.name, err)
				}
				if want := c.pkt.Len() - HeaderLen + SealedHeaderLen + prefix + SealTagLen; len(sealed) != want {
					t.Errorf("%s: sealed %d bytes from a %d-byte packet, want %d", c.name, len(sealed), c.pkt.Len(), want)
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
				if orig := c.pkt.Append(nil); !bytes.Equal(rest, orig[HeaderLen:]) {
					t.Errorf("%s: opened body\n %x\nwant\n %x", c.name, rest, orig[HeaderLen:])
				}
				got, err := c.parse(clearOf(Header{Type: oh.Type, Session: h.Session, Match: h.Match, Player: h.Player, Seq: oh.PN}, rest))
				if err != nil {
					t.Fatalf("%s: parse of the opened body: %v", c.name, err)
				}
				if !reflect.DeepEqual(got, c.pkt) {
					t.Errorf("%s: parsed\n %+v\nwant\n %+v", c.name, got, c.pkt)
				}
			}
		}
	}
}

// TestAppendPacketVector pins AppendPacket's layout with vectors computed
// apart from this code, from the design alone, with Python's cryptography
// 48: ChaCha20Poly1305(key).encrypt(direction u32 || pn u64, epoch ||
// (Start: match u32) || the golden datagram after its 21-byte header,
// 5454 07 type|0x80 conn pn).
func TestAppendPacketVector(t *testing.T) {
	tests := []struct {
		name   string
		golden string
		parse  func([]byte) (packet, error)
		dir    Direction // key: testKeys' of the direction
		epoch  uint8
		want   string
	}{
		{"Leave", goldenLeave, parseAs(ParseLeave), ClientToServer, 7,
			"54540a8901020304000000016e5d51e3e804727083339b3458e99511ef79"},
		{"Start", goldenStart, parseAs(ParseStart), ServerToClient, 1,
			"54540a84010203040000000187a7e02d8395321225eec19ff13ea7d5bf32468c4963dd451948088abf7c6eeebe1f1d25" +
				"f6a92f4bc5a92ca2b27666a99c3ee08bfcf49282b34d25c27d815c765beedddf471c6252126e34f638b3bcab569063" +
				"70521a7c942a"},
		{"Redirect", goldenRedirect, parseAs(ParseRedirect), ServerToClient, 0,
			"54540a940102030400000001860292ee55802e73955f7174458b137e5966a2daab333d17c09cc84c0bc8da5a02a3a199" +
				"421d9bffbad736b8df1307c62aa05a2f2d7e6348d5f868d7156214b0"},
	}
	for _, tt := range tests {
		s, o := newPair(t, tt.dir, 0x01020304)
		p, err := tt.parse(mustHex(t, tt.golden))
		if err != nil {
			t.Fatalf("%s: golden: %v", tt.name, err)
		}
		got, err := s.AppendPacket(nil, p, tt.epoch)
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

// TestAppendPacketAllocs: into a buffer with room AppendPacket allocates
// nothing and writes in place; into one without, it allocates, and the
// result opens all the same.
func TestAppendPacketAllocs(t *testing.T) {
	s, o := newPair(t, ServerToClient, 9)
	p := testState()
	clear := p.Append(nil)
	buf := make([]byte, 0, MaxDatagram)
	var sealed []byte
	seal := func(b []byte) {
		var err error
		if sealed, err = s.AppendPacket(b, p, 3); err != nil {
			panic(err)
		}
	}
	if n := testing.AllocsPerRun(100, func() { seal(buf[:0]) }); n != 0 {
		t.Errorf("AppendPacket with room allocates %v times, want 0", n)
	}
	if &sealed[0] != &buf[:1][0] {
		t.Error("AppendPacket with room did not write into the buffer")
	}
	checkOpensTo(t, o, sealed, clear)
	if n := testing.AllocsPerRun(100, func() { seal(nil) }); n < 1 {
		t.Errorf("AppendPacket without room allocates %v times, want at least 1", n)
	}
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

func TestAppendPacketErrors(t *testing.T) {
	s, o := newPair(t, ClientToServer, 1)
	// The largest bodies: a Start's prefix is 4 bytes longer.
	for _, tt := range []struct {
		t    Type
		body int // the largest body that seals
	}{{TypeInput, MaxSealedBody - 1}, {TypeStart, MaxSealedBody - 5}} {
		for _, extra := range []int{0, 1} {
			dst := []byte("kept")
			d, err := s.AppendPacket(dst, &rawPacket{Header: testHeader(tt.t), typ: tt.t, body: make([]byte, tt.body+extra)}, 1)
			switch {
			case extra == 0 && (err != nil || len(d) != len(dst)+MaxDatagram):
				t.Errorf("%v with a %d-byte body: %d bytes, %v; want %d bytes", tt.t, tt.body, len(d)-len(dst), err, MaxDatagram)
			case extra == 1 && (!errors.Is(err, ErrSealedBody) || string(d) != "kept"):
				t.Errorf("%v with a %d-byte body: %q, %v; want dst as it was and ErrSealedBody", tt.t, tt.body+1, d, err)
			}
		}
	}
	sent := s.Sent()
	if sent != 2 {
		t.Errorf("after 2 sealed datagrams and 2 errors: Sent() = %d, want 2", sent)
	}
	leave, err := ParseLeave(mustHex(t, goldenLeave))
	if err != nil {
		t.Fatal(err)
	}
	s.next = ^uint32(0) - 1
	last, err := s.AppendPacket(nil, &leave, 1)
	if err != nil {
		t.Fatalf("the last packet number: %v", err)
	}
	if _, err := s.AppendPacket(nil, &leave, 1); !errors.Is(err, ErrPNExhausted) {
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

// BenchmarkSealState2Tanks seals a 2-tank State (the fixtures'
// testState) into a reused buffer, as a server does for each client:
// the body's encoding included.
func BenchmarkSealState2Tanks(b *testing.B) {
	s, _ := newPair(b, ServerToClient, 1)
	p := testState()
	buf := make([]byte, 0, MaxDatagram)
	b.SetBytes(int64(p.Len()))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.AppendPacket(buf[:0], p, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpenState2Tanks opens the sealed 2-tank State into a reused
// buffer and splits off its prefix, as a client does before it decodes
// the body (BenchmarkParseState measures that). The Opener's replay
// window is reset before each Open (a field of this package), so one
// datagram serves every iteration.
func BenchmarkOpenState2Tanks(b *testing.B) {
	s, o := newPair(b, ServerToClient, 1)
	p := testState()
	sealed, err := s.AppendPacket(nil, p, 1)
	if err != nil {
		b.Fatal(err)
	}
	body := make([]byte, 0, MaxDatagram)
	b.SetBytes(int64(len(sealed)))
	b.ReportAllocs()
	for b.Loop() {
		o.window = replayWindow{}
		h, out, err := o.Open(body[:0], sealed)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, _, err := SplitSealedBody(h.Type, out); err != nil {
			b.Fatal(err)
		}
	}
}
