package tui

import (
	"strconv"
	"strings"
	"sync"

	"github.com/charmbracelet/lipgloss"
	"github.com/gdamore/tcell/v2"

	"ttytanks/netcode"
)

// The lobby's rows on a w×h screen: the header, the notice, the table's
// column titles, then the rooms, and at the bottom the status line ("12
// rooms"), the error line and the keys.
const (
	lobbyHeaderY = 0
	lobbyNoticeY = 1
	lobbyTitlesY = 2
	lobbyRowsY   = 3
	lobbyFooterH = 3 // status, error, keys
	// lobbyIndent is the cells before the first column: the selection
	// mark, a space, the private mark (two cells) and a space.
	lobbyIndent = 5
)

// DrainingNotice is the lobby's notice while the server drains before a
// restart (every room it lists is closing).
const DrainingNotice = "this server is restarting, try again in a minute"

// lobbyRows is how many rooms fit on a screen h rows high.
func lobbyRows(h int) int { return max(h-lobbyRowsY-lobbyFooterH, 1) }

// lobbyColumns are the room table's columns, in lobbyColumn order.
var lobbyColumns = []column{
	{title: "room", min: 16, max: 32},
	{title: "players", min: 12, max: 12},
	{title: "watching", min: 8, max: 8, right: true, drop: 1},
	{title: "state", min: 9, max: 9},
	{title: "round", min: 14, max: 14},
	{title: "leader", min: 12, max: 28},
}

const (
	colRoom = iota
	colPlayers
	colWatching
	colState
	colRound
	colLeader
	numLobbyCols
)

// lobbyLook is the lobby's tcell styles, derived from a theme.
type lobbyLook struct {
	text, title, label, faint, accent, notice, err tcell.Style
	state                                          [netcode.RoomResults + 1]tcell.Style
}

var lobbyLooks struct {
	once [4]sync.Once
	l    [4]*lobbyLook
}

// lobbyLookFor returns the cached lobby styles of opts' looks.
func lobbyLookFor(opts Options) *lobbyLook {
	i := 0
	if opts.ASCII {
		i |= 1
	}
	if opts.NoColor {
		i |= 2
	}
	lobbyLooks.once[i].Do(func() {
		t := themeFor(opts)
		l := &lobbyLook{text: t.text, title: t.title, label: t.labelCell, faint: t.cell(t.faint),
			accent: t.cell(t.header), notice: t.banner, err: t.statusCell[netcode.StatusClosed]}
		l.state = [...]tcell.Style{
			netcode.RoomWaiting:   t.statusCell[netcode.StatusWaiting],
			netcode.RoomCountdown: t.statusCell[netcode.StatusReconnecting],
			netcode.RoomPlaying:   t.statusCell[netcode.StatusPlaying],
			netcode.RoomResults:   l.accent,
		}
		lobbyLooks.l[i] = l
	})
	return lobbyLooks.l[i]
}

// draw renders the lobby on r's screen and shows it if it changed a cell.
func (l *lobby) draw(r *Renderer) {
	w, h := r.screen.Size()
	r.begin(w, h)
	if w < LobbyMinWidth || h < LobbyMinHeight {
		r.drawTooSmall(w, h, LobbyMinWidth, LobbyMinHeight)
	} else {
		l.drawList(r, w, h)
		switch l.mode {
		case modeCreate:
			r.paintCentred(rect{0, 0, w, h}, createPanel(r.t, w, &l.form))
		case modeCode:
			r.paintCentred(rect{0, 0, w, h}, codePanel(r.t, w, &l.code))
		}
	}
	r.end()
	if r.puts > 0 { // tcell would compare every cell to find nothing to send
		r.screen.Show()
	}
	r.puts = 0
}

// connecting reports whether no list has arrived yet.
func (l *lobby) connecting() bool { return l.list.Updated.IsZero() && len(l.list.Rooms) == 0 }

// drawList draws everything but the forms on a w×h screen: the header
// and the notice, the tab shown, the chat and the keys.
func (l *lobby) drawList(r *Renderer, w, h int) {
	look := lobbyLookFor(r.opts)
	g := r.t.g
	l.drawHeader(r, look, w)
	if l.tab == tabLadder {
		l.drawLadder(r, look, w, h)
	} else {
		l.drawRooms(r, look, w, h)
	}
	l.drawChat(r, look, w, h)
	r.putSpans(0, h-1, w, g.ellipsis, span{l.keys(g, w), look.faint})
}

