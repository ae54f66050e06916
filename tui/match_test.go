package tui

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"ttytanks/game"
	"ttytanks/netcode"
)

// The match's screens: the countdown, the results, their keys, and the
// tank of a player who waits for the next round.

// countCells returns how many cells of scr inside f show s in the banner
// style's foreground.
func countCells(scr tcell.SimulationScreen, f rect, s string, st tcell.Style) int {
	n := 0
	for y := f.y; y < f.y+f.h; y++ {
		for x := f.x; x < f.x+f.w; x++ {
			if got, gst := cellAt(scr, x, y); got == s && gst == st {
				n++
			}
		}
	}
	return n
}

func TestCountdownDrawnBigOnTheMap(t *testing.T) {
	// Lit pixels of each character in bigFont.
	pixels := map[string]int{"3": 10, "2": 11, "1": 8, "GO": 11 + 12, "": 0}
	tests := []struct {
		phase game.Phase
		timer uint16
		want  string
	}{
		{game.PhaseCountdown, game.CountdownTicks, "3"},
		{game.PhaseCountdown, 2*game.TickRate + 1, "3"},
		{game.PhaseCountdown, 2 * game.TickRate, "2"},
		{game.PhaseCountdown, game.TickRate + 1, "2"},
		{game.PhaseCountdown, game.TickRate, "1"},
		{game.PhaseCountdown, 1, "1"},
		{game.PhasePlaying, game.RoundTicks - 1, "GO"},
		{game.PhasePlaying, game.RoundTicks - goTicks + 1, "GO"},
		{game.PhasePlaying, game.RoundTicks - goTicks, ""},
		{game.PhaseOver, game.RoundOverTicks, ""},
	}
	for _, tt := range tests {
		v := testView(t)
		v.World.Round.Phase, v.World.Round.Timer = tt.phase, tt.timer
		if got := countdownText(&v.World.Round); got != tt.want {
			t.Errorf("phase %v timer %d: countdown %q, want %q", tt.phase, tt.timer, got, tt.want)
		}
		// The tanks and bullets are drawn over the countdown: count its
		// cells on an empty map.
		empty := *v
		empty.World.Tanks, empty.World.NumBullets = [game.MaxPlayers]game.Tank{}, 0
		for _, opts := range []Options{{}, {ASCII: true}} {
			th := themeFor(opts)
			scr := drawTest(t, 80, 24, &empty, opts)
			f := computeLayout(80, 24, v).field
			pixel := th.g.bigPixel
			if pixel == "" && tt.want != "" {
				pixel = tt.want[:1]
			}
			n := countCells(scr, f, pixel, th.banner)
			if tt.want == "GO" && opts.ASCII {
				n += countCells(scr, f, "O", th.banner)
			}
			// At 80x24 the test maze is 26x7 cells: the font at its
			// smallest, each pixel 2 cells wide.
			if want := 2 * pixels[tt.want]; n != want {
				t.Errorf("phase %v timer %d (ascii %v): %d cells of %q in the banner style on the map, want %d",
					tt.phase, tt.timer, opts.ASCII, n, pixel, want)
			}
		}
	}
	// The tanks stay in view over the countdown (the middle bar of the 2
	// crosses bob's tile).
	v := testView(t)
	v.World.Round.Phase, v.World.Round.Timer = game.PhaseCountdown, 2*game.TickRate
	f := computeLayout(80, 24, v).field
	scr := drawTest(t, 80, 24, v, Options{})
	var field []string
	for _, l := range screenLines(scr)[f.y : f.y+f.h] {
		field = append(field, string([]rune(l)[f.x:f.x+f.w]))
	}
	for _, glyph := range []string{"→", "↖", "↓"} { // alice, bob, carol
		if !strings.Contains(strings.Join(field, "\n"), glyph) {
			t.Errorf("tank %s is hidden by the countdown:\n%s", glyph, strings.Join(field, "\n"))
		}
	}
	// A larger screen scales the characters up: a 13x7 maze at scale 2 is
	// 52x14 cells, room for pixels of 4x2 cells.
	v.World.Round.Timer = game.CountdownTicks
	v.World.Tanks, v.World.NumBullets = [game.MaxPlayers]game.Tank{}, 0
	scr = drawTest(t, 160, 50, v, Options{})
	f = computeLayout(160, 50, v).field
	if n, want := countCells(scr, f, unicodeGlyphs.bigPixel, themeFor(Options{}).banner), 10*4*2; n != want {
		t.Errorf("160x50: %d cells of the big 3, want %d", n, want)
	}
	// The title says so too.
	if title := screenLines(scr)[f.y-1]; !strings.Contains(title, "ROUND 7") || !strings.Contains(title, "get ready") {
		t.Errorf("title during the countdown: %q", title)
	}
}

