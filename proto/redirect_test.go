package proto

import (
	"bytes"
	"errors"
	"net/netip"
	"strings"
	"testing"
)

// TestRedirectAddr: a Redirect's address travels as family 4 or 6 with
// its port, an IPv4-mapped IPv6 address as family 4; one that is
// unspecified, multicast or not valid is refused, and so is family 6
// with an IPv4-mapped address (the one value family 4 also spells).
func TestRedirectAddr(t *testing.T) {
	tests := []struct {
		addr   string
		family byte
		want   string // the address parsed; "" when the parse fails
	}{
		{"192.0.2.20:7777", 4, "192.0.2.20:7777"},
		{"[::ffff:192.0.2.20]:7777", 4, "192.0.2.20:7777"},
		{"[2001:db8::20]:7777", 6, "[2001:db8::20]:7777"},
		{"[::1]:1", 6, "[::1]:1"},
		{"127.0.0.1:65535", 4, "127.0.0.1:65535"},
		{"[fe80::1]:7777", 6, "[fe80::1]:7777"},
		{"0.0.0.0:7777", 4, ""},
		{"[::]:7777", 6, ""},
		{"[::ffff:0.0.0.0]:7777", 4, ""},
		{"224.0.0.1:7777", 4, ""},
		{"[ff02::1]:7777", 6, ""},
		{"[ff0e::1]:7777", 6, ""},
		{"192.0.2.20:0", 4, ""},
		{"[2001:db8::20]:0", 6, ""},
	}
	for _, tt := range tests {
		p := testRedirect()
		p.Addr = netip.MustParseAddrPort(tt.addr)
		b := p.Append(nil)
		if len(b) != p.Len() {
			t.Errorf("%s: Append wrote %d bytes, Len() = %d", tt.addr, len(b), p.Len())
		}
		if b[offRedirectFamily] != tt.family {
			t.Errorf("%s: family %d, want %d", tt.addr, b[offRedirectFamily], tt.family)
		}
		got, err := ParseRedirect(b)
		switch {
		case tt.want == "" && !errors.Is(err, ErrRange):
			t.Errorf("%s: got %v, %v; want ErrRange", tt.addr, got.Addr, err)
		case tt.want != "" && err != nil:
			t.Errorf("%s: %v", tt.addr, err)
		case tt.want != "" && got.Addr.String() != tt.want:
			t.Errorf("%s: parsed as %v, want %s", tt.addr, got.Addr, tt.want)
		}
	}

	// The zero AddrPort is written as the IPv6 unspecified address, port 0.
	p := testRedirect()
	p.Addr = netip.AddrPort{}
	if _, err := ParseRedirect(p.Append(nil)); !errors.Is(err, ErrRange) {
		t.Errorf("a zero Addr: got %v, want ErrRange", err)
	}

	// Family 6 holding an IPv4-mapped address is refused: family 4 is its
	// one encoding.
	p.Addr = netip.MustParseAddrPort("[2001:db8::20]:7777")
	b := p.Append(nil)
	mapped := netip.MustParseAddr("::ffff:192.0.2.20").As16()
	copy(b[offRedirectFamily+1:], mapped[:])
	if _, err := ParseRedirect(b); !errors.Is(err, ErrRange) {
		t.Errorf("family 6, ::ffff:192.0.2.20: got %v, want ErrRange", err)
	}
}

// TestRedirectAppendUnmaps: a Redirect to an IPv4-mapped IPv6 address is
// the golden one, to its IPv4 form, byte for byte.
func TestRedirectAppendUnmaps(t *testing.T) {
	p := testRedirect()
	p.Addr = netip.AddrPortFrom(netip.AddrFrom16(p.Addr.Addr().As16()), p.Addr.Port())
	if !p.Addr.Addr().Is4In6() {
		t.Fatalf("%v is not IPv4-mapped", p.Addr)
	}
	if got, want := p.Append(nil), mustHex(t, goldenRedirect); !bytes.Equal(got, want) {
		t.Errorf("Append:\n got %x\nwant %x", got, want)
	}
	if p.Len() != len(goldenRedirect)/2 {
		t.Errorf("Len() = %d, want %d", p.Len(), len(goldenRedirect)/2)
	}
}