// drawHeader draws the header and the notice rows.
func (l *lobby) drawHeader(r *Renderer, look *lobbyLook, w int) {
	g := r.t.g
	spans := []span{{"ttytanks lobby", look.title}}
	if r.opts.Server != "" {
		spans = append(spans, span{" " + g.dot + " server ", look.label}, span{cleanText(r.opts.Server), look.text})
	}
	if !l.connecting() && l.list.Ping > 0 {
		spans = append(spans, span{" " + g.dot + " ping ", look.label}, span{fmtMS(l.list.Ping), look.text})
	}
	if name := l.playerName(g); name != "" {
		spans = append(spans, span{" " + g.dot + " you are ", look.label}, span{cleanText(name), look.text})
	}
	r.putSpans(0, lobbyHeaderY, w, g.ellipsis, spans...)
	switch {
	case l.list.Draining():
		// The server drains before a restart: it takes nobody new.
		r.putSpans(0, lobbyNoticeY, w, g.ellipsis, span{DrainingNotice, look.notice})
	case l.opts.Notice != "":
		r.putSpans(0, lobbyNoticeY, w, g.ellipsis, span{cleanText(l.opts.Notice), look.notice})
	default:
		if n := l.placeNotice(g); n != "" {
			r.putSpans(0, lobbyNoticeY, w, g.ellipsis, span{cleanText(n), look.notice})
		}
	}
}

// drawRooms draws the rooms tab on a w×h screen: the room table, its
// status line and the error line.
func (l *lobby) drawRooms(r *Renderer, look *lobbyLook, w, h int) {
	g := r.t.g
	l.rows = max(lobbyRows(h)-l.lobbyChatH(), 1)
	l.scroll()

	widths := fitColumns(lobbyColumns, w-lobbyIndent, 2)
	var titles [numLobbyCols]string
	for i, c := range lobbyColumns {
		titles[i] = c.title
	}
	r.putCells(lobbyIndent, lobbyTitlesY, lobbyColumns, widths, titles[:], look.label, nil)
	rooms := l.list.Rooms
	switch {
	case l.connecting():
		title := "connecting" + g.ellipsis
		if r.opts.Server != "" {
			title = "connecting to " + cleanText(r.opts.Server) + g.ellipsis
		}
		area := rect{0, lobbyRowsY, w, l.rows}
		body := "asking the server for its rooms"
		if l.list.Err != nil {
			body = cleanText(l.list.Err.Error()) + ": is a ttytanks server running there? Still trying " + g.dash + " q quits"
		}
		r.paintCentred(area, renderPanel(r.t, w-4, title, body))
	case len(rooms) == 0:
		r.putSpans(lobbyIndent, lobbyRowsY, w-lobbyIndent, g.ellipsis,
			span{"no rooms yet " + g.dash + " Enter or n for a quick match, c to create a room", look.faint})
	}
	for y := range min(l.rows, len(rooms)-l.top) {
		i := l.top + y
		l.drawRoom(r, look, lobbyRowsY+y, w, widths, &rooms[i], i == l.sel)
	}
	ranked := false // whether the status line says what ★ means
	for i := range rooms {
		ranked = ranked || rooms[i].Ranked
	}

	// The footer.
	status := ""
	if !l.connecting() {
		n, total := len(rooms), max(l.list.Total, len(rooms))
		shown := min(l.rows, n-l.top)
		switch {
		case shown < total:
			status = "showing " + strconv.Itoa(shown) + " of " + plural(total, "room")
			if n > l.rows {
				status += " " + g.dash + " " + g.up + g.down + " to scroll"
			}
		default:
			status = plural(total, "room")
		}
		if ranked {
			status += " " + g.dot + " " + rankedMark(g) + " ranked"
		}
	}
	r.putSpans(0, h-3, w, g.ellipsis, span{status, look.label})
	switch {
	case l.hint != "":
		r.putSpans(0, h-2, w, g.ellipsis, span{l.hint, look.err})
	case l.list.Err != nil:
		r.putSpans(0, h-2, w, g.ellipsis, span{cleanText(l.list.Err.Error()), look.err})
	}
}

