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
	"ttytanks/proto"
)

// ladderAsk is one AskLadder call.
type ladderAsk struct {
	offset, count int
	forget        bool
}

// fakeLadder is a LobbyLadder: it records what it is asked (the pages;
// questions for the player's card alone, the header's, it counts), and
// its view holds what the test says the server answered.
type fakeLadder struct {
	mu    sync.Mutex
	asks  []ladderAsk
	cards int
	view  netcode.LadderView
	asked chan ladderAsk // each ask of a page, when not nil
}

func (f *fakeLadder) AskLadder(offset, count int, forget bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	a := ladderAsk{offset, count, forget}
	f.view.Asking, f.view.Unanswered = true, false
	if a == (ladderAsk{}) {
		f.cards++
		return
	}
	f.asks = append(f.asks, a)
	if f.asked != nil {
		f.asked <- a
	}
}

func (f *fakeLadder) View(dst *netcode.View) {
	f.mu.Lock()
	defer f.mu.Unlock()
	dst.Ladder = f.view
}

// answer makes p the server's answer to the question out.
func (f *fakeLadder) answer(p proto.LadderPage) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.view = netcode.LadderView{Has: true, Page: p, At: t0}
}

// set makes v what the view holds.
func (f *fakeLadder) set(v netcode.LadderView) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.view = v
}

// calls returns the asks so far.
func (f *fakeLadder) calls() []ladderAsk {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]ladderAsk(nil), f.asks...)
}

// testCard is alice's card: ranked 7th, 1612 ± 2·74.
func testCard() proto.LadderCard {
	return proto.LadderCard{
		LadderLine: proto.LadderLine{Rank: 7, Rating: 1612, RD: 74, Matches: 31, Wins: 12, Name: "alice"},
		RoundWins:  40, Kills: 95, Deaths: 61, Shots: 300, Hits: 102, Seconds: 90 * 60,
	}
}

// testLadderPage is the page of the leaderboard from offset (at most
// MaxLadderPage lines) of a ladder of ranked players, alice 7th, with
// alice's card.
func testLadderPage(offset, ranked int) proto.LadderPage {
	p := proto.LadderPage{Ranked: uint32(ranked), HasCard: true, Card: testCard(), Offset: uint32(offset)}
	for i := offset; i < min(offset+proto.MaxLadderPage, ranked); i++ {
		ln := proto.LadderLine{Rank: uint32(i + 1), Rating: uint16(2100 - 9*i), RD: uint16(50 + i), Matches: uint32(200 - i), Wins: uint32(90 - i), Name: fmt.Sprintf("player%02d", i+1)}
		if i == 6 {
			ln = testCard().LadderLine
		}
		p.Lines = append(p.Lines, ln)
	}
	return p
}

// startLadder opens a lobby at w×h with lad as its ladder and opens the
// leaderboard tab.
func startLadder(t *testing.T, w, h int, lad *fakeLadder, opts LobbyOptions) *lobbyLoop {
	t.Helper()
	opts.Ladder = lad
	l := startLobby(t, w, h, testRooms(), opts)
	l.press(tcell.KeyRune, 'l')
	return l
}

// trimmed is the screen's rows without their trailing spaces.
func (l *lobbyLoop) trimmed() string {
	lines := l.lines()
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	return strings.Join(lines, "\n")
}

