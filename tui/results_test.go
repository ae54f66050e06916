package tui

import (
	"fmt"
	"strings"
	"testing"

	"ttytanks/game"
	"ttytanks/netcode"
	"ttytanks/proto"
)

// ratedView is matchOverView once the server rated the match: bob and
// alice rated, carol (a guest) not.
func ratedView(t *testing.T) *netcode.View {
	v := matchOverView(t)
	v.Rated = []proto.RatingChange{
		{Slot: 1, Before: 1500, After: 1662, RD: 290},
		{Slot: 0, Before: 1530, After: 1471, RD: 280},
	}
	return v
}

// TestResultsRatings: a rated match's results show each rated player's
// rating and its change, a dash for a player it did not rate; at 80x24
// the shots give way to the rating, with more room they stay.
func TestResultsRatings(t *testing.T) {
	tests := []struct {
		w, h  int
		shots bool
	}{{80, 24, false}, {160, 50, true}}
	for _, tt := range tests {
		v := ratedView(t)
		scr := drawTest(t, tt.w, tt.h, v, Options{Lobby: true})
		text := strings.Join(screenLines(scr), "\n")
		head, _ := lineWith(scr, "player")
		want := "player wins kills deaths shots hits acc rating rematch"
		if !tt.shots {
			want = "player wins kills deaths hits acc rating rematch"
		}
		if got := squeeze(strings.Trim(head, " │")); got != want {
			t.Errorf("%dx%d: titles %q, want %q", tt.w, tt.h, got, want)
		}
		rows := []struct{ name, want string }{
			{"bob (you)", "1. ♛ bob (you) 5 7 2 80 20 25% 1662 (+162)"},
			{"carol", "2. carol 2 3 6 0 0 — —"},
			{"alice", "3. alice 2 2 5 61 9 14% 1471 (-59) ✓"},
		}
		for _, r := range rows {
			want := r.want
			if !tt.shots {
				want = strings.Replace(strings.Replace(want, " 80 20", " 20", 1), " 61 9", " 9", 1)
				want = strings.Replace(want, "6 0 0", "6 0", 1)
			}
			line, _ := lineWith(scr, r.name)
			if got := squeeze(strings.Trim(line, " │")); got != want {
				t.Errorf("%dx%d: row of %s %q, want %q", tt.w, tt.h, r.name, got, want)
			}
		}
		for _, edge := range []string{"╭", "╰", "r rematch · l lobby · q quit"} {
			if !strings.Contains(text, edge) {
				t.Errorf("%dx%d: the results lack %q:\n%s", tt.w, tt.h, edge, text)
			}
		}
	}
}

// TestResultsUnrated: an unrated match has no rating column.
func TestResultsUnrated(t *testing.T) {
	scr := drawTest(t, 80, 24, matchOverView(t), Options{Lobby: true})
	head, _ := lineWith(scr, "player")
	if got, want := squeeze(strings.Trim(head, " │")), "player wins kills deaths shots hits acc rematch"; got != want {
		t.Errorf("titles %q, want %q", got, want)
	}
	if text := strings.Join(screenLines(scr), "\n"); strings.Contains(text, "rating") || strings.Contains(text, "(+") {
		t.Errorf("an unrated match shows ratings:\n%s", text)
	}
}

// TestResultsSayWhyUnrated: a ranked match the server recorded without
// rating the player (a Rated with nobody, or others, in it) says why
// under the table, as far as the client can tell, whole at 80x24; a
// casual match (no Rated) and a rated player say nothing.
func TestResultsSayWhyUnrated(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(v *netcode.View)
		want string // "": no note
	}{
		{"casual", func(v *netcode.View) { v.Recorded = false }, ""},
		{"rated", func(v *netcode.View) {
			v.Rated = []proto.RatingChange{{Slot: 1, Before: 1500, After: 1662, RD: 290}, {Slot: 0, Before: 1500, After: 1338, RD: 290}}
		}, ""},
		{"opponents are guests", func(v *netcode.View) { v.Names[0], v.Names[2] = "~alice", "~carol" },
			"not rated: your opponents are guests (no player key)"},
		{"opponent is a guest", func(v *netcode.View) {
			v.Names[0] = "~alice"
			v.World.Tanks[2] = game.Tank{}
		}, "not rated: your opponent is a guest (no player key)"},
		{"you are a guest", func(v *netcode.View) { v.Names[1] = "~bob" },
			"not rated: you play as a guest (no player key)"},
		{"you played no round", func(v *netcode.View) {
			v.World.Tanks[1] = game.Tank{Seated: true, AimX: 1}
		}, "not rated: you joined in its last round and played none"},
		{"one address", func(v *netcode.View) {},
			"not rated: players on one address are not rated (serve --trust)"},
		{"an earlier place of yours", func(v *netcode.View) {
			v.Rated = []proto.RatingChange{{Slot: 0, Before: 1500, After: 1662, RD: 290}, {Slot: 2, Before: 1500, After: 1338, RD: 290}}
		}, "not rated: your address (or key) had an earlier place in it"},
		{"watching", func(v *netcode.View) { v.Slot = -1 },
			"not rated: players on one address are not rated (serve --trust)"},
		{"watching guests", func(v *netcode.View) { v.Slot, v.Names[0], v.Names[2] = -1, "~alice", "~carol" },
			"not rated: fewer than two of its players have a player key"},
	} {
		v := matchOverView(t)
		v.Recorded = true
		tc.edit(v)
		if got := unratedNote(v); got != tc.want {
			t.Errorf("%s: note %q, want %q", tc.name, got, tc.want)
		}
		if tc.want == "" {
			continue
		}
		text := strings.Join(screenLines(drawTest(t, 80, 24, v, Options{Lobby: true})), "\n")
		if !strings.Contains(text, tc.want) {
			t.Errorf("%s: the results at 80x24 lack %q:\n%s", tc.name, tc.want, text)
		}
	}
}

