package proto

import (
	"bytes"
	"encoding/hex"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func mustHex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("bad hex literal: %v", err)
	}
	return b
}

func TestGoldenBytes(t *testing.T) {
	for _, c := range codecCases() {
		t.Run(c.name, func(t *testing.T) {
			want := mustHex(t, c.golden)
			if got := c.pkt.Append(nil); !bytes.Equal(got, want) {
				t.Errorf("Append:\n got %x\nwant %x", got, want)
			}
			got, err := c.parse(want)
			if err != nil {
				t.Fatalf("parse golden: %v", err)
			}
			if !reflect.DeepEqual(got, c.pkt) {
				t.Errorf("parse golden:\n got %+v\nwant %+v", got, c.pkt)
			}
		})
	}
}

func TestRoundTripAndLen(t *testing.T) {
	prefix := []byte("prefix")
	for _, c := range codecCases() {
		t.Run(c.name, func(t *testing.T) {
			b := c.pkt.Append(append([]byte(nil), prefix...))
			if !bytes.HasPrefix(b, prefix) {
				t.Fatalf("Append overwrote the bytes before it: %x", b)
			}
			b = b[len(prefix):]
			if len(b) != c.pkt.Len() {
				t.Errorf("Append wrote %d bytes, Len() = %d", len(b), c.pkt.Len())
			}
			if len(b) > MaxDatagram {
				t.Errorf("encoded %d bytes, max %d", len(b), MaxDatagram)
			}
			got, err := c.parse(b)
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			if !reflect.DeepEqual(got, c.pkt) {
				t.Errorf("round trip:\n got %+v\nwant %+v", got, c.pkt)
			}
			if again := got.Append(nil); !bytes.Equal(again, b) {
				t.Errorf("re-encode:\n got %x\nwant %x", again, b)
			}
		})
	}
}

func TestAppendDoesNotAllocate(t *testing.T) {
	for _, c := range codecCases() {
		buf := make([]byte, 0, MaxDatagram)
		allocs := testing.AllocsPerRun(100, func() { buf = c.pkt.Append(buf[:0]) })
		if allocs != 0 {
			t.Errorf("%s: Append allocates %v times with room in the buffer, want 0", c.name, allocs)
		}
	}
}

func TestTruncatedPrefixes(t *testing.T) {
	for _, c := range codecCases() {
		t.Run(c.name, func(t *testing.T) {
			b := c.pkt.Append(nil)
			for n := 0; n < len(b); n++ {
				_, err := c.parse(b[:n:n])
				if !errors.Is(err, ErrShort) {
					t.Errorf("parse of the first %d of %d bytes: got error %v, want ErrShort", n, len(b), err)
				}
			}
		})
	}
}

func TestTrailingBytes(t *testing.T) {
	for _, c := range codecCases() {
		for _, extra := range [][]byte{{0}, {0xff}, bytes.Repeat([]byte{0}, 100)} {
			b := append(c.pkt.Append(nil), extra...)
			if _, err := c.parse(b); !errors.Is(err, ErrTrailing) {
				t.Errorf("%s + %d trailing bytes: got error %v, want ErrTrailing", c.name, len(extra), err)
			}
		}
	}
}

func TestOversize(t *testing.T) {
	for _, c := range codecCases() {
		b := c.pkt.Append(nil)
		b = append(b, make([]byte, MaxDatagram+1-len(b))...)
		if _, err := c.parse(b); !errors.Is(err, ErrOversize) {
			t.Errorf("%s padded to %d bytes: got error %v, want ErrOversize", c.name, len(b), err)
		}
	}
	if _, err := ParseHeader(make([]byte, MaxDatagram+1)); !errors.Is(err, ErrOversize) {
		t.Errorf("ParseHeader of %d bytes: got %v, want ErrOversize", MaxDatagram+1, err)
	}
}