// TestLobbyLadderRenders80x24: l opens the leaderboard, which asks for
// its first page; the answer shows as a table with the player's own line
// marked and their card at the bottom, all within 80x24.
func TestLobbyLadderRenders80x24(t *testing.T) {
	lad := &fakeLadder{}
	l := startLadder(t, 80, 24, lad, LobbyOptions{Options: Options{Server: "example.org:7777"}, Name: "alice"})
	if got, want := lad.calls(), []ladderAsk{{0, proto.MaxLadderPage, false}}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("opening the tab asked %v, want %v", got, want)
	}
	if !strings.Contains(l.text(), "asking the server for its leaderboard…") {
		t.Errorf("no word of the question out:\n%s", l.text())
	}
	lad.answer(testLadderPage(0, 57))
	l.refresh()
	want := `ttytanks lobby · server example.org:7777 · ping 23 ms · you are alice

    rank  player                    rating ± 2·RD (95%)  matches   wins
       1  player01                           2100 ± 100      200     90
       2  player02                           2091 ± 102      199     89
       3  player03                           2082 ± 104      198     88
       4  player04                           2073 ± 106      197     87
       5  player05                           2064 ± 108      196     86
       6  player06                           2055 ± 110      195     85
›      7  alice                              1612 ± 148       31     12
       8  player08                           2037 ± 114      193     83
       9  player09                           2028 ± 116      192     82
      10  player10                           2019 ± 118      191     81
      11  player11                           2010 ± 120      190     80
      12  player12                           2001 ± 122      189     79
      13  player13                           1992 ± 124      188     78
      14  player14                           1983 ± 126      187     77
      15  player15                           1974 ± 128      186     76

you: #7 alice 1612 ± 148 · 31 matches · 12 wins · 95 kills · 61 deaths
     34% accuracy · 1h30m played
leaderboard · 1-15 of 57 ranked · ↑↓ to scroll

←→/PgUp/PgDn page · ↑↓ scroll · Tab rooms · n quick · q quit`
	if got := l.trimmed(); got != want {
		t.Errorf("leaderboard at 80x24:\n%s\nwant:\n%s", got, want)
	}
	// The own line is highlighted; the others are not.
	if _, st := cellAt(l.scr, 6, 9); attrsOf(st)&tcell.AttrBold == 0 {
		t.Error("the player's own line is not bold")
	}
	if _, st := cellAt(l.scr, 6, 8); attrsOf(st)&tcell.AttrBold != 0 {
		t.Error("another player's line is bold")
	}
	// ↓ scrolls the page: the 16th line shows, the first goes.
	l.press(tcell.KeyDown, 0)
	if l.rowOf("1 player01") != -1 || l.rowOf("16 player16") != 17 {
		t.Errorf("after ↓:\n%s", l.text())
	}
	if got := squeeze(l.lines()[21]); got != "leaderboard · 2-16 of 57 ranked · ↑↓ to scroll" {
		t.Errorf("status after ↓ %q", got)
	}
}

// TestLobbyLadderPages: the paging keys ask for the page before or
// after, by MaxLadderPage lines, and never past either end; each answer
// shows its own ranks.
func TestLobbyLadderPages(t *testing.T) {
	lad := &fakeLadder{}
	l := startLadder(t, 80, 24, lad, LobbyOptions{})
	// No answer yet: nothing to page through.
	l.press(tcell.KeyPgDn, 0)
	if n := len(lad.calls()); n != 1 {
		t.Fatalf("PgDn before an answer asked: %v", lad.calls())
	}
	lad.answer(testLadderPage(0, 57))
	l.refresh()
	steps := []struct {
		k    tcell.Key
		r    rune
		want int // the offset asked for, -1 none
	}{
		{tcell.KeyPgDn, 0, 20},
		{tcell.KeyRight, 0, 40},
		{tcell.KeyPgDn, 0, -1}, // 60 is past the 57th
		{tcell.KeyLeft, 0, 20},
		{tcell.KeyPgUp, 0, 0},
		{tcell.KeyPgUp, 0, -1}, // before the first
		{tcell.KeyEnd, 0, 40},
		{tcell.KeyRune, 'g', 0},
		{tcell.KeyRune, 'G', 40},
		{tcell.KeyHome, 0, 0},
	}
	for _, s := range steps {
		before := len(lad.calls())
		l.press(s.k, s.r)
		calls := lad.calls()
		switch {
		case s.want < 0 && len(calls) != before:
			t.Errorf("%v %q asked %v, want no question", s.k, s.r, calls[before:])
		case s.want >= 0 && (len(calls) != before+1 || calls[before] != ladderAsk{s.want, proto.MaxLadderPage, false}):
			t.Errorf("%v %q asked %v, want offset %d", s.k, s.r, calls[before:], s.want)
		}
		if len(calls) > before {
			lad.answer(testLadderPage(calls[len(calls)-1].offset, 57))
			l.refresh()
		}
	}
	// The page of ranks 21-40, asked and not yet answered, shows the page
	// before it until its answer comes, and says so.
	l.press(tcell.KeyPgDn, 0)
	if got := squeeze(l.lines()[21]); got != "leaderboard · 1-15 of 57 ranked · ↑↓ to scroll · asking…" {
		t.Errorf("status while the next page is asked %q", got)
	}
	lad.answer(testLadderPage(20, 57))
	l.refresh()
	if l.rowOf("21 player21") != 3 || l.rowOf("35 player35") != 17 {
		t.Errorf("the second page:\n%s", l.text())
	}
	if got := squeeze(l.lines()[21]); got != "leaderboard · 21-35 of 57 ranked · ↑↓ to scroll" {
		t.Errorf("status of the second page %q", got)
	}
	// The last page is short: 17 lines, 15 showing.
	l.press(tcell.KeyEnd, 0)
	lad.answer(testLadderPage(40, 57))
	l.refresh()
	l.press(tcell.KeyRune, 'j')
	l.press(tcell.KeyRune, 'j')
	l.press(tcell.KeyRune, 'j') // no further than the page's end
	if l.rowOf("57 player57") != 17 || l.rowOf("43 player43") != 3 {
		t.Errorf("the last page scrolled to its end:\n%s", l.text())
	}
}

