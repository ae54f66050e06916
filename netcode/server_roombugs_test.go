package netcode

// Tests that reproduce bugs in the production code, kept failing until
// the fix lands (each names the file and function at fault).

import (
	"fmt"
	"net/netip"
	"testing"
	"time"
)

// TestRoomListPagesAreContiguous reproduces a bug in rooms.go,
// clearDesk.onListRooms: when a room's entry does not fit in the page, the
// loop skips it and goes on, so a later, shorter entry lands in the page
// after the gap. A page is read as the rooms from its Offset on, one
// after another (PROTOCOL.md §5.12), so the skipped room is never listed
// and the next page repeats the short one. Fix: stop filling the page at
// the first entry that does not fit (break instead of n++; continue,
// and count the rest for Total).
func TestRoomListPagesAreContiguous(t *testing.T) {
	s := newRoomServer(t, ServerConfig{Players: 2, MaxRooms: 64})
	want := []string{"a"} // the permanent room: a 15-byte entry
	// 40 rooms with 16-byte names (30-byte entries): the first page, 30
	// bytes of header, has room for a and 38 of them, with 15 bytes to
	// spare; then one with a 1-byte name (a 15-byte entry).
	for i := 1; i <= 40; i++ {
		want = append(want, fmt.Sprintf("room-%011d", i))
	}
	want = append(want, "z")
	for _, name := range want[1:] {
		if r := s.openRoom(name, s.defaults, false, false, netip.Addr{}, simEpoch); r == nil {
			t.Fatalf("opening %s", name)
		}
	}
	entries, total := listAll(t, s, simEpoch, netip.MustParseAddrPort("192.0.2.9:4000"))
	if total != len(want) {
		t.Fatalf("total %d, want %d", total, len(want))
	}
	got := make([]string, len(entries))
	for i := range entries {
		got[i] = entries[i].Name
	}
	for i := range want {
		if i >= len(got) || got[i] != want[i] {
			t.Fatalf("the pages list %q at index %d, want %q (%d entries: %q … )", at(got, i), i, want[i], len(got), got[max(0, i-2):min(len(got), i+3)])
		}
	}
}

func at(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return "<nothing>"
}

// TestRoomClosedIsNotRouted reproduces a bug in rooms.go,
// Server.closeRoom, and room.go, Server.fault: both call
// r.match.reset(0) before s.rooms.remove(r), and remove deletes the
// routing entry of r.match.matchID(), which is then 0. So the match id a
// room had when it closed stays in roomTable.matches for the server's
// life: datagrams with it still reach the closed room (a Leave there
// even re-keys it), and every room that closes, idle or failed, is
// leaked with its seat table, feed and windows. Fix: take the room out
// of the table before resetting its match (s.rooms.remove(r) first, in
// closeRoom and in fault).
func TestRoomClosedIsNotRouted(t *testing.T) {
	n := newSimnet(t, ServerConfig{Players: 2, Rooms: 1, MaxRooms: 8, RoomIdle: time.Second, Trusted: loopback})
	stale := func(what string) {
		t.Helper()
		for id, r := range n.server.rooms.matches { // looked at, not acted on: order does not matter
			if r.closed {
				t.Errorf("%s: match id %x still routes to closed room %s", what, id, r.name)
			}
		}
	}

	// An on-demand room that closes for idleness.
	x := n.join(RoomRequest{Kind: RoomNamed, Name: "x"}, "x1")
	rx := n.roomOf(x)
	n.leave(x)
	n.run(100 * time.Millisecond)
	idle := rx.match.matchID() // its lobby's id, after the last player left
	n.run(2 * time.Second)
	if n.server.rooms.byName("x") != nil {
		t.Fatal("room x did not close")
	}
	if r := n.server.rooms.byMatch(idle); r != nil {
		t.Errorf("match id %x of the closed room x still routes to it", idle)
	}
	stale("after an idle close")

	// A room that fails.
	a1 := n.join(RoomRequest{Kind: RoomNamed, Name: "a"}, "a1")
	n.join(RoomRequest{Kind: RoomNamed, Name: "a"}, "a2")
	ra := n.server.rooms.byName("a")
	if !n.runUntil(2*time.Second, func() bool { return ra.match.phase == phaseRunning && a1.c.World() != nil }) {
		t.Fatal("room a did not start")
	}
	failed := ra.match.matchID()
	ra.match.inputs = nil
	n.run(100 * time.Millisecond)
	if n.server.Stats().Faults != 1 {
		t.Fatalf("Faults = %d, want 1", n.server.Stats().Faults)
	}
	if r := n.server.rooms.byMatch(failed); r != nil {
		t.Errorf("match id %x of the failed room a still routes to it", failed)
	}
	stale("after a fault")
}
