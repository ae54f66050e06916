package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"ttytanks/netcode"
)

// fakeRooms is a LobbySource serving a list the test sets.
type fakeRooms struct {
	mu    sync.Mutex
	list  netcode.RoomList
	polls int
}

func (f *fakeRooms) Rooms(dst *netcode.RoomList) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.polls++
	rooms := append(dst.Rooms[:0], f.list.Rooms...)
	*dst = f.list
	dst.Rooms = rooms
}

func (f *fakeRooms) set(l netcode.RoomList) {
	f.mu.Lock()
	f.list = l
	f.mu.Unlock()
}

// testRooms is a list of five rooms with distinctive values, as a server
// sends it.
func testRooms() netcode.RoomList {
	return netcode.RoomList{
		Rooms: []netcode.RoomInfo{
			{Name: "alpha", Players: 2, Seats: 4, Bots: 1, Spectators: 3, State: netcode.RoomPlaying, Round: 3, RoundsToWin: 5, Leader: "alice", LeaderScore: 2},
			{Name: "bravo", Players: 1, Seats: 2, State: netcode.RoomWaiting, RoundsToWin: 3},
			{Name: "secret", Private: true, Players: 2, Seats: 2, State: netcode.RoomCountdown},
			{Name: "delta", Players: 8, Seats: 8, Bots: 7, State: netcode.RoomResults, Round: 9, RoundsToWin: 5, Leader: "bot3", LeaderScore: 5},
			{Name: "echo", Players: 3, Seats: 3, State: netcode.RoomPlaying, Round: 1, RoundsToWin: 5},
		},
		Total:   5,
		Ping:    23 * time.Millisecond,
		Updated: t0,
	}
}

// manyRooms is a list of n rooms named room-00, room-01, ...; the server
// has total.
func manyRooms(n, total int) netcode.RoomList {
	l := netcode.RoomList{Total: total, Ping: 5 * time.Millisecond, Updated: t0}
	for i := range n {
		l.Rooms = append(l.Rooms, netcode.RoomInfo{Name: fmt.Sprintf("room-%02d", i), Players: 1, Seats: 2, RoundsToWin: 5})
	}
	return l
}

type lobbyResult struct {
	req netcode.RoomRequest
	err error
}

// lobbyLoop is a Lobby in a goroutine, driven refresh by refresh and key by
// key through lobbyHooks.
type lobbyLoop struct {
	t      *testing.T
	scr    tcell.SimulationScreen
	src    *fakeRooms
	frames chan time.Time
	drawn  chan struct{}
	keys   chan struct{}
	result chan lobbyResult
	cancel context.CancelFunc
	// clock is the lobby's time: t0 until the test moves it (advance).
	mu    sync.Mutex
	clock time.Time
}

// advance moves the lobby's clock on by d.
func (l *lobbyLoop) advance(d time.Duration) {
	l.mu.Lock()
	l.clock = l.clock.Add(d)
	l.mu.Unlock()
}

func (l *lobbyLoop) now() time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.clock
}

func startLobby(t *testing.T, w, h int, list netcode.RoomList, opts LobbyOptions) *lobbyLoop {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	l := &lobbyLoop{
		t:      t,
		scr:    newScreen(t, w, h), // the caller owns the screen
		src:    &fakeRooms{list: list},
		frames: make(chan time.Time),
		drawn:  make(chan struct{}, 256),
		keys:   make(chan struct{}, 256),
		result: make(chan lobbyResult, 1),
		cancel: cancel,
		clock:  t0,
	}
	hooks := lobbyHooks{
		frames:    l.frames,
		now:       l.now,
		afterDraw: func() { l.drawn <- struct{}{} },
		afterKey:  func() { l.keys <- struct{}{} },
	}
	go func() {
		req, err := runLobby(ctx, l.scr, l.src, opts, hooks)
		l.result <- lobbyResult{req, err}
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-l.result:
		case <-time.After(5 * time.Second):
			t.Error("Lobby did not return after the test")
		}
	})
	l.waitDraw() // the first list is polled and drawn at once
	return l
}

func (l *lobbyLoop) waitDraw() {
	l.t.Helper()
	select {
	case <-l.drawn:
	case r := <-l.result:
		l.t.Fatalf("Lobby returned %+v, %v while a frame was expected", r.req, r.err)
	case <-time.After(5 * time.Second):
		l.t.Fatal("no frame drawn within 5s")
	}
}

// refresh ticks the refresh clock: the lobby polls its source and draws.
func (l *lobbyLoop) refresh() {
	l.t.Helper()
	l.frames <- t0
	l.waitDraw()
}