// TestLobbyLadderRefreshes: the tab asks again every LadderRefresh while
// it shows, not while the rooms do, and at once when it opens again.
func TestLobbyLadderRefreshes(t *testing.T) {
	lad := &fakeLadder{}
	l := startLadder(t, 80, 24, lad, LobbyOptions{})
	lad.answer(testLadderPage(0, 57))
	l.press(tcell.KeyPgDn, 0)
	lad.answer(testLadderPage(20, 57))
	l.advance(LadderRefresh - time.Second)
	l.refresh()
	if n := len(lad.calls()); n != 2 {
		t.Fatalf("asked %v within LadderRefresh of the last question", lad.calls())
	}
	l.advance(time.Second)
	l.refresh()
	if got := lad.calls(); len(got) != 3 || got[2] != (ladderAsk{20, proto.MaxLadderPage, false}) {
		t.Fatalf("after LadderRefresh asked %v, want the page shown again", got)
	}
	l.press(tcell.KeyTab, 0)
	if l.rowOf("room players state round leader") != 2 {
		t.Fatalf("Tab did not go back to the rooms:\n%s", l.text())
	}
	l.advance(3 * LadderRefresh)
	l.refresh()
	if n := len(lad.calls()); n != 3 {
		t.Errorf("the rooms tab asked the ladder: %v", lad.calls())
	}
	l.press(tcell.KeyTab, 0)
	if got := lad.calls(); len(got) != 4 || got[3] != (ladderAsk{20, proto.MaxLadderPage, false}) {
		t.Errorf("reopening asked %v, want the page it showed", got)
	}
}