func TestTitleShowsRoundsToWin(t *testing.T) {
	v := testView(t)
	v.World.RoundsToWin = 5
	scr := drawTest(t, 80, 24, v, Options{})
	if got := strings.TrimSpace(string([]rune(screenLines(scr)[testOY-1])[:50])); got != "ROUND 7  ·  first to 5 wins  ·  01:23" {
		t.Errorf("title %q", got)
	}
}

// matchOverView is testView once bob (slot 1, us) has won the match at 5
// round wins; alice voted for a rematch.
func matchOverView(t *testing.T) *netcode.View {
	v := testView(t)
	w := &v.World
	w.RoundsToWin = 5
	w.Round.Phase, w.Round.Timer, w.Round.Winner = game.PhaseMatchOver, 0, 1
	w.NumBullets, w.Bullets = 0, [game.MaxBullets]game.Bullet{}
	w.Tanks[1].Score = 5
	w.Tanks[0].Score, w.Tanks[2].Score = 2, 2
	w.Tanks[1].Stats = game.Stats{Kills: 7, Deaths: 2, Shots: 80, Hits: 20}
	w.Tanks[0].Stats = game.Stats{Kills: 2, Deaths: 5, Shots: 61, Hits: 9}
	w.Tanks[2].Stats = game.Stats{Kills: 3, Deaths: 6, Shots: 0, Hits: 0}
	w.Tanks[0].Rematch = true
	if err := w.Validate(); err != nil {
		t.Fatal(err)
	}
	return v
}

// lineWith returns the first screen line containing s, or "".
func lineWith(scr tcell.SimulationScreen, s string) (string, int) {
	for y, l := range screenLines(scr) {
		if strings.Contains(l, s) {
			return l, y
		}
	}
	return "", -1
}

func TestResultsScreen(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 50}} {
		v := matchOverView(t)
		scr := drawTest(t, size[0], size[1], v, Options{Lobby: true})
		text := strings.Join(screenLines(scr), "\n")
		for _, want := range []string{"MATCH OVER — bob wins", "player", "wins", "kills", "deaths", "shots", "hits", "acc",
			"rematch: 1 of 3 voted", "r rematch · l lobby · q quit"} {
			if !strings.Contains(text, want) {
				t.Errorf("%v: the results lack %q:\n%s", size, want, text)
			}
		}
		// Placing: bob (5 wins), then carol (2 wins, 3 kills), then alice
		// (2 wins, 2 kills); the numbers in the columns' order.
		rows := []struct {
			name string
			want []string
		}{
			{"bob (you)", []string{"1.", "♛", "bob", "(you)", "5", "7", "2", "80", "20", "25%"}},
			{"carol", []string{"2.", "carol", "2", "3", "6", "0", "0", "—"}},
			{"alice", []string{"3.", "alice", "2", "2", "5", "61", "9", "14%", "✓"}},
		}
		prev := -1
		for _, r := range rows {
			line, y := lineWith(scr, r.name)
			if got := strings.Fields(strings.Trim(line, " │")); strings.Join(got, " ") != strings.Join(r.want, " ") {
				t.Errorf("%v: row of %s is %q, want %q", size, r.name, got, r.want)
			}
			if y <= prev {
				t.Errorf("%v: %s is not below the player placed above them", size, r.name)
			}
			prev = y
		}
		// The winner's name is highlighted.
		line, y := lineWith(scr, "bob (you)")
		x := len([]rune(line[:strings.Index(line, "bob")]))
		if _, st := cellAt(scr, x, y); attrsOf(st)&tcell.AttrReverse == 0 {
			t.Errorf("%v: the winner's name is not highlighted", size)
		}
		// The whole box is on the screen, and the map is not.
		if _, top := lineWith(scr, "╭"); top < 0 {
			t.Errorf("%v: no top border", size)
		}
		if _, bottom := lineWith(scr, "╰"); bottom < 0 {
			t.Errorf("%v: no bottom border", size)
		}
		if strings.Contains(text, "rollbacks") || strings.Contains(text, "ROUND 7") {
			t.Errorf("%v: the sidebar or the map shows behind the results", size)
		}
	}
	// A spectator has no vote.
	v := matchOverView(t)
	v.Slot = -1
	text := strings.Join(screenLines(drawTest(t, 80, 24, v, Options{Lobby: true})), "\n")
	if !strings.Contains(text, "l lobby · q quit") || strings.Contains(text, "r rematch") || strings.Contains(text, "(you)") {
		t.Errorf("spectator's results:\n%s", text)
	}
	// Our own vote is acknowledged.
	v = matchOverView(t)
	v.World.Tanks[1].Rematch = true
	if text := strings.Join(screenLines(drawTest(t, 80, 24, v, Options{ASCII: true})), "\n"); !strings.Contains(text, "you voted for a rematch - 2 of 3") {
		t.Errorf("after our vote:\n%s", text)
	}
}