// TestResultsRatedFitEightPlayers: 8 rated players with the longest
// names fit 80x24, each row whole.
func TestResultsRatedFitEightPlayers(t *testing.T) {
	v := matchOverView(t)
	w := &v.World
	w.Slots = 8
	for i := 3; i < 8; i++ {
		w.Tanks[i] = w.Tanks[2]
		v.Names[i] = strings.Repeat(string(rune('a'+i)), 16)
	}
	w.Round.MazeW, w.Round.MazeH = 25, 21
	v.Maze.Generate(1, 25, 21)
	if err := w.Validate(); err != nil {
		t.Fatal(err)
	}
	for i := range game.MaxPlayers {
		v.Rated = append(v.Rated, proto.RatingChange{Slot: uint8(i), Before: 2400, After: uint16(2400 + 10*i), RD: 60})
	}
	scr := drawTest(t, 80, 24, v, Options{Lobby: true})
	text := strings.Join(screenLines(scr), "\n")
	for i := range 8 {
		rating := fmt.Sprintf("%d (+%d)", 2400+10*i, 10*i)
		line, _ := lineWith(scr, rating)
		if !strings.Contains(line, slotName(v, i)[:3]) {
			t.Errorf("player %d's rating %s is not on their row: %q", i, rating, line)
		}
	}
	for _, want := range []string{"╭", "╰", "r rematch · l lobby · q quit"} {
		if !strings.Contains(text, want) {
			t.Errorf("lacks %q:\n%s", want, text)
		}
	}
}

// TestWaitingAfterForfeits: a match left to one tank waits for an
// opponent, its score kept; once the server rated it (the others
// forfeited a ranked match) the wait says so, with the rating change,
// and that the next to join starts a new match.
func TestWaitingAfterForfeits(t *testing.T) {
	v := testView(t)
	w := &v.World
	w.Round.Phase, w.Round.Timer, w.Round.Winner = game.PhaseWaiting, 0, -1
	w.NumBullets, w.Bullets = 0, [game.MaxBullets]game.Bullet{}
	w.Tanks[0], w.Tanks[2] = game.Tank{}, game.Tank{} // they left
	if err := w.Validate(); err != nil {
		t.Fatal(err)
	}
	text := strings.Join(screenLines(drawTest(t, 80, 24, v, Options{Lobby: true})), "\n")
	for _, want := range []string{"WAITING FOR AN OPPONENT", "your round wins are kept (5)"} {
		if !strings.Contains(text, want) {
			t.Errorf("the wait lacks %q:\n%s", want, text)
		}
	}
	// Recorded without this player's rating (they shared an address with
	// the one who left, say): settled all the same, and unrated.
	v.Recorded = true
	text = strings.Join(screenLines(drawTest(t, 80, 24, v, Options{Lobby: true})), "\n")
	for _, want := range []string{"THE OTHERS LEFT", "they forfeit: you win, not rated", "whoever joins next starts a new match"} {
		if !strings.Contains(text, want) {
			t.Errorf("the settled, unrated wait lacks %q:\n%s", want, text)
		}
	}
	v.Rated = []proto.RatingChange{{Slot: 2, Before: 1500, After: 1338, RD: 290}}
	v.Rated = append(v.Rated, proto.RatingChange{Slot: 1, Before: 1500, After: 1662, RD: 290})
	text = strings.Join(screenLines(drawTest(t, 80, 24, v, Options{Lobby: true})), "\n")
	for _, want := range []string{"THE OTHERS LEFT", "they forfeit: you win, rated 1662 (+162)", "whoever joins next starts a new match", "l lobby · q quits"} {
		if !strings.Contains(text, want) {
			t.Errorf("the settled wait lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "kept") {
		t.Errorf("a settled match says its score is kept:\n%s", text)
	}
	// A duel's one opponent is not "the others".
	w.Slots = 2
	if err := w.Validate(); err != nil {
		t.Fatal(err)
	}
	text = strings.Join(screenLines(drawTest(t, 80, 24, v, Options{Lobby: true})), "\n")
	if !strings.Contains(text, "YOUR OPPONENT LEFT") || strings.Contains(text, "OTHERS") {
		t.Errorf("the settled duel does not say its one opponent left:\n%s", text)
	}
}

// TestResultsWinnerMarkIsNotTheRankedMark: the lobby marks a ranked room
// with ★; the results mark the match's winner with another glyph, so
// that ★ means one thing, in Unicode and in ASCII.
func TestResultsWinnerMarkIsNotTheRankedMark(t *testing.T) {
	for _, g := range []*glyphs{&unicodeGlyphs, &asciiGlyphs} {
		if g.winner == rankedMark(g) || strings.Contains(rankedMark(g), g.winner) {
			t.Errorf("ascii=%v: the winner's mark %q is the ranked room's %q", g.ascii, g.winner, rankedMark(g))
		}
	}
	text := strings.Join(screenLines(drawTest(t, 80, 24, ratedView(t), Options{Lobby: true})), "\n")
	if strings.Contains(text, "★") {
		t.Errorf("the results show ★, the lobby's ranked mark:\n%s", text)
	}
}