func TestWrongType(t *testing.T) {
	cases := codecCases()
	for _, parser := range cases {
		for _, input := range cases {
			b := input.pkt.Append(nil)
			got, err := parser.parse(b)
			switch same := sameLayout(parser.name, input.name); {
			case same && err != nil:
				t.Errorf("parser of %s given a %s: %v, want no error", parser.name, input.name, err)
			case same && !bytes.Equal(got.Append(nil), b):
				t.Errorf("parser of %s given a %s: re-encodes as %x, want %x", parser.name, input.name, got.Append(nil), b)
			case !same && !errors.Is(err, ErrWrongType):
				t.Errorf("parser of %s given a %s: got error %v, want ErrWrongType", parser.name, input.name, err)
			}
		}
	}
}

// TestAppendWritesOwnType: a packet's Append writes its own type whatever
// Header.Type holds, so a zero Header still makes a parseable datagram.
func TestAppendWritesOwnType(t *testing.T) {
	for _, c := range codecCases() {
		h, _ := ParseHeader(c.pkt.Append(nil))
		want := h.Type
		b := c.pkt.Append(nil)
		b[3] = 0
		if _, err := ParseHeader(b); !errors.Is(err, ErrType) {
			t.Fatalf("%s with type 0: got %v, want ErrType", c.name, err)
		}
		c.pkt.Head().Type = 0 // codecCases builds new fixtures on every call
		if got := Type(c.pkt.Append(nil)[3]); got != want {
			t.Errorf("%s with Header.Type cleared: Append wrote type %v, want %v", c.name, got, want)
		}
	}
}

func TestParseHeader(t *testing.T) {
	good := mustHex(t, goldenLeave)
	with := func(off int, v byte) []byte {
		b := bytes.Clone(good)
		b[off] = v
		return b
	}
	tests := []struct {
		name string
		b    []byte
		want error
	}{
		{"empty", nil, ErrShort},
		{"20 bytes", good[:20], ErrShort},
		{"oversize", make([]byte, MaxDatagram+1), ErrOversize},
		{"bad magic hi", with(0, 0x55), ErrMagic},
		{"bad magic lo", with(1, 0x00), ErrMagic},
		{"version 0", with(2, 0), ErrVersion},
		{"version 1", with(2, 1), ErrVersion},
		{"version 2", with(2, 2), ErrVersion},
		{"version 3", with(2, 3), ErrVersion},
		{"version 4", with(2, 4), ErrVersion},
		{"version 5", with(2, 5), ErrVersion},
		{"version 6", with(2, 6), ErrVersion},
		{"version 7", with(2, 7), ErrVersion},
		{"version 8", with(2, 8), ErrVersion},
		{"version 9", with(2, 9), ErrVersion},
		{"version 11", with(2, 11), ErrVersion},
		{"type 8 (unassigned)", with(3, 8), ErrType},
		{"type 0", with(3, 0), ErrType},
		{"type 24", with(3, 24), ErrType},
		{"type 0x89 (a sealed Leave's)", with(3, 0x89), ErrType},
		{"type 255", with(3, 255), ErrType},
		{"header only", good[:HeaderLen], nil},
		{"whole leave", good, nil},
		{"magic checked before version", with(0, 0), ErrMagic},
	}
	for _, tt := range tests {
		h, err := ParseHeader(tt.b)
		if !errors.Is(err, tt.want) || (tt.want == nil && err != nil) {
			t.Errorf("%s: got error %v, want %v", tt.name, err, tt.want)
		}
		if err == nil {
			if want := testHeader(TypeLeave); h != want {
				t.Errorf("%s: got %+v, want %+v", tt.name, h, want)
			}
		}
	}
}

func TestHeaderAppendRoundTrip(t *testing.T) {
	h := testHeader(TypeState)
	b := h.AppendHeader(nil)
	if len(b) != HeaderLen {
		t.Fatalf("AppendHeader wrote %d bytes, want %d", len(b), HeaderLen)
	}
	got, err := ParseHeader(b)
	if err != nil || got != h {
		t.Errorf("ParseHeader(AppendHeader(h)) = %+v, %v; want %+v", got, err, h)
	}
}