// TestLobbyLadderCard: each state of the ladder and the player's record
// has its own line at the bottom.
func TestLobbyLadderCard(t *testing.T) {
	page := func(edit func(p *proto.LadderPage)) netcode.LadderView {
		p := testLadderPage(0, 57)
		edit(&p)
		return netcode.LadderView{Has: true, Page: p, At: t0}
	}
	tests := []struct {
		name     string
		none     bool // no LobbyLadder
		draining bool // the server drains: every room closing
		view     netcode.LadderView
		guest    bool
		want     string
		table    bool // whether the table shows
	}{
		{"no place", true, false, netcode.LadderView{}, false, "the leaderboard needs a connection to the server", false},
		{"asking", false, false, netcode.LadderView{Asking: true}, false, "asking the server for its leaderboard…", false},
		{"no ladder", false, false, netcode.LadderView{Has: true, Page: proto.LadderPage{Off: true}}, false, "this server keeps no ladder", false},
		{"unanswered", false, false, netcode.LadderView{Unanswered: true}, false, "no answer from the server", false},
		{"draining", false, true, netcode.LadderView{Unanswered: true}, false, "the server is shutting down: its leaderboard answers no more", false},
		{"no record", false, false, page(func(p *proto.LadderPage) { p.HasCard, p.Card = false, proto.LadderCard{} }), false,
			"you: unranked (play a ranked match)", true},
		{"no rated match", false, false, page(func(p *proto.LadderPage) {
			p.Card = proto.LadderCard{LadderLine: proto.LadderLine{Name: "alice", Rating: 1500, RD: 350}}
		}), false,
			"you: unranked (play a ranked match)", true},
		{"guest", false, false, page(func(p *proto.LadderPage) { p.HasCard, p.Card = false, proto.LadderCard{} }), true,
			"guest: play with a player key to be ranked", true},
		{"ranked", false, false, page(func(*proto.LadderPage) {}), false,
			"you: #7 alice 1612 ± 148 · 31 matches · 12 wins · 95 kills · 61 deaths", true},
		{"one match, no shot", false, false, page(func(p *proto.LadderPage) {
			p.Card = proto.LadderCard{LadderLine: proto.LadderLine{Rank: 40, Rating: 1540, RD: 300, Matches: 1, Wins: 1, Name: "alice"}, Kills: 1, Seconds: 45}
		}), false, "you: #40 alice 1540 ± 600 · 1 match · 1 win · 1 kill · 0 deaths · 45s played", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := LobbyOptions{Guest: tt.guest}
			var l *lobbyLoop
			if tt.none {
				l = startLobby(t, 80, 24, testRooms(), opts)
				l.press(tcell.KeyRune, 'l')
			} else {
				lad := &fakeLadder{}
				opts.Ladder = lad
				rooms := testRooms()
				for i := range rooms.Rooms {
					rooms.Rooms[i].Closing = tt.draining
				}
				l = startLobby(t, 80, 24, rooms, opts)
				l.press(tcell.KeyRune, 'l')
				lad.set(tt.view)
				l.refresh()
			}
			if got := squeeze(l.lines()[19]); got != tt.want {
				t.Errorf("card %q, want %q\n%s", got, tt.want, l.text())
			}
			if got := l.rowOf("rank player rating"); (got == 2) != tt.table {
				t.Errorf("table shown %v, want %v:\n%s", got == 2, tt.table, l.text())
			}
		})
	}
	// Nobody ranked yet.
	lad := &fakeLadder{}
	l := startLadder(t, 80, 24, lad, LobbyOptions{})
	lad.answer(proto.LadderPage{})
	l.refresh()
	if got := squeeze(l.lines()[3]); got != "nobody is ranked yet — play a match in a ranked room (★)" {
		t.Errorf("empty ladder: %q", got)
	}
	// A page shown, then a question unanswered: the page stays, the
	// error line says so.
	lad.set(netcode.LadderView{Has: true, Page: testLadderPage(0, 57), Unanswered: true})
	l.refresh()
	if got := squeeze(l.lines()[22]); got != "no answer from the server — showing the last page it sent" || l.rowOf("1 player01") != 3 {
		t.Errorf("unanswered refresh: error row %q\n%s", got, l.text())
	}
}

// TestLobbyLadderKeys: Tab, l and Esc go back to the rooms, n is a quick
// match and q quits from the leaderboard; the room keys do nothing there.
func TestLobbyLadderKeys(t *testing.T) {
	for _, k := range []struct {
		k tcell.Key
		r rune
	}{{tcell.KeyTab, 0}, {tcell.KeyBacktab, 0}, {tcell.KeyEscape, 0}, {tcell.KeyRune, 'l'}} {
		l := startLadder(t, 80, 24, &fakeLadder{}, LobbyOptions{})
		l.press(k.k, k.r)
		if l.rowOf("› alpha") != 3 {
			t.Errorf("%v %q did not go back to the rooms:\n%s", k.k, k.r, l.text())
		}
	}
	l := startLadder(t, 80, 24, &fakeLadder{}, LobbyOptions{})
	for _, r := range "scp" {
		l.press(tcell.KeyRune, r)
	}
	l.press(tcell.KeyEnter, 0)
	if squeeze(l.lines()[21]) != "leaderboard" || strings.Contains(l.text(), "create a room") {
		t.Errorf("room keys acted on the leaderboard:\n%s", l.text())
	}
	if req, err := l.finish(tcell.KeyRune, 'n', 0); err != nil || req != (netcode.RoomRequest{Kind: netcode.RoomQuick}) {
		t.Errorf("n on the leaderboard: %+v, %v", req, err)
	}
	l = startLadder(t, 80, 24, &fakeLadder{}, LobbyOptions{})
	if _, err := l.finish(tcell.KeyRune, 'q', 0); !errors.Is(err, ErrQuit) {
		t.Errorf("q on the leaderboard: %v", err)
	}
}