// press sends a key the lobby handles without returning and waits until it
// has been handled and drawn.
func (l *lobbyLoop) press(k tcell.Key, r rune) {
	l.t.Helper()
	l.scr.InjectKey(k, r, tcell.ModNone)
	select {
	case <-l.keys:
		l.waitDraw()
	case res := <-l.result:
		l.result <- res
		l.t.Fatalf("Lobby returned %+v, %v on key %v %q", res.req, res.err, k, r)
	case <-time.After(5 * time.Second):
		l.t.Fatal("key not handled within 5s")
	}
}

// typeText presses each rune of s.
func (l *lobbyLoop) typeText(s string) {
	l.t.Helper()
	for _, r := range s {
		l.press(tcell.KeyRune, r)
	}
}

// finish sends a key that ends the lobby and returns its result.
func (l *lobbyLoop) finish(k tcell.Key, r rune, mod tcell.ModMask) (netcode.RoomRequest, error) {
	l.t.Helper()
	l.scr.InjectKey(k, r, mod)
	select {
	case res := <-l.result:
		l.result <- res // for the cleanup
		return res.req, res.err
	case <-l.keys:
		l.t.Fatalf("key %v %q did not end the lobby", k, r)
	case <-time.After(5 * time.Second):
		l.t.Fatal("Lobby did not return within 5s")
	}
	return netcode.RoomRequest{}, nil
}

func (l *lobbyLoop) lines() []string { return screenLines(l.scr) }

func (l *lobbyLoop) text() string { return strings.Join(l.lines(), "\n") }

// rowOf returns the first screen row whose text, its runs of spaces
// squeezed to one, contains s, or -1.
func (l *lobbyLoop) rowOf(s string) int {
	for y, line := range l.lines() {
		if strings.Contains(squeeze(line), s) {
			return y
		}
	}
	return -1
}

// squeeze collapses runs of spaces, so that a test can match a table row
// without its padding.
func squeeze(s string) string { return strings.Join(strings.Fields(s), " ") }

// reversed reports whether the shown cell at (x, y) is in reverse video.
func reversed(s tcell.SimulationScreen, x, y int) bool {
	_, st := cellAt(s, x, y)
	_, _, a := st.Decompose()
	return a&tcell.AttrReverse != 0
}

func TestLobbyRenders80x24(t *testing.T) {
	l := startLobby(t, 80, 24, testRooms(), LobbyOptions{Options: Options{Server: "example.org:7777"}, Name: "zoe"})
	lines := l.lines()
	want := map[int]string{
		0:  "ttytanks lobby · server example.org:7777 · ping 23 ms · you are zoe",
		2:  "room players state round leader",
		3:  "› alpha 2/4 (1 bot) playing 3 · first to 5 alice 2",
		4:  "bravo 1/2 waiting - · first to 3 -",
		5:  "🔒 secret 2/2 countdown - -",
		6:  "delta 8/8 (7 bots) results 9 · first to 5 bot3 5",
		7:  "echo 3/3 playing 1 · first to 5 -",
		21: "5 rooms",
		23: "↑↓ pick · Enter join · s watch · n quick · c new · p code · l ladder · q quit",
	}
	for y, w := range want {
		if got := squeeze(lines[y]); got != w {
			t.Errorf("row %d: %q, want %q", y, got, w)
		}
	}
	// 80 columns leave no room for the spectators.
	if strings.Contains(lines[2], "watching") {
		t.Errorf("80-column table shows the watching column: %q", lines[2])
	}
	// The selected row is in reverse video from edge to edge.
	for _, x := range []int{0, 40, 79} {
		if !reversed(l.scr, x, 3) {
			t.Errorf("selected row: cell %d not reversed", x)
		}
	}
	if reversed(l.scr, 10, 4) {
		t.Error("unselected row reversed")
	}
}

func TestLobbyRenders120x40(t *testing.T) {
	l := startLobby(t, 120, 40, testRooms(), LobbyOptions{})
	lines := l.lines()
	if got, want := squeeze(lines[2]), "room players watching state round leader"; got != want {
		t.Errorf("titles %q, want %q", got, want)
	}
	if got, want := squeeze(lines[3]), "› alpha 2/4 (1 bot) 3 playing 3 · first to 5 alice 2"; got != want {
		t.Errorf("first row %q, want %q", got, want)
	}
	if got := squeeze(lines[37]); got != "5 rooms" {
		t.Errorf("status row %q", got)
	}
	if got := lines[39]; !strings.HasPrefix(got, "↑↓/jk pick") {
		t.Errorf("last row %q, want the keys", got)
	}
}

