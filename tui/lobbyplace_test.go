package tui

import (
	"strings"
	"sync"
	"testing"

	"github.com/gdamore/tcell/v2"

	"ttytanks/netcode"
	"ttytanks/proto"
)

// deadPlace is a lobby place the server refused: its view is closed with
// the refusal's words, and Err says why, as a netcode.ClientDriver's.
type deadPlace struct {
	err  error
	left bool
}

func (p *deadPlace) Say(string) error { return netcode.ErrChatOffline }
func (p *deadPlace) View(dst *netcode.View) {
	*dst = netcode.View{Status: netcode.StatusClosed, Message: p.err.Error(), Slot: -1}
}
func (p *deadPlace) AskLadder(int, int, bool) {}
func (p *deadPlace) Err() error               { return p.err }
func (p *deadPlace) Leave()                   { p.left = true }

// nameTaken is the server's refusal of name, another player's.
func nameTaken(name string) error {
	return &netcode.RefusedError{Reason: proto.RejectNameTaken, Room: netcode.RoomRequest{Kind: netcode.RoomLobby, Spectate: true}, Name: name}
}

// TestLobbyWithoutAPlaceSaysSo: when the server refuses the lobby its
// place (another player holds the name typed, and the host cannot take
// the place again under the name the key holds; or too many players of
// one address), the lobby says why, whole, on its notice row at 80x24;
// the header does not claim the refused name; the chat says it is off
// and opens no line; and the leaderboard says it cannot ask, rather than
// asking forever.
func TestLobbyWithoutAPlaceSaysSo(t *testing.T) {
	long := strings.Repeat("w", proto.MaxNameLen)
	for _, err := range []error{nameTaken(long), &netcode.RefusedError{Reason: proto.RejectAddrLimit}} {
		p := &deadPlace{err: err}
		l := startLobby(t, 80, 24, testRooms(), LobbyOptions{Name: long, Chat: p, Ladder: p})
		l.refresh()
		lines := l.lines()
		if strings.Contains(err.Error(), long) { // the name refused
			if got := strings.TrimSpace(lines[lobbyNoticeY]); got != err.Error() {
				t.Errorf("notice %q, want %q whole", got, err.Error())
			}
			if strings.Contains(lines[lobbyHeaderY], "you are") {
				t.Errorf("the header claims a name the server refused: %q", lines[lobbyHeaderY])
			}
		} else if !strings.Contains(lines[lobbyNoticeY], "lobby chat and leaderboard are off") {
			t.Errorf("notice %q, want it to say the lobby's place is off", lines[lobbyNoticeY])
		}
		if s := l.text(); !strings.Contains(s, "lobby chat is off") {
			t.Errorf("the chat does not say it is off:\n%s", s)
		}
		if s := l.text(); strings.Contains(s, "t chat") {
			t.Errorf("the keys offer a chat that is off:\n%s", s)
		}
		l.press(tcell.KeyRune, 't')
		if s := l.text(); strings.Contains(s, "say:") {
			t.Errorf("t opened a chat line with nowhere to say it:\n%s", s)
		}
		l.press(tcell.KeyRune, 'l')
		if s := l.text(); strings.Contains(s, "asking the server") || !strings.Contains(s, "no leaderboard") {
			t.Errorf("the leaderboard of a refused place:\n%s", s)
		}
	}
}

// livePlace is a lobby place the server gave: its chat's view, with the
// ladder's answers in it.
type livePlace struct {
	*fakeLobbyChat
	*fakeLadder
}

func (p *livePlace) View(dst *netcode.View) {
	p.fakeLobbyChat.View(dst)
	p.fakeLadder.View(dst)
}
func (p *livePlace) Leave() {}

// heldHost is a HeldNameHost whose first lobby place is refused the name
// typed and whose next ones are live, with the ladder answering card
// (nil: the key holds no name).
type heldHost struct {
	*fakeRooms
	mu     sync.Mutex
	kept   bool
	places []LobbyChatPlace
	card   *proto.LadderCard
}