// TestLobbyLadderWithChat: with the chat, the leaderboard keeps the
// chat's rows and t talks from it; the page scrolls in fewer rows.
func TestLobbyLadderWithChat(t *testing.T) {
	chat := &fakeLobbyChat{}
	chat.view.Chat[0] = netcode.ChatEntry{Seq: 1, From: -1, Name: "ann", Text: "gg"}
	chat.view.ChatN, chat.view.ChatTotal = 1, 1
	lad := &fakeLadder{}
	l := startLadder(t, 80, 24, lad, LobbyOptions{Chat: chat})
	lad.answer(testLadderPage(0, 57))
	l.refresh()
	lines := l.lines()
	if l.rowOf("11 player11") != 13 || l.rowOf("12 player12") != -1 {
		t.Errorf("lines with the chat:\n%s", l.text())
	}
	if got := squeeze(lines[15]); !strings.HasPrefix(got, "you: #7 alice") {
		t.Errorf("card row %q", got)
	}
	if l.rowOf("ann: gg") != 19 || !strings.HasSuffix(squeeze(lines[23]), "t chat · q quit") {
		t.Errorf("no chat on the leaderboard:\n%s", l.text())
	}
	l.press(tcell.KeyRune, 't')
	l.typeText("nice")
	if !strings.Contains(l.text(), "say: nice_") {
		t.Errorf("t does not talk from the leaderboard:\n%s", l.text())
	}
}

// TestLobbyLadderASCII: the leaderboard in ASCII says ± as +-.
func TestLobbyLadderASCII(t *testing.T) {
	lad := &fakeLadder{}
	l := startLadder(t, 80, 24, lad, LobbyOptions{Options: Options{ASCII: true, NoColor: true}})
	lad.answer(testLadderPage(0, 57))
	l.refresh()
	assertASCII(t, l.lines())
	if got := squeeze(l.lines()[2]); got != "rank player rating +-2RD (95%) matches wins" {
		t.Errorf("titles %q", got)
	}
	if got := squeeze(l.lines()[19]); got != "you: #7 alice 1612 +- 148 | 31 matches | 12 wins | 95 kills | 61 deaths" {
		t.Errorf("card %q", got)
	}
}

// TestLobbyLadderTinyScreens: the lobby on the leaderboard, with and
// without a page, chat and card, draws on every screen from 0x0 to
// 100x30 without a panic, the screen's own and within the too-small
// limit (drawn directly).
func TestLobbyLadderTinyScreens(t *testing.T) {
	l := startLadder(t, 20, 5, &fakeLadder{}, LobbyOptions{})
	if !strings.Contains(squeeze(l.text()), "too small") {
		t.Errorf("20x5:\n%s", l.text())
	}
	lad := &fakeLadder{}
	lad.answer(testLadderPage(40, 57))
	chat := &fakeLobbyChat{}
	chat.view.Chat[0] = netcode.ChatEntry{Seq: 1, From: -1, Name: "ann", Text: "gg"}
	chat.view.ChatN, chat.view.ChatTotal = 1, 1
	for _, opts := range []LobbyOptions{{Ladder: lad}, {Ladder: lad, Chat: chat}, {}} {
		scr := newScreen(t, 100, 30)
		r := NewRenderer(scr, opts.Options)
		lb := newLobby(opts)
		lb.list = testRooms()
		lb.chatPoll()
		lb.openLadder(t0)
		for w := 0; w <= 100; w += 3 {
			for h := 0; h <= 30; h++ {
				scr.SetSize(w, h)
				lb.draw(r)
				r.begin(w, h)
				lb.drawList(r, w, h) // under the too-small limit too
				r.end()
				lb.ladder.scroll(5)
			}
		}
	}
}

// TestPlayLadderFromChatPlace: Play hands the lobby its chat's place as
// the leaderboard's when the place can ask.
func TestPlayLadderFromChatPlace(t *testing.T) {
	lad := &fakeLadder{asked: make(chan ladderAsk, 4)}
	place := &ladderPlace{fakeLobbyChat: &fakeLobbyChat{}, fakeLadder: lad}
	scr := &keyedScreen{SimulationScreen: tcell.NewSimulationScreen("UTF-8"), keys: "lq"}
	h := &chatHost{fakeRooms: &fakeRooms{list: testRooms()}, place: place}
	if err := Play(context.Background(), scr, h, Options{}, LobbyOptions{}); err != nil {
		t.Fatalf("Play: %v", err)
	}
	select {
	case a := <-lad.asked:
		if a != (ladderAsk{0, proto.MaxLadderPage, false}) {
			t.Errorf("asked %v", a)
		}
	default:
		t.Error("l in Play's lobby did not ask the chat's place for the ladder")
	}
	if !place.left {
		t.Error("the lobby's place was not given up")
	}
}