func TestLobbyScrolls(t *testing.T) {
	l := startLobby(t, 80, 24, manyRooms(40, 40), LobbyOptions{})
	rows := lobbyRows(24) // 18
	if got, want := squeeze(l.lines()[21]), fmt.Sprintf("showing %d of 40 rooms — ↑↓ to scroll", rows); got != want {
		t.Errorf("status %q, want %q", got, want)
	}
	if l.rowOf("room-17") != 3+17 || l.rowOf("room-18") != -1 {
		t.Fatalf("first page:\n%s", l.text())
	}
	// Down to the last row of the page: no scrolling yet; one more scrolls
	// by one.
	for range rows - 1 {
		l.press(tcell.KeyDown, 0)
	}
	if l.rowOf("room-00") != 3 {
		t.Errorf("scrolled before the selection left the page:\n%s", l.text())
	}
	l.press(tcell.KeyRune, 'j')
	if l.rowOf("room-00") != -1 || l.rowOf("› room-18") != 3+rows-1 || l.rowOf("room-01") != 3 {
		t.Errorf("after j past the page:\n%s", l.text())
	}
	l.press(tcell.KeyEnd, 0)
	if l.rowOf("› room-39") != 3+rows-1 || l.rowOf("room-22") != 3 {
		t.Errorf("after End:\n%s", l.text())
	}
	l.press(tcell.KeyRune, 'k')
	if l.rowOf("› room-38") != 3+rows-2 {
		t.Errorf("after k:\n%s", l.text())
	}
	l.press(tcell.KeyPgUp, 0)
	l.press(tcell.KeyHome, 0)
	if l.rowOf("› room-00") != 3 {
		t.Errorf("after Home:\n%s", l.text())
	}
	// A list the server cut to what one reply carries, without the
	// selected room.
	l.press(tcell.KeyEnd, 0)
	l.src.set(manyRooms(10, 40))
	l.refresh()
	if got := squeeze(l.lines()[21]); got != "showing 10 of 40 rooms" {
		t.Errorf("cut list: status %q", got)
	}
	// The selection is clamped into the shorter list.
	if l.rowOf("› room-09") != 3+9 {
		t.Errorf("selection after the list shrank:\n%s", l.text())
	}
}

func TestLobbyScrollsOnResize(t *testing.T) {
	l := startLobby(t, 120, 40, manyRooms(40, 40), LobbyOptions{})
	l.press(tcell.KeyEnd, 0)
	l.scr.SetSize(80, 24)
	if err := l.scr.PostEvent(tcell.NewEventResize(80, 24)); err != nil {
		t.Fatal(err)
	}
	l.waitDraw()
	if y := l.rowOf("› room-39"); y != 3+lobbyRows(24)-1 {
		t.Errorf("after shrinking, the selection is on row %d:\n%s", y, l.text())
	}
}

