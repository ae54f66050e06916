package netcode

import (
	"errors"
	"net/netip"
	"testing"
	"time"

	"ttytanks/proto"
)

// TestRoomSeatsRule: PROTOCOL.md §5.14's one rule for a created room's
// seats, 2..8 or 0 for the server's default: a client never asks for one
// seat (its session ends at once, refused), and a server that is handed
// such a request (ParseRequest refuses it on the wire) opens no room,
// while 2 and 0 open one.
func TestRoomSeatsRule(t *testing.T) {
	c := NewClient(ClientConfig{Name: "solo", Server: netip.MustParseAddrPort("127.0.0.1:1"),
		Room: RoomRequest{Kind: RoomCreate, Spec: RoomSpec{Name: "one", Seats: 1}}})
	var re *RefusedError
	if c.Status() != StatusClosed || !errors.As(c.Err(), &re) || re.Reason != proto.RejectNoMatch {
		t.Fatalf("a client asking for a room of 1 seat: status %v, err %v; want closed, refused", c.Status(), c.Err())
	}
	n := newSimnet(t, ServerConfig{Players: 2, MaxRooms: 4})
	from := netip.MustParseAddrPort("10.1.2.3:4000")
	for _, c := range []struct {
		seats uint8
		ok    bool
	}{{1, false}, {2, true}, {0, true}, {9, false}} {
		r, why := n.server.place(&proto.Request{Name: "p", Kind: proto.RoomCreate, Seats: c.seats}, &link{addr: from}, simEpoch.Add(time.Duration(c.seats)*time.Minute))
		if (r != nil) != c.ok {
			t.Errorf("a room of %d seats: room %v, reject %v; want opened %v", c.seats, r != nil, why, c.ok)
		}
	}
}