// ladderPlace is a lobby chat place that asks for the ladder too.
type ladderPlace struct {
	*fakeLobbyChat
	*fakeLadder
	left bool
}

func (p *ladderPlace) View(dst *netcode.View) { p.fakeLadder.View(dst) }
func (p *ladderPlace) Leave()                 { p.left = true }

// chatHost is a LobbyChatHost whose chat is place; it joins no room.
type chatHost struct {
	*fakeRooms
	place LobbyChatPlace
}

func (h *chatHost) Join(netcode.RoomRequest) (Seat, error) { return nil, errors.New("no rooms here") }
func (h *chatHost) LobbyChat() (LobbyChatPlace, error)     { return h.place, nil }

// keyedScreen is a simulation screen that has keys typed once it is
// initialised.
type keyedScreen struct {
	tcell.SimulationScreen
	keys string
}

func (s *keyedScreen) Init() error {
	if err := s.SimulationScreen.Init(); err != nil {
		return err
	}
	s.SetSize(80, 24)
	for _, r := range s.keys {
		s.InjectKey(tcell.KeyRune, r, tcell.ModNone)
	}
	return nil
}

// TestLobbyLadderFitsNarrowest: at LobbyMinWidth×LobbyMinHeight the
// leaderboard, its card and its keys show whole (nothing cut with an
// ellipsis), with the chat, in Unicode and ASCII.
func TestLobbyLadderFitsNarrowest(t *testing.T) {
	for _, ascii := range []bool{false, true} {
		lad := &fakeLadder{}
		l := startLadder(t, LobbyMinWidth, LobbyMinHeight, lad, LobbyOptions{Options: Options{ASCII: ascii}, Chat: &fakeLobbyChat{}})
		p := testLadderPage(0, 57)
		p.Lines[0].Name = strings.Repeat("w", proto.MaxNameLen)
		p.Card.Name = strings.Repeat("v", proto.MaxNameLen)
		lad.answer(p)
		l.refresh()
		ell := "…"
		if ascii {
			ell = "~"
		}
		if text := l.text(); strings.Contains(text, ell) {
			t.Errorf("ascii=%v: something is cut at %dx%d:\n%s", ascii, LobbyMinWidth, LobbyMinHeight, text)
		}
		for _, want := range []string{strings.Repeat("w", proto.MaxNameLen), "1h30m played", "q quit"} {
			if !strings.Contains(l.text(), want) {
				t.Errorf("ascii=%v: lacks %q:\n%s", ascii, want, l.text())
			}
		}
	}
}

// TestLobbyHeaderNamesThePlayerAsTheLadderKnowsThem: the lobby asks the
// ladder once for the player's card; the header then names them as the
// server knows them: the name their key holds rather than the one typed
// (or the default), a guest as ~name, and the typed name where the
// server has no ladder or no record of them.
func TestLobbyHeaderNamesThePlayerAsTheLadderKnowsThem(t *testing.T) {
	tests := []struct {
		about  string
		guest  bool
		answer *proto.LadderPage
		want   string
	}{
		{"before an answer", false, nil, "you are player"},
		{"a record", false, &proto.LadderPage{Ranked: 3, HasCard: true, Card: testCard()}, "you are alice"},
		{"no record", false, &proto.LadderPage{Ranked: 3}, "you are player"},
		{"a guest", true, &proto.LadderPage{Ranked: 3}, "you are ~player"},
		{"no ladder", true, &proto.LadderPage{Off: true}, "you are player"},
	}
	for _, tt := range tests {
		lad := &fakeLadder{}
		l := startLobby(t, 80, 24, testRooms(), LobbyOptions{Name: "player", Guest: tt.guest, Ladder: lad})
		if tt.answer != nil {
			lad.answer(*tt.answer)
		}
		l.refresh()
		l.refresh()
		head := squeeze(l.lines()[0])
		if !strings.HasSuffix(head, tt.want) {
			t.Errorf("%s: header %q, want it to end %q", tt.about, head, tt.want)
		}
		lad.mu.Lock()
		if lad.cards != 1 || len(lad.asks) != 0 {
			t.Errorf("%s: asked %d cards and pages %v, want one card", tt.about, lad.cards, lad.asks)
		}
		lad.mu.Unlock()
	}
}
