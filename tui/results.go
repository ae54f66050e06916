package tui

import (
	"sort"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"ttytanks/game"
	"ttytanks/netcode"
)

// resultsHint is the key help under the results of a match; l (back to
// the lobby) only when the game was opened from one.
func resultsHint(g *glyphs, spectating, lobby bool) string {
	sep := " " + g.dot + " "
	s := ""
	if !spectating {
		s = "r rematch" + sep
	}
	if lobby {
		s += "l lobby" + sep
	}
	return s + "q quit"
}

// matchOver reports whether v shows a match that is over: the results
// screen is up and the rematch and lobby keys work.
func matchOver(v *netcode.View) bool {
	return v.Status == netcode.StatusPlaying && v.World.Round.Phase == game.PhaseMatchOver
}

// standing is one player's line on the results screen.
type standing struct {
	slot  int
	place int // 1 for the best; equal records share a place
	tank  *game.Tank
}

// standings returns the seated players ordered by placing: round wins,
// then kills, then fewest deaths; slot order among equals, who share a
// place.
func standings(w *game.Snapshot) []standing {
	var out []standing
	for i := range min(int(w.Slots), game.MaxPlayers) {
		if w.Tanks[i].Seated {
			out = append(out, standing{slot: i, tank: &w.Tanks[i]})
		}
	}
	better := func(a, b *game.Tank) bool {
		switch {
		case a.Score != b.Score:
			return a.Score > b.Score
		case a.Stats.Kills != b.Stats.Kills:
			return a.Stats.Kills > b.Stats.Kills
		}
		return a.Stats.Deaths < b.Stats.Deaths
	}
	sort.SliceStable(out, func(i, j int) bool { return better(out[i].tank, out[j].tank) })
	for k := range out {
		out[k].place = k + 1
		if k > 0 && !better(out[k-1].tank, out[k].tank) {
			out[k].place = out[k-1].place
		}
	}
	return out
}

// accuracy is hits as a whole percentage of shots, or a dash without a
// shot.
func accuracy(st game.Stats, g *glyphs) string {
	if st.Shots == 0 {
		return g.dash
	}
	return strconv.Itoa(int(st.Hits)*100/int(st.Shots)) + "%"
}

// Widths of the results table's columns, in cells.
const (
	resPlaceW = 3 // "1." and a space
	resMarkW  = 2 // the winner's star and a space
	resNameW  = 16
)

var resColumns = [...]struct {
	head string
	w    int
}{{"wins", 5}, {"kills", 6}, {"deaths", 7}, {"shots", 6}, {"hits", 5}, {"acc", 5}, {"rating", 12}, {"rematch", 8}}

// The results table's columns, in resColumns order.
const (
	resWins = iota
	resKills
	resDeaths
	resShots
	resHits
	resAcc
	resRating
	resRematch
	numResColumns
)

// resShown returns the columns the results table shows in room cells:
// the rating only for a rated match (v.Rated), and without the shots
// when that does not fit (the accuracy says the most of them).
func resShown(v *netcode.View, room int) []int {
	cols := make([]int, 0, numResColumns)
	width := resPlaceW + resMarkW + resNameW
	for c := range numResColumns {
		if c == resRating && len(v.Rated) == 0 {
			continue
		}
		cols = append(cols, c)
		width += resColumns[c].w
	}
	if width > room {
		for k, c := range cols {
			if c == resShots {
				cols = append(cols[:k], cols[k+1:]...)
				break
			}
		}
	}
	return cols
}

// ratingChange is the rated match's change of slot's rating, "1662
// (+162)", or a dash for a player it did not rate (a guest).
func ratingChange(v *netcode.View, slot int, g *glyphs) string {
	for _, c := range v.Rated {
		if int(c.Slot) != slot {
			continue
		}
		d := int(c.After) - int(c.Before)
		sign := "+"
		if d < 0 {
			sign = "-"
		}
		return strconv.Itoa(int(c.After)) + " (" + sign + strconv.Itoa(abs(d)) + ")"
	}
	return g.dash
}

