package tui

import (
	"time"

	"github.com/gdamore/tcell/v2"

	"ttytanks/netcode"
	"ttytanks/proto"
)

// LobbyLadder is where the lobby's leaderboard tab asks for the server's
// ladder (PROTOCOL.md §4.15): a place the player holds on the server,
// such as the lobby chat's netcode.ClientDriver. AskLadder asks for a
// page and the player's own card; the answer shows in the View's Ladder.
// Both are called from the lobby's goroutine and must not block on the
// network.
type LobbyLadder interface {
	AskLadder(offset, count int, forget bool)
	View(dst *netcode.View)
}

// A client driver holding the lobby's place is the leaderboard's way in.
var _ LobbyLadder = (*netcode.ClientDriver)(nil)

// LadderRefresh is how often the leaderboard tab asks the server again
// while it shows.
const LadderRefresh = 10 * time.Second

// ladderPage is how many leaderboard lines one question asks for: a
// page, and what the paging keys move by.
const ladderPage = proto.MaxLadderPage

// lobbyTab is the lobby's tab: the room list or the leaderboard.
type lobbyTab uint8

const (
	tabRooms lobbyTab = iota
	tabLadder
)

// ladderTab is the leaderboard tab's state: the page asked for, when it
// was asked, the lines scrolled past, and the answer as last polled. It
// does no IO of its own; the lobby hands it its LobbyLadder.
type ladderTab struct {
	offset int       // the leaderboard index of the page's first line (0: the best)
	asked  time.Time // when the page was last asked for
	top    int       // the page's first line shown
	rows   int       // how many lines the last frame showed
	view   netcode.View
}

// ladderView is what the tab knows of the server's ladder.
func (t *ladderTab) ladderView() *netcode.LadderView { return &t.view.Ladder }

// ask asks lad for the page at offset, at now.
func (t *ladderTab) ask(lad LobbyLadder, offset int, now time.Time) {
	if offset != t.offset {
		t.top = 0
	}
	t.offset, t.asked = max(offset, 0), now
	if lad != nil {
		lad.AskLadder(t.offset, ladderPage, false)
		lad.View(&t.view)
	}
}

// poll takes lad's newest answer in and asks again every LadderRefresh.
// A page past the end (players forgotten since) asks for the last one.
func (t *ladderTab) poll(lad LobbyLadder, now time.Time) {
	if lad == nil {
		return
	}
	lad.View(&t.view)
	lv := t.ladderView()
	if lv.Has && !lv.Asking && !lv.Page.Off && int(lv.Page.Offset) == t.offset && len(lv.Page.Lines) == 0 && t.offset > 0 {
		t.ask(lad, t.lastPage(), now)
		return
	}
	if now.Sub(t.asked) >= LadderRefresh {
		t.ask(lad, t.offset, now)
	}
}

// whoAmI asks lad, once, for the player's own card alone, and takes the
// newest answer in: the header names the player as the server's ladder
// knows them (the name their key holds, a guest's ~name), which may not
// be the name they typed.
func (t *ladderTab) whoAmI(lad LobbyLadder, now time.Time) {
	if lad == nil {
		return
	}
	if t.asked.IsZero() {
		t.asked = now
		lad.AskLadder(0, 0, false)
	}
	lad.View(&t.view)
}

// name is the name the player goes by on the server: their card's when
// its ladder has a record of them, ~typed for a guest on a server with a
// ladder, else typed.
func (t *ladderTab) name(typed string, guest bool) string {
	lv := t.ladderView()
	switch {
	case !lv.Has || lv.Page.Off || typed == "":
		return typed
	case lv.Page.HasCard:
		return lv.Page.Card.Name
	case guest:
		return netcode.GuestName(typed)
	}
	return typed
}

// ranked is how many players the server last said are ranked; -1 before
// any answer.
func (t *ladderTab) ranked() int {
	lv := t.ladderView()
	if !lv.Has || lv.Page.Off {
		return -1
	}
	return int(lv.Page.Ranked)
}

// lastPage is the offset of the leaderboard's last page.
func (t *ladderTab) lastPage() int {
	n := t.ranked()
	if n <= 0 {
		return 0
	}
	return (n - 1) / ladderPage * ladderPage
}

// lines are the lines of the page shown.
func (t *ladderTab) lines() []proto.LadderLine {
	lv := t.ladderView()
	if !lv.Has || lv.Page.Off {
		return nil
	}
	return lv.Page.Lines
}

// scroll moves the lines shown by d, within the page.
func (t *ladderTab) scroll(d int) {
	t.top = max(min(t.top+d, len(t.lines())-max(t.rows, 1)), 0)
}

// openLadder shows the leaderboard tab and asks for its page at once.
func (l *lobby) openLadder(now time.Time) {
	l.tab = tabLadder
	l.ladder.ask(l.opts.Ladder, l.ladder.offset, now)
}

// ladderKey applies ev, a key on the leaderboard tab, at now.
func (l *lobby) ladderKey(ev *tcell.EventKey, now time.Time) (netcode.RoomRequest, lobbyOutcome) {
	t, lad := &l.ladder, l.opts.Ladder
	if lad != nil {
		lad.View(&t.view) // page by the newest answer, not the one last drawn
	}
	page := func(offset int) {
		switch {
		case offset < 0 || t.ranked() < 0 || offset == t.offset:
		case offset >= t.ranked():
		default:
			t.ask(lad, offset, now)
		}
	}
	switch ev.Key() {
	case tcell.KeyTab, tcell.KeyBacktab, tcell.KeyEscape:
		l.tab = tabRooms
	case tcell.KeyRight, tcell.KeyPgDn:
		page(t.offset + ladderPage)
	case tcell.KeyLeft, tcell.KeyPgUp:
		page(t.offset - ladderPage)
	case tcell.KeyHome:
		page(0)
	case tcell.KeyEnd:
		page(t.lastPage())
	case tcell.KeyUp:
		t.scroll(-1)
	case tcell.KeyDown:
		t.scroll(1)
	case tcell.KeyRune:
		switch ev.Rune() {
		case 'l', 'L':
			l.tab = tabRooms
		case 'k':
			t.scroll(-1)
		case 'j':
			t.scroll(1)
		case 'g':
			page(0)
		case 'G':
			page(t.lastPage())
		case 'n', 'N':
			return netcode.RoomRequest{Kind: netcode.RoomQuick}, lobbyPick
		case 'q', 'Q':
			return netcode.RoomRequest{}, lobbyQuit
		}
	}
	return netcode.RoomRequest{}, lobbyStay
}
