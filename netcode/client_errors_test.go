package netcode

import (
	"strings"
	"testing"
	"unicode/utf8"

	"ttytanks/proto"
)

// TestRefusalsSayWhatToDo: a Join the server refuses ends the client's
// session with a message in the player's words: which room, what is
// wrong, what to do instead; never "the server refused us".
func TestRefusalsSayWhatToDo(t *testing.T) {
	n := newSimnet(t, ServerConfig{Players: 2, MaxRooms: 8, Trusted: loopback})
	named := func(name string) RoomRequest { return RoomRequest{Kind: RoomNamed, Name: name} }
	n.join(named("den"), "d1")
	n.join(named("den"), "d2")
	tests := []struct {
		name string
		req  RoomRequest
		want string
	}{
		{"full room", named("den"), `room "den" is full: pick another room, or watch this one as a spectator`},
		{"name taken", RoomRequest{Kind: RoomCreate, Spec: RoomSpec{Name: "den"}}, `room "den" exists already: join it, or pick another name`},
		{"no room to watch", RoomRequest{Kind: RoomNamed, Name: "attic", Spectate: true}, `there is no room "attic" to watch`},
		{"wrong code", RoomRequest{Kind: RoomCode, Name: "ZZZZZZ"}, "no room has that join code: check it with whoever gave it to you"},
		{"too many seats", RoomRequest{Kind: RoomCreate, Spec: RoomSpec{Name: "big", Seats: 12}}, "a room has 2 to 8 seats, not 12"},
	}
	for _, tt := range tests {
		c := n.join(tt.req, "late")
		got := ""
		if err := c.c.Err(); err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, tt.want) || strings.Contains(got, "refused us") {
			t.Errorf("%s: the session ended with %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestEveryRefusalHasWords: each reason a RefusedError carries (all but
// those that end the session with an error of their own) has a message
// of its own, not the fallback that only names the reason.
func TestEveryRefusalHasWords(t *testing.T) {
	for r := proto.RejectVersion; r <= proto.MaxRejectReason; r++ {
		switch r {
		case proto.RejectVersion, proto.RejectFull, proto.RejectDraining:
			continue // VersionError, ErrServerFull, ErrDraining
		}
		if msg := (&RefusedError{Reason: r}).Error(); strings.Contains(msg, "would not seat us") {
			t.Errorf("reason %d (%v): %q", r, r, msg)
		}
	}
}

// TestANameRefusalFits80Columns: the refusal of a name another player
// holds names the name and says what to do within 80 cells, the width
// of the lobby's notice row, for the longest name.
func TestANameRefusalFits80Columns(t *testing.T) {
	long := strings.Repeat("w", proto.MaxNameLen)
	msg := (&RefusedError{Reason: proto.RejectNameTaken, Name: long}).Error()
	if !strings.Contains(msg, `"`+long+`"`) || !strings.HasSuffix(msg, "pick another (--name NEW)") {
		t.Errorf("the refusal %q does not name %q and say what to do", msg, long)
	}
	if n := utf8.RuneCountInString(msg); n > 80 {
		t.Errorf("the refusal is %d cells: %q", n, msg)
	}
}
