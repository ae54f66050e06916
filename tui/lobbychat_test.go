package tui

import (
	"strings"
	"sync"
	"testing"

	"github.com/gdamore/tcell/v2"

	"ttytanks/netcode"
)

// fakeLobbyChat is a lobby's chat: what it was told to say, and the lines
// its view holds.
type fakeLobbyChat struct {
	mu   sync.Mutex
	said []string
	view netcode.View
}

func (c *fakeLobbyChat) Say(text string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.said = append(c.said, text)
	c.view.Chat[c.view.ChatN] = netcode.ChatEntry{Seq: uint32(c.view.ChatTotal + 1), From: -1, Name: "me", Text: text, Own: true}
	c.view.ChatN++
	c.view.ChatTotal++
	return nil
}

func (c *fakeLobbyChat) View(dst *netcode.View) {
	c.mu.Lock()
	defer c.mu.Unlock()
	*dst = c.view
}

// TestLobbyChatLine: with a chat, the lobby shows its lines above the
// footer and says t talks; t opens the line (n and q are text then, not
// a quick match or quitting), Enter says it, and the line shows; Enter
// on the list still joins the selected room.
func TestLobbyChatLine(t *testing.T) {
	chat := &fakeLobbyChat{}
	chat.view.Chat[0] = netcode.ChatEntry{Seq: 1, From: -1, Name: "ann", Text: "anyone for a match?"}
	chat.view.ChatN, chat.view.ChatTotal = 1, 1
	l := startLobby(t, 80, 24, manyRooms(3, 3), LobbyOptions{Chat: chat})
	l.refresh()
	if s := l.text(); !strings.Contains(s, "ann: anyone for a match?") || !strings.Contains(s, "t chat · l ladder · q quit") {
		t.Fatalf("the lobby does not show its chat:\n%s", s)
	}
	l.press(tcell.KeyRune, 't')
	l.typeText("need one more, quick")
	if s := l.text(); !strings.Contains(s, "say: need one more, quick_") {
		t.Fatalf("the chat line does not show what is typed:\n%s", s)
	}
	l.press(tcell.KeyEnter, 0)
	l.refresh()
	chat.mu.Lock()
	said := append([]string(nil), chat.said...)
	chat.mu.Unlock()
	if len(said) != 1 || said[0] != "need one more, quick" {
		t.Fatalf("said %q", said)
	}
	if s := l.text(); !strings.Contains(s, "me: need one more, quick") || strings.Contains(s, "say:") {
		t.Fatalf("after Enter the line is not in the chat, or the prompt is still open:\n%s", s)
	}
	req, err := l.finish(tcell.KeyEnter, 0, tcell.ModNone)
	if err != nil || req.Kind != netcode.RoomNamed {
		t.Fatalf("Enter on the list: %+v, %v; want the selected room", req, err)
	}
}