// drawRoom draws the table row of room at row y; a selected row is in
// reverse video from edge to edge.
func (l *lobby) drawRoom(r *Renderer, look *lobbyLook, y, w int, widths []int, room *netcode.RoomInfo, selected bool) {
	g := r.t.g
	base := look.text
	if selected {
		base = base.Reverse(true)
		r.putString(0, y, strings.Repeat(" ", w), base, rect{0, y, w, 1})
		r.putString(0, y, g.you, base.Bold(true), rect{0, y, w, 1})
	}
	if room.Private {
		r.putString(2, y, lockMark(g), base, rect{0, y, w, 1})
	}
	var cells [numLobbyCols]string
	cells[colRoom] = cleanText(room.Name)
	if cells[colRoom] == "" {
		cells[colRoom] = "(unnamed)"
	}
	if room.Ranked {
		mark := " " + rankedMark(g)
		cells[colRoom] = truncate(cells[colRoom], widths[colRoom]-textWidth(mark), g.ellipsis) + mark
	}
	cells[colPlayers] = strconv.Itoa(room.Players) + "/" + strconv.Itoa(room.Seats)
	if room.Bots > 0 {
		cells[colPlayers] += " (" + plural(room.Bots, "bot") + ")"
	}
	cells[colWatching] = strconv.Itoa(room.Spectators)
	cells[colState] = room.State.String()
	if room.Closing && room.State == netcode.RoomWaiting {
		cells[colState] = "closing"
	}
	round := "-"
	if room.Round > 0 {
		round = strconv.Itoa(room.Round)
	}
	if room.RoundsToWin > 0 {
		round += " " + g.dot + " first to " + strconv.Itoa(room.RoundsToWin)
	}
	cells[colRound] = round
	cells[colLeader] = "-"
	if name := cleanText(room.Leader); name != "" {
		score := " " + strconv.Itoa(room.LeaderScore)
		cells[colLeader] = truncate(name, widths[colLeader]-len(score), g.ellipsis) + score
	}
	var styles [numLobbyCols]tcell.Style
	for i := range styles {
		styles[i] = base
	}
	if !selected && int(room.State) < len(look.state) {
		styles[colState] = look.state[room.State]
	}
	r.putCells(lobbyIndent, y, lobbyColumns, widths, cells[:], base, styles[:])
}

// lockMark marks a private room: two cells.
func lockMark(g *glyphs) string {
	if g.ascii {
		return "* "
	}
	return "🔒"
}

// rankedMark marks a ranked room, after its name (PROTOCOL.md §4.15).
func rankedMark(g *glyphs) string {
	if g.ascii {
		return "(r)"
	}
	return "★"
}

// keys is the key help on the lobby's last row for a screen w cells wide.
func (l *lobby) keys(g *glyphs, w int) string {
	chat := l.opts.Chat != nil && closedWhy(&l.chatView) == "" // t talks
	if l.tab == tabLadder {
		return ladderKeys(g, chat)
	}
	return lobbyKeys(g, chat, w)
}

// lobbyKeys is the rooms tab's key help: the longest that fits w cells
// (the last always fits LobbyMinWidth).
func lobbyKeys(g *glyphs, chat bool, w int) string {
	var keys []string
	switch {
	case g.ascii && chat:
		keys = []string{
			"arrows pick, Enter join, s watch, n quick, c new, p code, t chat, l ladder, q quit",
			"Enter join, s watch, n quick, c new, p code, t chat, l ladder, q quit",
		}
	case g.ascii:
		keys = []string{
			"arrows/jk pick, Enter join, s watch, n quick match, c create, p code, l ladder, q quit",
			"arrows pick, Enter join, s watch, n quick, c new, p code, l ladder, q quit",
		}
	case chat:
		keys = []string{
			"↑↓ pick · Enter join · s watch · n quick · c new · p code · t chat · l ladder · q quit",
			"Enter join · s watch · n quick · c new · p code · t chat · l ladder · q quit", // 76
		}
	default:
		keys = []string{
			"↑↓/jk pick · Enter join · s watch · n quick match · c create · p code · l ladder · q quit",
			"↑↓ pick · Enter join · s watch · n quick · c new · p code · l ladder · q quit",
			"Enter join · s watch · n quick match · c create · p code · l ladder · q quit", // 76
		}
	}
	for _, k := range keys[:len(keys)-1] {
		if textWidth(k) <= w {
			return k
		}
	}
	return keys[len(keys)-1]
}

// plural is "1 room", "2 rooms".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// span is a piece of a line with its style.
type span struct {
	s  string
	st tcell.Style
}

