package tui

import (
	"strconv"
	"strings"
)

// The leaderboard tab's rows below the header and the notice: the
// table's column titles, its lines, a blank row, the player's card (two
// rows: it wraps on a narrow screen), then the chat and the footer.
const (
	ladderIndent = 2 // the own line's mark and a space
	ladderCardH  = 2
)

// ladderColumns are the leaderboard's columns; the rating's title is
// ladderRatingTitle's.
var ladderColumns = []column{
	{title: "rank", min: 5, max: 6, right: true},
	{title: "player", min: 16, max: 24},
	{title: "rating", min: 19, max: 19, right: true},
	{title: "matches", min: 7, max: 7, right: true},
	{title: "wins", min: 5, max: 5, right: true},
}

// ladderRatingTitle says what the rating's ± is: twice the rating
// deviation, Glicko's 95% interval.
func ladderRatingTitle(g *glyphs) string {
	if g.ascii {
		return "rating +-2RD (95%)"
	}
	return "rating ± 2·RD (95%)"
}

// fmtRating is a rating and its 95% interval: "1612 ± 148".
func fmtRating(rating, rd uint16, g *glyphs) string {
	pm := " ± "
	if g.ascii {
		pm = " +- "
	}
	return strconv.Itoa(int(rating)) + pm + strconv.Itoa(2*int(rd))
}

// fmtPlayed is time on the field: "1h30m", "12m", "40s".
func fmtPlayed(seconds uint32) string {
	h, m, s := seconds/3600, seconds/60%60, seconds%60
	switch {
	case h > 0:
		return strconv.Itoa(int(h)) + "h" + strconv.Itoa(int(m)) + "m"
	case m > 0:
		return strconv.Itoa(int(m)) + "m"
	}
	return strconv.Itoa(int(s)) + "s"
}

// ladderLinesH is how many leaderboard lines show on a screen h rows
// high with chatH rows of chat.
func ladderLinesH(h, chatH int) int {
	return max(h-lobbyFooterH-chatH-ladderCardH-1-lobbyRowsY, 1)
}

// ladderCard is the player's own card as text: the parts the card's rows
// are made of, the first of them after its label ("you: ", "guest: ").
// No parts: nothing to say yet.
func (l *lobby) ladderCard(g *glyphs) (label string, parts []string) {
	lv := l.ladder.ladderView()
	switch {
	case l.opts.Ladder == nil:
		return "", []string{"the leaderboard needs a connection to the server"}
	case closedWhy(&l.ladder.view) != "":
		return "", []string{"no leaderboard: " + placeOff}
	case lv.Has && lv.Page.Off:
		return "", []string{"this server keeps no ladder"}
	case !lv.Has && lv.Unanswered && l.list.Draining():
		return "", []string{"the server is shutting down: its leaderboard answers no more"}
	case !lv.Has && lv.Unanswered:
		return "", []string{"no answer from the server"}
	case !lv.Has:
		return "", []string{"asking the server for its leaderboard" + g.ellipsis}
	case !lv.Page.HasCard && l.opts.Guest:
		return "guest: ", []string{"play with a player key to be ranked"}
	case !lv.Page.HasCard || lv.Page.Card.Rank == 0:
		return "you: ", []string{"unranked (play a ranked match)"}
	}
	c := &lv.Page.Card
	matches := strconv.Itoa(int(c.Matches)) + " matches"
	if c.Matches == 1 {
		matches = "1 match"
	}
	parts = []string{
		"#" + strconv.Itoa(int(c.Rank)) + " " + cleanText(c.Name) + " " + fmtRating(c.Rating, c.RD, g),
		matches, plural(int(c.Wins), "win"), plural(int(c.Kills), "kill"), plural(int(c.Deaths), "death"),
	}
	if c.Shots > 0 {
		parts = append(parts, strconv.Itoa(int(uint64(c.Hits)*100/uint64(c.Shots)))+"% accuracy")
	}
	return "you: ", append(parts, fmtPlayed(c.Seconds)+" played")
}