func (h *heldHost) Join(netcode.RoomRequest) (Seat, error) { return nil, nil }
func (h *heldHost) KeepHeldName() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.kept = true
}
func (h *heldHost) LobbyChat() (LobbyChatPlace, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var p LobbyChatPlace = &deadPlace{err: nameTaken("BOB")}
	if h.kept {
		lad := &fakeLadder{}
		page := proto.LadderPage{Ranked: 9}
		if h.card != nil {
			page.HasCard, page.Card = true, *h.card
		}
		lad.answer(page)
		p = &livePlace{fakeLobbyChat: &fakeLobbyChat{}, fakeLadder: lad}
	}
	h.places = append(h.places, p)
	return p, nil
}

// TestLobbyKeepsTheHeldName: when the server refuses the lobby's place
// because another player holds the name typed, a HeldNameHost is asked to
// keep the name the key holds, and the lobby takes its place again: the
// leaderboard and the chat work, the header names the player as the
// ladder knows them, and the notice says what became of the name, whole
// at 80 columns, for a key that holds a name and one that holds none.
func TestLobbyKeepsTheHeldName(t *testing.T) {
	alice := testCard()
	for _, tc := range []struct {
		card           *proto.LadderCard
		notice, header string
	}{
		{&alice, `"BOB" is another player's name: you play under the name you hold`, "you are alice"},
		{nil, `"BOB" is another player's name: you play as player-… (--name NEW)`, "you are player-…"},
	} {
		h := &heldHost{fakeRooms: &fakeRooms{list: testRooms()}, card: tc.card}
		first, _ := h.LobbyChat()
		p := newLobbyPlace(h, first, "")
		l := startLobby(t, 80, 24, testRooms(), LobbyOptions{Name: "BOB", Chat: p, Ladder: p})
		l.refresh()
		l.refresh()
		h.mu.Lock()
		kept, n := h.kept, len(h.places)
		h.mu.Unlock()
		if !kept || n != 2 || !first.(*deadPlace).left {
			t.Fatalf("kept %v, %d places, the refused one left %v: want the place taken again under the held name", kept, n, first.(*deadPlace).left)
		}
		lines := l.lines()
		if got := strings.TrimSpace(lines[lobbyNoticeY]); got != tc.notice {
			t.Errorf("notice %q, want %q", got, tc.notice)
		}
		if head := squeeze(lines[lobbyHeaderY]); !strings.HasSuffix(head, tc.header) {
			t.Errorf("header %q, want it to end %q", head, tc.header)
		}
		live := h.places[1].(*livePlace)
		live.fakeLadder.mu.Lock()
		cards := live.fakeLadder.cards
		live.fakeLadder.mu.Unlock()
		if cards == 0 {
			t.Error("the new place was not asked for the player's card")
		}
		l.press(tcell.KeyRune, 't')
		l.typeText("hi")
		l.press(tcell.KeyEnter, 0)
		live.fakeLobbyChat.mu.Lock()
		said := append([]string(nil), live.fakeLobbyChat.said...)
		live.fakeLobbyChat.mu.Unlock()
		if len(said) != 1 || said[0] != "hi" {
			t.Errorf("said %q through the new place", said)
		}
	}
}

// TestNoticesOfATakenNameFit80Columns: the notices of a taken name are
// whole at 80 columns for the longest names and either way to pick
// another.
func TestNoticesOfATakenNameFit80Columns(t *testing.T) {
	long := strings.Repeat("w", proto.MaxNameLen)
	for _, rename := range []string{"", "ssh NEW@host"} {
		for _, held := range []string{"", long} {
			if s := takenNotice(long, held, rename, "…"); textWidth(s) > 80 || !strings.Contains(s, `"`+long+`"`) {
				t.Errorf("notice %q: %d cells", s, textWidth(s))
			}
		}
	}
}