// TestRedirectRoomLikeRequest: a Redirect takes the room settings a
// Request takes, kind by kind, but for the lobby, which no Redirect
// names, and a room it must name for every kind but RoomQuick.
func TestRedirectRoomLikeRequest(t *testing.T) {
	for kind := RoomQuick; kind <= RoomLobby+1; kind++ {
		for _, room := range []string{"", "den"} {
			for seats := uint8(0); seats <= 9; seats++ {
				for bots := uint8(0); bots <= 9; bots++ {
					for _, private := range []bool{false, true} {
						q := &Request{Kind: kind, Room: room, Seats: seats, Bots: bots, Private: private, Spectate: kind == RoomLobby}
						_, qerr := ParseRequest(q.Append(nil))
						d := testRedirect()
						d.Kind, d.Room, d.Seats, d.Bots, d.Private = kind, room, seats, bots, private
						_, derr := ParseRedirect(d.Append(nil))
						wantOK := qerr == nil && kind != RoomLobby && (kind == RoomQuick || room != "")
						if (derr == nil) != wantOK || (derr != nil && !errors.Is(derr, ErrRange)) {
							t.Fatalf("kind %d room %q seats %d bots %d private %v: Redirect %v, Request %v",
								kind, room, seats, bots, private, derr, qerr)
						}
					}
				}
			}
		}
	}
}

// TestRequestRedirectedFlag: Redirected is flag bit 2, alone among the
// flags, and the lobby does not take it.
func TestRequestRedirectedFlag(t *testing.T) {
	q := Request{Kind: RoomNamed, Room: "den", Redirected: true}
	b := q.Append(nil)
	if got := b[offRequestFlags]; got != 1<<2 {
		t.Errorf("flags %#02x, want 0x04", got)
	}
	got, err := ParseRequest(b)
	if err != nil || !got.Redirected || got.Spectate || got.Private {
		t.Errorf("parsed %+v, %v; want Redirected alone", got, err)
	}
	q = Request{Kind: RoomLobby, Spectate: true, Redirected: true}
	if _, err := ParseRequest(q.Append(nil)); !errors.Is(err, ErrRange) {
		t.Errorf("a redirected lobby Request: got %v, want ErrRange", err)
	}
	q.Redirected = false
	if _, err := ParseRequest(q.Append(nil)); err != nil {
		t.Errorf("a lobby Request: %v", err)
	}
}

// TestRoomListServer: an entry's server follows its leader's score, so
// the entry is 14 bytes plus its names and its server, and Fits counts
// the server.
func TestRoomListServer(t *testing.T) {
	e := RoomEntry{Name: "a", Seats: 2, Server: "203.0.113.5:7777"}
	if got, want := e.Len(), 14+1+16; got != want {
		t.Errorf("Len() = %d, want %d", got, want)
	}
	l := RoomList{Total: 1, Rooms: []RoomEntry{e}}
	b := l.Append(nil)
	if got, want := string(b[len(b)-17:]), "\x10203.0.113.5:7777"; got != want {
		t.Errorf("the entry ends with %q, want %q", got, want)
	}
	got, err := ParseRoomList(b)
	if err != nil || got.Rooms[0].Server != e.Server {
		t.Fatalf("parsed %+v, %v", got, err)
	}

	// A page fills to MaxDatagram exactly, servers included.
	e = RoomEntry{Name: "0123456789abcdef", Seats: 2, Server: "x"}
	full := RoomList{}
	for full.Fits(&e) {
		full.Rooms = append(full.Rooms, e)
	}
	if n := full.Len(); n > MaxDatagram || n+e.Len() <= MaxDatagram {
		t.Errorf("a full page is %d bytes, and an entry is %d", n, e.Len())
	}
	if got := len(full.Append(nil)); got != full.Len() {
		t.Errorf("a full page encodes in %d bytes, Len() = %d", got, full.Len())
	}
	spare := MaxDatagram - full.Len()
	last := RoomEntry{Name: "a", Seats: 2, Server: strings.Repeat("x", spare-roomEntryFixedLen-1)}
	if !full.Fits(&last) {
		t.Errorf("a page with %d bytes to spare has no room for a %d-byte entry", spare, last.Len())
	}
	last.Server += "x"
	if full.Fits(&last) {
		t.Errorf("a page with %d bytes to spare has room for a %d-byte entry", spare, last.Len())
	}
}