// unratedNote is the line under the results of a ranked match that the
// server recorded without rating the viewer (PROTOCOL.md §4.15: a Rated
// of the match came, without their slot), saying why as far as the view
// can tell: the viewer's tank never spawned (they took a seat in the last
// round), a guest's name (~name) on their side or on every opponent's,
// or, with keys on both sides, the rule that rates one address's players
// (or one key's places) once. "" when the viewer was rated, for a match
// not recorded (casual), and for a rated match watched.
func unratedNote(v *netcode.View) string {
	if !v.Recorded {
		return ""
	}
	w := &v.World
	me := v.Slot >= 0 && v.Slot < int(w.Slots) && v.Slot < game.MaxPlayers
	for _, c := range v.Rated {
		if !me || int(c.Slot) == v.Slot {
			return ""
		}
	}
	guest := func(i int) bool { return strings.HasPrefix(v.Names[i], "~") }
	if me {
		switch {
		case !w.Tanks[v.Slot].Spawned():
			return "not rated: you joined in its last round and played none"
		case guest(v.Slot):
			return "not rated: you play as a guest (no player key)"
		}
	}
	others, keyed := 0, 0 // who played it, besides the viewer; with a key
	for i := range min(int(w.Slots), game.MaxPlayers) {
		if i == v.Slot || !w.Tanks[i].Spawned() {
			continue
		}
		others++
		if !guest(i) {
			keyed++
		}
	}
	switch {
	case !me && keyed < 2:
		return "not rated: fewer than two of its players have a player key"
	case me && others == 1 && keyed == 0:
		return "not rated: your opponent is a guest (no player key)"
	case me && keyed == 0:
		return "not rated: your opponents are guests (no player key)"
	case len(v.Rated) > 0:
		return "not rated: your address (or key) had an earlier place in it"
	}
	return "not rated: players on one address are not rated (serve --trust)"
}

// abs is |n|.
func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// padLeft right-aligns s in w cells.
func padLeft(s string, w int) string { return strings.Repeat(" ", max(w-textWidth(s), 0)) + s }

// padRight left-aligns s in w cells.
func padRight(s string, w int) string { return s + strings.Repeat(" ", max(w-textWidth(s), 0)) }

// resultsPanel is the box shown when the match is over: the winner, a
// table of every seated player by placing (round wins, kills, deaths,
// shots, hits, accuracy, the rating after a rated match and its change,
// and whether they voted for a rematch), the rematch tally (under a line
// saying why the viewer was not rated in a ranked match, unratedNote) and
// the keys. It is at most 71 cells wide (a rated match's drops the shots
// to stay so) and 8 + players rows tall, 9 + players with the note, so it
// fits 80x24 with all 8 seats.
func resultsPanel(t *theme, maxW int, v *netcode.View, lobby bool) string {
	g := t.g
	w := &v.World
	title := "MATCH OVER"
	if wn := int(w.Round.Winner); wn >= 0 && wn < game.MaxPlayers {
		title += " " + g.dash + " " + slotName(v, wn) + " wins"
	}
	cols := resShown(v, maxW-t.panel.GetHorizontalFrameSize())
	var head strings.Builder
	head.WriteString(strings.Repeat(" ", resPlaceW+resMarkW) + padRight("player", resNameW))
	for _, c := range cols {
		head.WriteString(padLeft(resColumns[c].head, resColumns[c].w))
	}
	lines := []string{t.label.Render(head.String())}
	votes, seated := 0, 0
	for _, s := range standings(w) {
		tk, i := s.tank, s.slot
		seated++
		mark, voted := " ", ""
		if i == int(w.Round.Winner) {
			mark = g.winner
		}
		if tk.Rematch {
			votes++
			voted = g.voted
		}
		name := truncate(slotName(v, i), resNameW, g.ellipsis)
		if i == v.Slot {
			name = truncate(slotName(v, i), resNameW-6, g.ellipsis) + " (you)"
		}
		nameSt := t.slotName[i]
		if i == int(w.Round.Winner) {
			nameSt = nameSt.Bold(true).Reverse(true)
		}
		var row strings.Builder
		row.WriteString(t.value.Render(padRight(strconv.Itoa(s.place)+".", resPlaceW)))
		row.WriteString(t.value.Render(padRight(mark, resMarkW)))
		row.WriteString(nameSt.Render(name) + strings.Repeat(" ", max(resNameW-textWidth(name), 0)))
		st := tk.Stats
		vals := [numResColumns]string{strconv.Itoa(int(tk.Score)), strconv.Itoa(int(st.Kills)), strconv.Itoa(int(st.Deaths)),
			strconv.Itoa(int(st.Shots)), strconv.Itoa(int(st.Hits)), accuracy(st, g), "", voted}
		if len(v.Rated) > 0 {
			vals[resRating] = ratingChange(v, i, g)
		}
		for _, c := range cols {
			row.WriteString(t.value.Render(padLeft(vals[c], resColumns[c].w)))
		}
		lines = append(lines, row.String())
	}
	table := lipgloss.JoinVertical(lipgloss.Left, lines...)
	tally := "rematch: " + strconv.Itoa(votes) + " of " + strconv.Itoa(seated) + " voted"
	if v.Slot >= 0 && v.Slot < int(w.Slots) && w.Tanks[v.Slot].Rematch {
		tally = "you voted for a rematch " + g.dash + " " + strconv.Itoa(votes) + " of " + strconv.Itoa(seated)
	}
	foot := t.label.Render(tally)
	if note := unratedNote(v); note != "" {
		foot = t.label.Render(truncate(note, maxW-t.panel.GetHorizontalFrameSize(), g.ellipsis)) + "\n" + foot
	}
	return renderPanel(t, maxW, title, table, foot, t.value.Render(resultsHint(g, v.Slot < 0, lobby)))
}
