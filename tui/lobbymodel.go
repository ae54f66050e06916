package tui

import (
	"time"

	"github.com/gdamore/tcell/v2"

	"ttytanks/netcode"
)

// lobbyMode is what the lobby shows: its tab (lobbyTab), or a form over
// the room list.
type lobbyMode uint8

const (
	modeList   lobbyMode = iota
	modeCreate           // the create form
	modeCode             // the join-code prompt
)

// lobbyOutcome is what a key did to the lobby.
type lobbyOutcome uint8

const (
	lobbyStay lobbyOutcome = iota // keep showing the lobby
	lobbyPick                     // return the request
	lobbyQuit                     // the player quits
)

// lobby is the lobby's state: the tab shown, the newest room list, the
// selection, the open form and the leaderboard. It does no IO of its own;
// the loop feeds it lists, keys and the time, and draws it.
type lobby struct {
	opts LobbyOptions
	list netcode.RoomList
	// sel is the selected row of list.Rooms; selName the name of its room,
	// so that the selection follows the room when a refresh reorders the
	// list.
	sel     int
	selName string
	top     int // the first row shown
	rows    int // how many rows the last frame showed
	mode    lobbyMode
	form    createForm
	code    textField
	hint    string // a one-off message for the error line ("type a code first")
	tab     lobbyTab
	ladder  ladderTab
	// The lobby's chat (LobbyOptions.Chat): the line being typed, the
	// chat's view as last polled, and its lines.
	chat     chatPrompt
	chatView netcode.View
	chatFeed feed
}

func newLobby(opts LobbyOptions) *lobby {
	return &lobby{opts: opts, rows: 1}
}

// refresh takes a new list in: the selection stays on the room it was on
// when that room is still listed, and within the list otherwise.
func (l *lobby) refresh() {
	rooms := l.list.Rooms
	if l.selName != "" && (l.sel >= len(rooms) || rooms[l.sel].Name != l.selName) {
		for i := range rooms {
			if rooms[i].Name == l.selName {
				l.sel = i
				break
			}
		}
	}
	l.choose(l.sel)
}

// choose selects row i, clamped to the list, and scrolls it into view.
func (l *lobby) choose(i int) {
	n := len(l.list.Rooms)
	l.sel = min(max(i, 0), max(n-1, 0))
	l.selName = ""
	if n > 0 {
		l.selName = l.list.Rooms[l.sel].Name
	}
	l.scroll()
}

// scroll keeps the selection within the rows shown.
func (l *lobby) scroll() {
	rows := max(l.rows, 1)
	if l.sel < l.top {
		l.top = l.sel
	}
	if l.sel >= l.top+rows {
		l.top = l.sel - rows + 1
	}
	l.top = max(min(l.top, len(l.list.Rooms)-rows), 0)
}

// key applies ev at now and says whether the lobby is done; with
// lobbyPick the request is the player's choice.
func (l *lobby) key(ev *tcell.EventKey, now time.Time) (netcode.RoomRequest, lobbyOutcome) {
	if isCtrlC(ev) {
		return netcode.RoomRequest{}, lobbyQuit
	}
	l.hint = ""
	switch l.mode {
	case modeCreate:
		switch l.form.key(ev) {
		case formDone:
			f := &l.form
			return netcode.RoomRequest{Kind: netcode.RoomCreate, Spec: netcode.RoomSpec{
				Name: f.name.value(), Seats: f.seats, Bots: f.bots, Private: f.private, Casual: !f.ranked && f.bots == 0}}, lobbyPick
		case formCancel:
			l.mode = modeList
		}
		return netcode.RoomRequest{}, lobbyStay
	case modeCode:
		switch ev.Key() {
		case tcell.KeyEscape:
			l.mode = modeList
		case tcell.KeyEnter:
			if c := l.code.value(); c != "" {
				return netcode.RoomRequest{Kind: netcode.RoomCode, Name: c}, lobbyPick
			}
			l.hint = "type the room's join code first"
		default:
			l.code.key(ev)
		}
		return netcode.RoomRequest{}, lobbyStay
	}
	if l.tab == tabLadder {
		return l.ladderKey(ev, now)
	}

	rooms := l.list.Rooms
	switch ev.Key() {
	case tcell.KeyUp:
		l.choose(l.sel - 1)
	case tcell.KeyDown:
		l.choose(l.sel + 1)
	case tcell.KeyPgUp:
		l.choose(l.sel - max(l.rows-1, 1))
	case tcell.KeyPgDn:
		l.choose(l.sel + max(l.rows-1, 1))
	case tcell.KeyHome:
		l.choose(0)
	case tcell.KeyEnd:
		l.choose(len(rooms) - 1)
	case tcell.KeyTab:
		l.openLadder(now)
	case tcell.KeyEnter:
		if len(rooms) == 0 {
			return netcode.RoomRequest{Kind: netcode.RoomQuick}, lobbyPick
		}
		return netcode.RoomRequest{Kind: netcode.RoomNamed, Name: rooms[l.sel].Name}, lobbyPick
	case tcell.KeyRune:
		switch ev.Rune() {
		case 'k':
			l.choose(l.sel - 1)
		case 'j':
			l.choose(l.sel + 1)
		case 'g':
			l.choose(0)
		case 'G':
			l.choose(len(rooms) - 1)
		case 'n', 'N':
			return netcode.RoomRequest{Kind: netcode.RoomQuick}, lobbyPick
		case 's', 'S':
			if len(rooms) == 0 {
				return netcode.RoomRequest{Kind: netcode.RoomQuick, Spectate: true}, lobbyPick
			}
			return netcode.RoomRequest{Kind: netcode.RoomNamed, Name: rooms[l.sel].Name, Spectate: true}, lobbyPick
		case 'c', 'C':
			l.mode, l.form = modeCreate, newCreateForm()
		case 'p', 'P':
			l.mode, l.code = modeCode, textField{max: MaxRoomName}
		case 'l', 'L':
			l.openLadder(now)
		case 'q', 'Q':
			return netcode.RoomRequest{}, lobbyQuit
		}
	}
	return netcode.RoomRequest{}, lobbyStay
}