// wrapParts joins parts with sep into at most rows lines of at most w
// cells after an indent of ind cells (the first line's label); what is
// left goes on the last line, cut there.
func wrapParts(parts []string, sep string, ind, w, rows int) []string {
	var lines []string
	line := ""
	for _, p := range parts {
		switch {
		case line == "":
			line = p
		case len(lines) < rows-1 && ind+textWidth(line+sep+p) > w:
			lines = append(lines, line)
			line = p
		default:
			line += sep + p
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// drawLadder draws the leaderboard tab on a w×h screen: the page's
// table, the player's card, the status line and the error line.
func (l *lobby) drawLadder(r *Renderer, look *lobbyLook, w, h int) {
	g := r.t.g
	t := &l.ladder
	lv := t.ladderView()
	t.rows = ladderLinesH(h, l.lobbyChatH())
	lines := t.lines()
	t.scroll(0)

	if lv.Has && !lv.Page.Off {
		widths := fitColumns(ladderColumns, w-ladderIndent, 2)
		titles := []string{"rank", "player", ladderRatingTitle(g), "matches", "wins"}
		r.putCells(ladderIndent, lobbyTitlesY, ladderColumns, widths, titles, look.label, nil)
		if lv.Page.Ranked == 0 {
			r.putSpans(ladderIndent, lobbyRowsY, w-ladderIndent, g.ellipsis,
				span{"nobody is ranked yet " + g.dash + " play a match in a ranked room (" + rankedMark(g) + ")", look.faint})
		}
		card := &lv.Page.Card
		for y := range min(t.rows, len(lines)-t.top) {
			ln := &lines[t.top+y]
			st := look.text
			if lv.Page.HasCard && card.Rank == ln.Rank && card.Name == ln.Name {
				st = look.accent.Bold(true)
				r.putString(0, lobbyRowsY+y, g.you, st, rect{0, lobbyRowsY + y, w, 1})
			}
			cells := []string{strconv.Itoa(int(ln.Rank)), cleanText(ln.Name), fmtRating(ln.Rating, ln.RD, g),
				strconv.Itoa(int(ln.Matches)), strconv.Itoa(int(ln.Wins))}
			r.putCells(ladderIndent, lobbyRowsY+y, ladderColumns, widths, cells, st, nil)
		}
	}

	// The card.
	cardY := h - lobbyFooterH - l.lobbyChatH() - ladderCardH
	label, parts := l.ladderCard(g)
	for k, line := range wrapParts(parts, " "+g.dot+" ", textWidth(label), w, ladderCardH) {
		if k == 0 {
			r.putSpans(0, cardY, w, g.ellipsis, span{label, look.label}, span{line, look.text})
			continue
		}
		r.putSpans(textWidth(label), cardY+k, w-textWidth(label), g.ellipsis, span{line, look.text})
	}

	// The footer.
	status := "leaderboard"
	if n := len(lines); n > 0 {
		first := int(lv.Page.Offset) + t.top
		status += " " + g.dot + " " + strconv.Itoa(first+1) + "-" + strconv.Itoa(first+min(t.rows, n-t.top)) +
			" of " + strconv.Itoa(int(lv.Page.Ranked)) + " ranked"
		if n > t.rows {
			status += " " + g.dot + " " + g.up + g.down + " to scroll"
		}
	}
	if lv.Asking && lv.Has && int(lv.Page.Offset) != t.offset {
		status += " " + g.dot + " asking" + g.ellipsis
	}
	r.putSpans(0, h-3, w, g.ellipsis, span{status, look.label})
	switch {
	case l.hint != "":
		r.putSpans(0, h-2, w, g.ellipsis, span{l.hint, look.err})
	case lv.Has && lv.Unanswered && l.list.Draining():
		r.putSpans(0, h-2, w, g.ellipsis, span{"the server is shutting down " + g.dash + " showing the last page it sent", look.err})
	case lv.Has && lv.Unanswered:
		r.putSpans(0, h-2, w, g.ellipsis, span{"no answer from the server " + g.dash + " showing the last page it sent", look.err})
	case l.list.Err != nil:
		r.putSpans(0, h-2, w, g.ellipsis, span{cleanText(l.list.Err.Error()), look.err})
	}
}

// ladderKeys is the leaderboard tab's key help; every one fits
// LobbyMinWidth.
func ladderKeys(g *glyphs, chat bool) string {
	keys := []string{"←→/PgUp/PgDn page", "↑↓ scroll", "Tab rooms", "n quick", "t chat", "q quit"}
	sep := " " + g.dot + " "
	if g.ascii {
		keys = []string{"left/right page", "up/down scroll", "Tab rooms", "n quick", "t chat", "q quit"}
		sep = ", "
	}
	if !chat {
		keys = append(keys[:4], keys[5])
	}
	return strings.Join(keys, sep)
}