func TestTypeString(t *testing.T) {
	tests := []struct {
		t    Type
		want string
	}{
		{TypeHello, "Hello"}, {TypeChallenge, "Challenge"}, {TypeJoin, "Join"}, {TypeStart, "Start"},
		{TypeInput, "Input"}, {TypeAck, "Ack"}, {TypeState, "State"}, {8, "Type(8)"},
		{TypeLeave, "Leave"}, {TypeReject, "Reject"}, {TypeListRooms, "ListRooms"}, {TypeRoomList, "RoomList"},
		{TypeAccept, "Accept"}, {TypeRequest, "Request"}, {TypePathChallenge, "PathChallenge"},
		{TypePathResponse, "PathResponse"}, {TypeChat, "Chat"}, {TypeChatLine, "ChatLine"}, {TypeChatAck, "ChatAck"},
		{TypeRedirect, "Redirect"}, {TypeRated, "Rated"}, {0, "Type(0)"}, {24, "Type(24)"}, {0x85, "Type(133)"},
	}
	for _, tt := range tests {
		if got := tt.t.String(); got != tt.want {
			t.Errorf("Type(%d).String() = %q, want %q", uint8(tt.t), got, tt.want)
		}
	}
	for _, c := range codecCases() {
		h, err := ParseHeader(c.pkt.Append(nil))
		if err != nil || h.Type.String() != strings.TrimSuffix(c.name, "Delta") { // StateDelta is a State
			t.Errorf("fixture %s encodes as type %v (%v)", c.name, h.Type, err)
		}
	}
}

// TestTypeSealed: which types travel sealed, which in the clear, as the
// design of version 4 lists them (with version 6's chat and version 7's
// Redirect). Reject may travel either way.
func TestTypeSealed(t *testing.T) {
	tests := []struct {
		t             Type
		sealed, clear bool
	}{
		{0, false, false},
		{TypeHello, false, true},
		{TypeChallenge, false, true},
		{TypeJoin, false, true},
		{TypeStart, true, false},
		{TypeInput, true, false},
		{TypeAck, true, false},
		{TypeState, true, false},
		{8, false, false},
		{TypeLeave, true, false},
		{TypeReject, false, true},
		{TypeListRooms, false, true},
		{TypeRoomList, false, true},
		{TypeAccept, false, true},
		{TypeRequest, true, false},
		{TypePathChallenge, true, false},
		{TypePathResponse, true, false},
		{TypeChat, true, false},
		{TypeChatLine, true, false},
		{TypeChatAck, true, false},
		{TypeRedirect, true, false},
		{TypeLadderQuery, true, false},
		{TypeLadderPage, true, false},
		{TypeRated, true, false},
		{24, false, false},
		{0x85, false, false},
		{255, false, false},
	}
	for _, tt := range tests {
		if got := tt.t.Sealed(); got != tt.sealed {
			t.Errorf("%v.Sealed() = %v, want %v", tt.t, got, tt.sealed)
		}
		if got := tt.t.Clear(); got != tt.clear {
			t.Errorf("%v.Clear() = %v, want %v", tt.t, got, tt.clear)
		}
	}
}

func TestReasonStrings(t *testing.T) {
	for r := LeaveQuit; r <= LeaveIdle; r++ {
		if s := r.String(); s == "" || s[0] == 'L' {
			t.Errorf("LeaveReason(%d).String() = %q, want a description", r, s)
		}
	}
	for r := RejectVersion; r <= RejectBusy; r++ {
		if s := r.String(); s == "" || s[0] == 'R' {
			t.Errorf("RejectReason(%d).String() = %q, want a description", r, s)
		}
	}
	if got, want := LeaveReason(0).String(), "LeaveReason(0)"; got != want {
		t.Errorf("LeaveReason(0).String() = %q, want %q", got, want)
	}
	if got, want := RejectReason(200).String(), "RejectReason(200)"; got != want {
		t.Errorf("RejectReason(200).String() = %q, want %q", got, want)
	}
}
