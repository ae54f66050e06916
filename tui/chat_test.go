package tui

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/gdamore/tcell/v2"

	"ttytanks/netcode"
)

// chatSession is a fakeSession that talks: it records what it was told
// to say, and refuses with err when set.
type chatSession struct {
	*fakeSession
	mu   sync.Mutex
	said []string
	err  error
}

func (s *chatSession) Say(text string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	s.said = append(s.said, text)
	return nil
}

func (s *chatSession) saidLines() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.said...)
}

// setChat gives the session's view the chat lines es.
func (s *chatSession) setChat(total uint64, es ...netcode.ChatEntry) {
	s.fakeSession.mu.Lock()
	defer s.fakeSession.mu.Unlock()
	s.view.ChatN, s.view.ChatTotal = len(es), total
	copy(s.view.Chat[:], es)
}

// startChatLoop is startLoop on a chatSession.
func startChatLoop(t *testing.T) (*loop, *chatSession) {
	t.Helper()
	cs := &chatSession{fakeSession: newFakeSession(testView(t))}
	return startLoopOn(t, cs.fakeSession, cs, Options{}), cs
}

// TestChatLine: Enter opens the chat line, keys go into it (q does not
// quit, arrows do not move), Enter sends it; t opens it too and Esc
// cancels; a refused line shows why.
func TestChatLine(t *testing.T) {
	l, cs := startChatLoop(t)
	press := func(k tcell.Key, r rune) {
		t.Helper()
		l.scr.InjectKey(k, r, tcell.ModNone)
		l.waitKeys(1)
	}
	text := func() string { return strings.Join(screenLines(l.scr), "\n") }
	press(tcell.KeyEnter, 0)
	if !strings.Contains(text(), "say: _") {
		t.Fatalf("Enter did not open the chat line:\n%s", text())
	}
	for _, r := range "gg q" {
		press(tcell.KeyRune, r)
	}
	press(tcell.KeyRight, 0)
	if in := l.s.lastInput(); in.MoveX != 0 || in.MoveY != 0 {
		t.Fatalf("an arrow while typing moved the tank: %+v", in)
	}
	press(tcell.KeyBackspace2, 0)
	press(tcell.KeyEnter, 0)
	if got := cs.saidLines(); len(got) != 1 || got[0] != "gg " {
		t.Fatalf("said %q, want [\"gg \"]", got)
	}
	if strings.Contains(text(), "say:") {
		t.Fatalf("the chat line is still open after Enter:\n%s", text())
	}
	press(tcell.KeyRune, 't')
	press(tcell.KeyRune, 'x')
	press(tcell.KeyEscape, 0)
	if got := cs.saidLines(); len(got) != 1 || strings.Contains(text(), "say:") {
		t.Fatalf("Esc: said %q, screen:\n%s", got, text())
	}
	cs.mu.Lock()
	cs.err = errors.New("slow down: three lines at once, then one a second")
	cs.mu.Unlock()
	press(tcell.KeyEnter, 0)
	press(tcell.KeyRune, 'h')
	press(tcell.KeyEnter, 0)
	if !strings.Contains(text(), "not sent: slow down") {
		t.Fatalf("a refused line does not say why:\n%s", text())
	}
}

// TestChatInTheFeed: the room's lines show in the feed with the sayer's
// name in its colour, a spectator's marked; m hides the spectators'
// lines, then all lines (those already shown too), and says so on the
// chat's row.
func TestChatInTheFeed(t *testing.T) {
	l, cs := startChatLoop(t)
	text := func() string { return strings.Join(screenLines(l.scr), "\n") }
	cs.setChat(2, netcode.ChatEntry{Seq: 1, From: 1, Name: "bob", Text: "hi all"},
		netcode.ChatEntry{Seq: 2, From: -1, Name: "eve", Text: "nice shot", Spectator: true})
	l.frame()
	if s := text(); !strings.Contains(s, "bob: hi all") || !strings.Contains(s, "(spectator) eve: nice shot") {
		t.Fatalf("the feed lacks the chat lines:\n%s", s)
	}
	y := -1
	for i, line := range screenLines(l.scr) {
		if x := strings.Index(line, "bob: hi all"); x >= 0 {
			y = i
			col := len([]rune(line[:x]))
			_, name := cellAt(l.scr, col, i)
			_, rest := cellAt(l.scr, col+5, i) // "hi all"
			if name == rest {
				t.Errorf("bob's name is drawn in the style of the line's text (%v)", name)
			}
		}
	}
	if y < 0 {
		t.Fatal("no row with bob's line")
	}
	l.scr.InjectKey(tcell.KeyRune, 'm', tcell.ModNone)
	l.waitKeys(1)
	cs.setChat(3, netcode.ChatEntry{Seq: 1, From: 1, Name: "bob", Text: "hi all"},
		netcode.ChatEntry{Seq: 2, From: -1, Name: "eve", Text: "nice shot", Spectator: true},
		netcode.ChatEntry{Seq: 3, From: -1, Name: "eve", Text: "spoiler", Spectator: true})
	l.frame()
	if s := text(); strings.Contains(s, "spoiler") || strings.Contains(s, "nice shot") || !strings.Contains(s, "chat: players only") {
		t.Fatalf("players only: the spectator's line shows, or the setting is not said:\n%s", s)
	}
	l.scr.InjectKey(tcell.KeyRune, 'm', tcell.ModNone)
	l.waitKeys(1)
	cs.setChat(4, netcode.ChatEntry{Seq: 4, From: 1, Name: "bob", Text: "anyone?"})
	l.frame()
	if s := text(); strings.Contains(s, "anyone?") || strings.Contains(s, "hi all") || !strings.Contains(s, "chat hidden") {
		t.Fatalf("muted: a line shows, or the setting is not said:\n%s", s)
	}
}

// TestNoticeCannotBeForged: the server's notice is drawn in a style no
// player's line takes, so a spectator (or lobby viewer) named "server"
// does not pass for it.
func TestNoticeCannotBeForged(t *testing.T) {
	l, cs := startChatLoop(t)
	cs.setChat(2, netcode.ChatEntry{From: -2, Name: "server", Text: "real notice"},
		netcode.ChatEntry{Seq: 1, From: -1, Name: "server", Text: "fake notice"})
	l.frame()
	styleOf := func(text string) (st tcell.Style, ok bool) {
		for y, line := range screenLines(l.scr) {
			if x := strings.Index(line, text); x >= 0 {
				_, st = cellAt(l.scr, len([]rune(line[:x])), y)
				return st, true
			}
		}
		return st, false
	}
	real, ok1 := styleOf("server: real notice")
	fake, ok2 := styleOf("server: fake notice")
	if !ok1 || !ok2 {
		t.Fatalf("the lines are not both shown:\n%s", strings.Join(screenLines(l.scr), "\n"))
	}
	if real == fake {
		t.Fatalf("the server's notice and a player named server look alike (%v)", real)
	}
}