// putSpans draws spans (plain text) one after another from (x, y), cut at
// w cells with ellipsis.
func (r *Renderer) putSpans(x, y, w int, ellipsis string, spans ...span) {
	clip := rect{x, y, w, 1}
	room := w
	for _, s := range spans {
		if room <= 0 {
			return
		}
		text := s.s
		if tw := textWidth(text); tw > room {
			text = truncate(text, room, ellipsis)
		}
		r.putString(x, y, text, s.st, clip)
		x += textWidth(text)
		room -= textWidth(text)
	}
}

// putCells draws one table row of cols from (x, y): cells[i] cut or
// padded to widths[i], columns two cells apart, a column of width 0 left
// out. Each cell has styles[i], or st when styles is nil.
func (r *Renderer) putCells(x, y int, cols []column, widths []int, cells []string, st tcell.Style, styles []tcell.Style) {
	clip := rect{x, y, r.w - x, 1}
	for i, cw := range widths {
		if cw == 0 {
			continue
		}
		cst := st
		if styles != nil {
			cst = styles[i]
		}
		r.putString(x, y, padText(cells[i], cw, cols[i].right, r.t.g.ellipsis), cst, clip)
		x += cw + 2
	}
}

// createPanel is the create form as a message box no wider than maxW.
func createPanel(t *theme, maxW int, f *createForm) string {
	g := t.g
	lines := make([]string, 0, numFields)
	row := func(field int, label, value, note string) {
		mark := " "
		v := t.value.Render(value)
		if f.field == field {
			mark = g.you
			v = t.value.Reverse(true).Render(value)
		}
		line := mark + " " + t.label.Render(padText(label, 8, false, g.ellipsis)) + v
		if note != "" {
			line += "  " + t.faint.Render(note)
		}
		lines = append(lines, line)
	}
	name := f.name.text
	if f.field == fieldName {
		name += "_"
	}
	row(fieldName, "name", padText(name, MaxRoomName+1, false, g.ellipsis), "")
	row(fieldSeats, "seats", "‹ "+strconv.Itoa(f.seats)+" ›", strconv.Itoa(minSeats)+"-"+strconv.Itoa(maxSeats))
	row(fieldBots, "bots", "‹ "+strconv.Itoa(f.bots)+" ›", "0-"+strconv.Itoa(f.seats-1))
	yes := func(b bool) string {
		if b {
			return "‹ yes ›"
		}
		return "‹ no ›"
	}
	row(fieldPrivate, "private", yes(f.private), "joined by its code")
	ranked := "rated on the ladder"
	switch {
	case f.bots > 0:
		ranked = "never with bots"
	case !f.ranked:
		ranked = "casual: not rated"
	}
	row(fieldRanked, "ranked", yes(f.ranked && f.bots == 0), ranked)
	block := t.r.NewStyle().Align(lipgloss.Left).Render(strings.Join(lines, "\n"))
	if g.ascii {
		block = strings.NewReplacer("‹", "<", "›", ">").Replace(block)
	}
	return renderPanel(t, maxW, "create a room", block,
		t.faint.Render("an empty name lets the server pick one"),
		t.key.Render(formKeys(g, "create")))
}

// codePanel is the join-code prompt as a message box no wider than maxW.
func codePanel(t *theme, maxW int, f *textField) string {
	code := t.value.Reverse(true).Render(padText(f.text+"_", MaxRoomName+1, false, t.g.ellipsis))
	return renderPanel(t, maxW, "join a private room",
		t.label.Render("code ")+code,
		t.key.Render("Enter join "+t.g.dot+" Esc back"))
}

// formKeys is the key help of the create form.
func formKeys(g *glyphs, verb string) string {
	if g.ascii {
		return "Tab/up/down field, left/right change, Enter " + verb + ", Esc back"
	}
	return "Tab/↑↓ field · ←→ change · Enter " + verb + " · Esc back"
}

// LobbyMinWidth and LobbyMinHeight are the smallest terminal, in cells,
// the lobby is drawn on; below it the lobby shows only the "terminal too
// small" message. LobbyMinWidth is the room table's indent and every
// column at its narrowest, but the watching column, which gives way first:
// 5 + 16 + 12 + 9 + 14 + 12 cells and five gaps of two. It is below
// MinWidth because a match has a compact layout below that: a lobby that
// asked for more than the match would send a 79-column player away.
const (
	LobbyMinWidth  = 76
	LobbyMinHeight = MinHeight
)