func TestLobbyKeys(t *testing.T) {
	type key struct {
		k tcell.Key
		r rune
	}
	rk := func(r rune) key { return key{tcell.KeyRune, r} }
	tests := []struct {
		name  string
		list  netcode.RoomList
		keys  []key // handled without ending the lobby
		final key
		want  netcode.RoomRequest
		err   error
	}{
		{"Enter joins the selection", testRooms(), nil, key{tcell.KeyEnter, 0},
			netcode.RoomRequest{Kind: netcode.RoomNamed, Name: "alpha"}, nil},
		{"Down Enter", testRooms(), []key{{tcell.KeyDown, 0}}, key{tcell.KeyEnter, 0},
			netcode.RoomRequest{Kind: netcode.RoomNamed, Name: "bravo"}, nil},
		{"j j k Enter", testRooms(), []key{rk('j'), rk('j'), rk('j'), rk('k')}, key{tcell.KeyEnter, 0},
			netcode.RoomRequest{Kind: netcode.RoomNamed, Name: "secret"}, nil},
		{"Up stops at the top", testRooms(), []key{{tcell.KeyUp, 0}, rk('k')}, key{tcell.KeyEnter, 0},
			netcode.RoomRequest{Kind: netcode.RoomNamed, Name: "alpha"}, nil},
		{"Down stops at the bottom", testRooms(), []key{rk('G'), rk('j'), {tcell.KeyDown, 0}}, key{tcell.KeyEnter, 0},
			netcode.RoomRequest{Kind: netcode.RoomNamed, Name: "echo"}, nil},
		{"s spectates", testRooms(), []key{{tcell.KeyDown, 0}}, rk('s'),
			netcode.RoomRequest{Kind: netcode.RoomNamed, Name: "bravo", Spectate: true}, nil},
		{"n quick match", testRooms(), []key{{tcell.KeyDown, 0}}, rk('n'),
			netcode.RoomRequest{Kind: netcode.RoomQuick}, nil},
		{"Enter on an empty list", netcode.RoomList{Updated: t0}, nil, key{tcell.KeyEnter, 0},
			netcode.RoomRequest{Kind: netcode.RoomQuick}, nil},
		{"Enter while connecting", netcode.RoomList{}, nil, key{tcell.KeyEnter, 0},
			netcode.RoomRequest{Kind: netcode.RoomQuick}, nil},
		{"s on an empty list", netcode.RoomList{Updated: t0}, nil, rk('s'),
			netcode.RoomRequest{Kind: netcode.RoomQuick, Spectate: true}, nil},
		{"q quits", testRooms(), nil, rk('q'), netcode.RoomRequest{}, ErrQuit},
		{"Q quits", testRooms(), nil, rk('Q'), netcode.RoomRequest{}, ErrQuit},
		{"Ctrl-C quits", testRooms(), nil, key{tcell.KeyCtrlC, 0}, netcode.RoomRequest{}, ErrQuit},
		{"Ctrl-C quits a form", testRooms(), []key{rk('c'), rk('x')}, key{tcell.KeyCtrlC, 0}, netcode.RoomRequest{}, ErrQuit},
		{"Esc leaves the form", testRooms(), []key{rk('c'), rk('q'), {tcell.KeyEscape, 0}}, rk('n'),
			netcode.RoomRequest{Kind: netcode.RoomQuick}, nil},
		{"p code", testRooms(), []key{rk('p'), rk('a'), rk('q'), rk('7'), rk('x'), {tcell.KeyBackspace2, 0}, rk(' ')}, key{tcell.KeyEnter, 0},
			netcode.RoomRequest{Kind: netcode.RoomCode, Name: "aq7"}, nil},
		{"Esc leaves the code prompt", testRooms(), []key{rk('p'), rk('z'), {tcell.KeyEscape, 0}, {tcell.KeyDown, 0}}, rk('s'),
			netcode.RoomRequest{Kind: netcode.RoomNamed, Name: "bravo", Spectate: true}, nil},
		{"create with the defaults", testRooms(), []key{rk('c')}, key{tcell.KeyEnter, 0},
			netcode.RoomRequest{Kind: netcode.RoomCreate, Spec: netcode.RoomSpec{Seats: 4}}, nil},
		{"create", testRooms(), []key{rk('c'), rk('m'), rk('y'), rk(' '), rk('q'), {tcell.KeyTab, 0}, rk('6'),
			{tcell.KeyTab, 0}, {tcell.KeyRight, 0}, {tcell.KeyRight, 0}, {tcell.KeyDown, 0}, rk(' ')}, key{tcell.KeyEnter, 0},
			netcode.RoomRequest{Kind: netcode.RoomCreate, Spec: netcode.RoomSpec{Name: "my q", Seats: 6, Bots: 2, Private: true}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := startLobby(t, 80, 24, tt.list, LobbyOptions{})
			for _, k := range tt.keys {
				l.press(k.k, k.r)
			}
			got, err := l.finish(tt.final.k, tt.final.r, 0)
			if !errors.Is(err, tt.err) || (tt.err == nil && err != nil) {
				t.Errorf("error %v, want %v", err, tt.err)
			}
			if got != tt.want {
				t.Errorf("request %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestLobbyEmptyCode: Enter on an empty code asks for one and keeps the
// prompt open.
func TestLobbyEmptyCode(t *testing.T) {
	l := startLobby(t, 80, 24, testRooms(), LobbyOptions{})
	l.press(tcell.KeyRune, 'p')
	if !strings.Contains(l.text(), "join a private room") {
		t.Fatalf("no code prompt:\n%s", l.text())
	}
	l.typeText("  ")
	l.press(tcell.KeyEnter, 0)
	if got := squeeze(l.lines()[22]); got != "type the room's join code first" {
		t.Errorf("error row %q", got)
	}
	l.typeText("K3")
	req, err := l.finish(tcell.KeyEnter, 0, 0)
	if want := (netcode.RoomRequest{Kind: netcode.RoomCode, Name: "K3"}); err != nil || req != want {
		t.Errorf("got %+v, %v; want %+v", req, err, want)
	}
}

func TestLobbyCreateFormBounds(t *testing.T) {
	l := startLobby(t, 80, 24, testRooms(), LobbyOptions{})
	l.press(tcell.KeyRune, 'c')
	form := func() string { return squeeze(l.text()) }
	if !strings.Contains(form(), "create a room") || !strings.Contains(form(), "› name _") {
		t.Fatalf("no create form with the name focused:\n%s", l.text())
	}
	// Seats: 2..8 whatever is pressed.
	l.press(tcell.KeyTab, 0)
	for range 10 {
		l.press(tcell.KeyLeft, 0)
	}
	if !strings.Contains(form(), "› seats ‹ 2 › 2-8") {
		t.Errorf("seats below 2:\n%s", l.text())
	}
	l.press(tcell.KeyRune, '9')
	if !strings.Contains(form(), "seats ‹ 8 ›") {
		t.Errorf("seats 9 not clamped to 8:\n%s", l.text())
	}
	for range 3 {
		l.press(tcell.KeyRune, '+')
	}
	if !strings.Contains(form(), "seats ‹ 8 ›") {
		t.Errorf("seats above 8:\n%s", l.text())
	}
	// Bots: 0..seats-1.
	l.press(tcell.KeyDown, 0)
	for range 10 {
		l.press(tcell.KeyRight, 0)
	}
	if !strings.Contains(form(), "› bots ‹ 7 › 0-7") {
		t.Errorf("bots above seats-1:\n%s", l.text())
	}
	l.press(tcell.KeyRune, '0')
	l.press(tcell.KeyLeft, 0)
	if !strings.Contains(form(), "bots ‹ 0 ›") {
		t.Errorf("bots below 0:\n%s", l.text())
	}
	l.press(tcell.KeyRune, '5')
	// Fewer seats take the bots down with them.
	l.press(tcell.KeyUp, 0)
	l.press(tcell.KeyRune, '3')
	if !strings.Contains(form(), "seats ‹ 3 ›") || !strings.Contains(form(), "bots ‹ 2 › 0-2") {
		t.Errorf("bots not lowered with the seats:\n%s", l.text())
	}
	// Private toggles with the arrows, space, y and n.
	l.press(tcell.KeyBacktab, 0) // wraps from seats to name, then
	l.press(tcell.KeyBacktab, 0) // to ranked (shown no: the room has bots)
	if !strings.Contains(form(), "› ranked ‹ no › never with bots") {
		t.Fatalf("Backtab did not wrap to ranked:\n%s", l.text())
	}
	l.press(tcell.KeyBacktab, 0) // and to private
	if !strings.Contains(form(), "› private ‹ no ›") {
		t.Fatalf("Backtab did not wrap to private:\n%s", l.text())
	}
	for _, k := range []struct {
		k    tcell.Key
		r    rune
		want string
	}{{tcell.KeyRight, 0, "yes"}, {tcell.KeyLeft, 0, "no"}, {tcell.KeyRune, ' ', "yes"}, {tcell.KeyRune, 'n', "no"}, {tcell.KeyRune, 'y', "yes"}} {
		l.press(k.k, k.r)
		if !strings.Contains(form(), "private ‹ "+k.want+" ›") {
			t.Errorf("after %v %q private is not %s:\n%s", k.k, k.r, k.want, l.text())
		}
	}
	// The name is bounded to MaxRoomName bytes.
	l.press(tcell.KeyTab, 0) // ranked
	l.press(tcell.KeyTab, 0) // name
	l.typeText(strings.Repeat("w", MaxRoomName+5))
	req, err := l.finish(tcell.KeyEnter, 0, 0)
	want := netcode.RoomRequest{Kind: netcode.RoomCreate, Spec: netcode.RoomSpec{Name: strings.Repeat("w", MaxRoomName), Seats: 3, Bots: 2, Private: true}}
	if err != nil || req != want {
		t.Errorf("got %+v, %v; want %+v", req, err, want)
	}
}

// TestLobbyFormRanked: a room without bots is created ranked unless the
// ranked field says no, which makes it casual; with bots it is never
// ranked, and the form says so.
func TestLobbyFormRanked(t *testing.T) {
	form := func(l *lobbyLoop) string { return squeeze(l.text()) }
	for _, tc := range []struct {
		keys []rune // typed on the ranked field
		bots int
		want netcode.RoomSpec
		show string
	}{
		{nil, 0, netcode.RoomSpec{Seats: 4}, "ranked ‹ yes › rated on the ladder"},
		{[]rune{'n'}, 0, netcode.RoomSpec{Seats: 4, Casual: true}, "ranked ‹ no › casual: not rated"},
		{[]rune{' ', ' '}, 0, netcode.RoomSpec{Seats: 4}, "ranked ‹ yes › rated on the ladder"},
		{nil, 1, netcode.RoomSpec{Seats: 4, Bots: 1}, "ranked ‹ no › never with bots"},
	} {
		l := startLobby(t, 80, 24, testRooms(), LobbyOptions{})
		l.press(tcell.KeyRune, 'c')
		l.press(tcell.KeyTab, 0)
		l.press(tcell.KeyTab, 0) // bots
		for i := 0; i < tc.bots; i++ {
			l.press(tcell.KeyRight, 0)
		}
		l.press(tcell.KeyTab, 0)
		l.press(tcell.KeyTab, 0) // ranked
		for _, r := range tc.keys {
			l.press(tcell.KeyRune, r)
		}
		if !strings.Contains(form(l), tc.show) {
			t.Errorf("keys %q, %d bots: the form lacks %q:\n%s", tc.keys, tc.bots, tc.show, l.text())
		}
		req, err := l.finish(tcell.KeyEnter, 0, 0)
		if want := (netcode.RoomRequest{Kind: netcode.RoomCreate, Spec: tc.want}); err != nil || req != want {
			t.Errorf("keys %q, %d bots: got %+v, %v; want %+v", tc.keys, tc.bots, req, err, want)
		}
	}
}

// TestLobbyFormFits80x24: the create form is whole at 80x24, in Unicode
// and ASCII.
func TestLobbyFormFits80x24(t *testing.T) {
	for _, ascii := range []bool{false, true} {
		l := startLobby(t, 80, 24, testRooms(), LobbyOptions{Options: Options{ASCII: ascii}})
		l.press(tcell.KeyRune, 'c')
		text := squeeze(l.text())
		for _, want := range []string{"create a room", "name _", "seats", "bots", "private", "ranked", "Enter create", "Esc back"} {
			if !strings.Contains(text, want) {
				t.Errorf("ascii=%v: form lacks %q:\n%s", ascii, want, l.text())
			}
		}
		if ascii {
			assertASCII(t, l.lines())
		}
	}
}

func assertASCII(t *testing.T, lines []string) {
	t.Helper()
	for y, line := range lines {
		for _, r := range line {
			if r > 0x7e {
				t.Errorf("row %d has %q: %q", y, r, line)
				break
			}
		}
	}
}

func TestLobbyASCIIAndNoColor(t *testing.T) {
	l := startLobby(t, 80, 24, testRooms(), LobbyOptions{Options: Options{ASCII: true, NoColor: true}, Notice: "you left room a"})
	assertASCII(t, l.lines())
	if got := squeeze(l.lines()[5]); got != "* secret 2/2 countdown - -" {
		t.Errorf("private row %q", got)
	}
	cells, _, _ := l.scr.GetContents()
	for i, c := range cells {
		if fg, bg, _ := c.Style.Decompose(); fg != tcell.ColorDefault || bg != tcell.ColorDefault {
			t.Fatalf("cell %d,%d has colours %v/%v with NoColor", i%80, i/80, fg, bg)
		}
	}
	// The selection still shows without colour.
	if !reversed(l.scr, 10, 3) {
		t.Error("selected row not reversed without colour")
	}
}

func TestLobbyConnectingNoticeAndError(t *testing.T) {
	l := startLobby(t, 80, 24, netcode.RoomList{}, LobbyOptions{Options: Options{Server: "h:1"},
		Notice: "this room stopped after a server error"})
	if got := squeeze(l.lines()[1]); got != "this room stopped after a server error" {
		t.Errorf("notice row %q", got)
	}
	if !strings.Contains(l.text(), "connecting to h:1…") {
		t.Errorf("no connecting message:\n%s", l.text())
	}
	if got := squeeze(l.lines()[21]); got != "" {
		t.Errorf("status while connecting %q", got)
	}
	// No answer yet: the error shows, still connecting.
	l.src.set(netcode.RoomList{Err: errors.New("no answer from the server for 3s")})
	l.refresh()
	if got := squeeze(l.lines()[22]); got != "no answer from the server for 3s" {
		t.Errorf("error row %q", got)
	}
	if !strings.Contains(l.text(), "connecting to h:1…") {
		t.Errorf("connecting message gone without a list:\n%s", l.text())
	}
	// The list arrives: the error goes, the notice stays.
	l.src.set(testRooms())
	l.refresh()
	if strings.Contains(l.text(), "connecting") || squeeze(l.lines()[22]) != "" {
		t.Errorf("after the list:\n%s", l.text())
	}
	if got := squeeze(l.lines()[1]); got != "this room stopped after a server error" {
		t.Errorf("notice row after keys %q", got)
	}
	// A list gone stale: the rooms stay, with the error under them.
	stale := testRooms()
	stale.Err = errors.New("no answer from the server\x1b[2J for 5s")
	l.src.set(stale)
	l.refresh()
	if got := squeeze(l.lines()[22]); got != "no answer from the server for 5s" {
		t.Errorf("stale error row %q", got)
	}
	if l.rowOf("alpha") != 3 {
		t.Errorf("stale list not shown:\n%s", l.text())
	}
}

func TestLobbyTooSmall(t *testing.T) {
	l := startLobby(t, 75, 24, testRooms(), LobbyOptions{})
	if !strings.Contains(squeeze(l.text()), "terminal too small (need 76x24, have 75x24)") {
		t.Errorf("75x24:\n%s", l.text())
	}
	// 79 columns, where a match has its compact layout, draw the lobby
	// with every column whole but the watching one.
	l.scr.SetSize(79, 24)
	if err := l.scr.PostEvent(tcell.NewEventResize(79, 24)); err != nil {
		t.Fatal(err)
	}
	l.waitDraw()
	if strings.Contains(l.text(), "too small") || l.rowOf("alpha") != 3 || !strings.Contains(l.lines()[2], "leader") {
		t.Errorf("after growing to 79x24:\n%s", l.text())
	}
	l.scr.SetSize(80, 23)
	if err := l.scr.PostEvent(tcell.NewEventResize(80, 23)); err != nil {
		t.Fatal(err)
	}
	l.waitDraw()
	if !strings.Contains(squeeze(l.text()), "terminal too small (need 76x24, have 80x23)") {
		t.Errorf("80x23:\n%s", l.text())
	}
	// Keys still work.
	if _, err := l.finish(tcell.KeyRune, 'q', 0); !errors.Is(err, ErrQuit) {
		t.Errorf("q on the small screen: %v", err)
	}
}

// TestLobbyHostileNames: names are shown cleaned and cut to their column,
// and a pick sends the name as the server sent it.
func TestLobbyHostileNames(t *testing.T) {
	evil := "\x1b[2J\x1b]0;pwned\x07ev\u202eil\r\nroom" + strings.Repeat("x", 60)
	list := netcode.RoomList{Updated: t0, Rooms: []netcode.RoomInfo{
		{Name: evil, Players: 1, Seats: 2, Leader: "\x1b[31mmallory\x00" + strings.Repeat("m", 40), LeaderScore: 4},
	}}
	l := startLobby(t, 80, 24, list, LobbyOptions{Name: "\x1b[5mme", Notice: "left \x07room\x1b[H"})
	lines := l.lines()
	row := lines[3]
	if !strings.Contains(row, "evilroomxxx") || !strings.Contains(row, "…") || !strings.Contains(row, "mallorymm") || !strings.HasSuffix(squeeze(row), "… 4") {
		t.Errorf("hostile row %q", row)
	}
	if got := squeeze(lines[1]); got != "left room" {
		t.Errorf("notice %q", got)
	}
	if !strings.HasSuffix(squeeze(lines[0]), "you are me") {
		t.Errorf("header %q", lines[0])
	}
	req, err := l.finish(tcell.KeyEnter, 0, 0)
	if err != nil || req.Name != evil {
		t.Errorf("pick %q, %v; want the name as sent", req.Name, err)
	}
}

// TestLobbySelectionFollowsRoom: a refresh that reorders the list keeps
// the selection on its room; a room that goes keeps it in the list.
func TestLobbySelectionFollowsRoom(t *testing.T) {
	l := startLobby(t, 80, 24, testRooms(), LobbyOptions{})
	l.press(tcell.KeyDown, 0)
	l.press(tcell.KeyDown, 0) // secret
	list := testRooms()
	list.Rooms[0], list.Rooms[2] = list.Rooms[2], list.Rooms[0]
	l.src.set(list)
	l.refresh()
	if y := l.rowOf("› 🔒 secret"); y != 3 {
		t.Errorf("selection did not follow the room:\n%s", l.text())
	}
	list.Rooms = list.Rooms[1:] // secret goes
	l.src.set(list)
	l.refresh()
	l.press(tcell.KeyRune, 'G')
	l.press(tcell.KeyRune, 'j')
	req, err := l.finish(tcell.KeyEnter, 0, 0)
	if err != nil || req.Name != "echo" {
		t.Errorf("got %+v, %v", req, err)
	}
}

func TestLobbyContext(t *testing.T) {
	l := startLobby(t, 80, 24, testRooms(), LobbyOptions{})
	l.cancel()
	select {
	case res := <-l.result:
		l.result <- res
		if !errors.Is(res.err, context.Canceled) || res.req != (netcode.RoomRequest{}) {
			t.Errorf("got %+v, %v", res.req, res.err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Lobby ignored its context")
	}
}

// TestLobbyPolls: each refresh polls the source and shows what it has.
func TestLobbyPolls(t *testing.T) {
	l := startLobby(t, 80, 24, manyRooms(1, 1), LobbyOptions{})
	l.src.set(manyRooms(3, 3))
	l.refresh()
	if l.rowOf("room-02") != 5 {
		t.Errorf("refresh not shown:\n%s", l.text())
	}
	l.src.mu.Lock()
	polls := l.src.polls
	l.src.mu.Unlock()
	if polls != 2 {
		t.Errorf("%d polls after the first frame and one refresh, want 2", polls)
	}
}

func TestLobbySourceFunc(t *testing.T) {
	var src LobbySource = LobbySourceFunc(func(dst *netcode.RoomList) { dst.Total = 7 })
	var l netcode.RoomList
	src.Rooms(&l)
	if l.Total != 7 {
		t.Errorf("LobbySourceFunc did not call its function")
	}
}

// TestLobbyShowsTheDrain: a list whose rooms are closing (the server
// drains before a restart) puts the restart notice on the notice row,
// over the lobby's own notice, and a waiting room shows as closing.
func TestLobbyShowsTheDrain(t *testing.T) {
	list := testRooms()
	for i := range list.Rooms {
		list.Rooms[i].Closing = true
	}
	l := startLobby(t, 80, 24, list, LobbyOptions{Options: Options{ASCII: true, NoColor: true}, Notice: "you left room a"})
	if got := squeeze(l.lines()[1]); got != DrainingNotice {
		t.Errorf("notice row %q, want %q", got, DrainingNotice)
	}
	if row := l.lines()[l.rowOf("bravo")]; !strings.Contains(row, "closing") {
		t.Errorf("the waiting room's row %q does not say closing", row)
	}
	if row := l.lines()[l.rowOf("alpha")]; !strings.Contains(row, "playing") {
		t.Errorf("the playing room's row %q lost its state", row)
	}
	// Not draining: the lobby's own notice.
	l.src.set(testRooms())
	l.refresh()
	if got := squeeze(l.lines()[1]); got != "you left room a" {
		t.Errorf("notice row after the drain %q", got)
	}
}

// TestLobbyMarksRankedRooms: a ranked room has ★ after its name, cut to
// make room for it on a narrow screen, and the status line says what ★
// means; a list with no ranked room has neither.
func TestLobbyMarksRankedRooms(t *testing.T) {
	list := testRooms()
	list.Rooms[1].Ranked = true                           // bravo
	list.Rooms[4].Name = strings.Repeat("e", MaxRoomName) // 16 cells: the room column's narrowest
	list.Rooms[4].Ranked = true
	l := startLobby(t, 80, 24, list, LobbyOptions{})
	if got, want := squeeze(l.lines()[4]), "bravo ★ 1/2 waiting - · first to 3 -"; got != want {
		t.Errorf("ranked row %q, want %q", got, want)
	}
	if got, want := squeeze(l.lines()[7]), "eeeeeeeeeeeeeeee ★ 3/3 playing 1 · first to 5 -"; got != want {
		t.Errorf("ranked row of a long name at 80 %q, want %q", got, want)
	}
	if got := squeeze(l.lines()[3]); strings.Contains(got, "★") {
		t.Errorf("an unranked room is marked: %q", got)
	}
	if got := squeeze(l.lines()[21]); got != "5 rooms · ★ ranked" {
		t.Errorf("status %q", got)
	}
	// At the lobby's narrowest the long name gives way to the mark.
	l.scr.SetSize(LobbyMinWidth, 24)
	if err := l.scr.PostEvent(tcell.NewEventResize(LobbyMinWidth, 24)); err != nil {
		t.Fatal(err)
	}
	l.waitDraw()
	if got, want := squeeze(l.lines()[7]), "eeeeeeeeeeeee… ★ 3/3 playing 1 · first to 5 -"; got != want {
		t.Errorf("ranked row of a long name at %d %q, want %q", LobbyMinWidth, got, want)
	}
	// ASCII.
	l = startLobby(t, 80, 24, list, LobbyOptions{Options: Options{ASCII: true}})
	if got, want := squeeze(l.lines()[4]), "bravo (r) 1/2 waiting - | first to 3 -"; got != want {
		t.Errorf("ASCII ranked row %q, want %q", got, want)
	}
	if got := squeeze(l.lines()[21]); got != "5 rooms | (r) ranked" {
		t.Errorf("ASCII status %q", got)
	}
	// No ranked room: no legend.
	l = startLobby(t, 80, 24, testRooms(), LobbyOptions{})
	if got := squeeze(l.lines()[21]); got != "5 rooms" {
		t.Errorf("status without ranked rooms %q", got)
	}
}