// TestResultsFitEightPlayers: 8 seats with the longest names fit 80x24.
func TestResultsFitEightPlayers(t *testing.T) {
	v := matchOverView(t)
	w := &v.World
	w.Slots = 8
	for i := 3; i < 8; i++ {
		w.Tanks[i] = w.Tanks[2]
		w.Tanks[i].Stats.Shots = 65535
		v.Names[i] = strings.Repeat(string(rune('a'+i)), 16)
	}
	w.Round.MazeW, w.Round.MazeH = 25, 21 // room for 8 spawn cells
	v.Maze.Generate(1, 25, 21)
	if err := w.Validate(); err != nil {
		t.Fatal(err)
	}
	scr := drawTest(t, 80, 24, v, Options{Lobby: true})
	text := strings.Join(screenLines(scr), "\n")
	for i := 0; i < 8; i++ {
		if !strings.Contains(text, slotName(v, i)) {
			t.Errorf("player %d (%s) is not listed:\n%s", i, slotName(v, i), text)
		}
	}
	for _, want := range []string{"╭", "╰", "r rematch · l lobby · q quit"} {
		if !strings.Contains(text, want) {
			t.Errorf("lacks %q:\n%s", want, text)
		}
	}
}

func TestRunRematchKeyHoldsTheButton(t *testing.T) {
	l := startLoop(t, matchOverView(t), Options{})
	if l.s.lastInput().Rematch() {
		t.Fatal("the rematch button is held before r")
	}
	l.scr.InjectKey(tcell.KeyRune, 'r', tcell.ModNone)
	l.waitKeys(1)
	if !l.s.lastInput().Rematch() {
		t.Fatal("r on the results screen did not hand over the rematch button")
	}
	for range 3 { // held on every frame, so it goes out with redundancy
		l.advance(HoldFirst)
		l.frame()
		if !l.s.lastInput().Rematch() {
			t.Fatal("the rematch button was let go on a later frame")
		}
	}
	// The next match: the vote is over.
	l.s.mu.Lock()
	l.s.view.World.Round.Phase, l.s.view.World.Round.Timer = game.PhaseCountdown, game.CountdownTicks
	l.s.mu.Unlock()
	l.frame()
	if l.s.lastInput().Rematch() {
		t.Fatal("the rematch button is still held in the next match")
	}
	// r while playing holds nothing, and l does not leave.
	l.scr.InjectKey(tcell.KeyRune, 'r', tcell.ModNone)
	l.scr.InjectKey(tcell.KeyRune, 'l', tcell.ModNone)
	l.waitKeys(2)
	l.frame()
	if l.s.lastInput().Rematch() {
		t.Fatal("r outside the results screen held the rematch button")
	}
}

func TestRunLobbyKey(t *testing.T) {
	l := startLoop(t, matchOverView(t), Options{Lobby: true})
	l.scr.InjectKey(tcell.KeyRune, 'l', tcell.ModNone)
	if err := l.wait(); !errors.Is(err, ErrToLobby) {
		t.Fatalf("l on the results screen: Run returned %v, want ErrToLobby", err)
	}
	if n := l.scr.finiCount(); n != 1 {
		t.Errorf("Fini called %d times, want 1", n)
	}
	// Without a lobby to go back to (play, join --quick), l does nothing
	// and the hint does not offer it.
	l = startLoop(t, matchOverView(t), Options{})
	l.scr.InjectKey(tcell.KeyRune, 'l', tcell.ModNone)
	l.scr.InjectKey(tcell.KeyRune, 'q', tcell.ModNone)
	if err := l.wait(); err != nil {
		t.Fatalf("l then q on the results screen without a lobby: Run returned %v, want nil (q)", err)
	}
	if text := strings.Join(screenLines(drawTest(t, 80, 24, matchOverView(t), Options{})), "\n"); strings.Contains(text, "l lobby") ||
		!strings.Contains(text, "r rematch · q quit") {
		t.Errorf("results without a lobby offer:\n%s", text)
	}
	// q still quits there.
	l = startLoop(t, matchOverView(t), Options{Lobby: true})
	l.scr.InjectKey(tcell.KeyRune, 'q', tcell.ModNone)
	if err := l.wait(); err != nil {
		t.Fatalf("q on the results screen: Run returned %v, want nil", err)
	}
}

// newcomerView is testView with dave seated in slot 3 during the round:
// his tank waits, unspawned, at (0, 0).
func newcomerView(t *testing.T) *netcode.View {
	v := testView(t)
	v.World.Slots = 4
	v.World.Tanks[3] = game.Tank{Seated: true, AimX: 1}
	v.Names[3], v.Connected[3] = "dave", true
	if v.World.Tanks[3].Spawned() {
		t.Fatal("the newcomer is spawned")
	}
	return v
}

func TestUnspawnedTankNotDrawn(t *testing.T) {
	// mapRows returns the title row and the map of scr as text, with
	// their styles.
	mapRows := func(scr tcell.SimulationScreen, f rect) string {
		var b strings.Builder
		for y := f.y - 1; y < f.y+f.h; y++ {
			for x := f.x; x < f.x+f.w; x++ {
				c, st := cellAt(scr, x, y)
				fmt.Fprintf(&b, "%s%v", c, st)
			}
			b.WriteByte('\n')
		}
		return b.String()
	}
	for _, opts := range []Options{{}, {ASCII: true}} {
		v := newcomerView(t)
		f := computeLayout(80, 24, v).field
		// The map is exactly what it is without the newcomer.
		empty := newcomerView(t)
		empty.World.Tanks[3] = game.Tank{}
		if got, want := mapRows(drawTest(t, 80, 24, v, opts), f), mapRows(drawTest(t, 80, 24, empty, opts), f); got != want {
			t.Errorf("ascii %v: the newcomer changes the map:\n%s\nwithout:\n%s", opts.ASCII, got, want)
		}
		scr := drawTest(t, 80, 24, v, opts)
		if line, _ := lineWith(scr, "dave"); !strings.Contains(line, "joins next") {
			t.Errorf("ascii %v: the roster line of dave is %q, want him waiting for the next round", opts.ASCII, line)
		}
	}

	// The seat changed hands mid-round: its last tank was alive in the
	// previous frame. No burst, no label and no kill for the newcomer:
	// the map is what a fresh renderer draws.
	v := testView(t)
	v.World.Slots = 4
	x, y := at(3, 3)
	v.World.Tanks[3] = game.Tank{X: x, Y: y, AimX: 1, HP: 3, Alive: true, Seated: true}
	v.Names[3] = "eve"
	scr := newScreen(t, 80, 24)
	r := NewRenderer(scr, Options{})
	r.Draw(v)
	v2 := newcomerView(t)
	f := computeLayout(80, 24, v2).field
	for k := 1; k <= 20; k++ {
		v2.World.Tick = v.World.Tick + game.Tick(k)
		r.Draw(v2)
		if got, want := mapRows(scr, f), mapRows(drawTest(t, 80, 24, v2, Options{}), f); got != want {
			t.Fatalf("%d ticks after the seat changed hands, the map is not what a fresh renderer draws:\n%s\nfresh:\n%s", k, got, want)
		}
	}
	for _, line := range r.feed.last(FeedLen) {
		if strings.Contains(line, "destroyed") {
			t.Errorf("feed line %q for a seat that changed hands", line)
		}
	}
}

func attrsOf(st tcell.Style) tcell.AttrMask {
	_, _, a := st.Decompose()
	return a
}
