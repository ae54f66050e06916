package tui

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"ttytanks/netcode"
)

// DashboardInfo is what the dashboard tells the operator besides the
// server's figures.
type DashboardInfo struct {
	// Share is the address UDP players join: "ttytanks join SHARE".
	Share string
	// SSH is the whole command SSH players run ("ssh -p 2222 host"); empty
	// without --ssh.
	SSH string
	// Fingerprint is the SSH host key's fingerprint ("SHA256:…"), for
	// players to check on their first connection.
	Fingerprint string
	// Note is the outcome of the operator's last action ("kicked bob"),
	// shown above the log pane; empty shows nothing.
	Note string
	// Load is the server's own cost over the last seconds ("cpu 12.5% of
	// a core · 61k datagrams/s in · 64k out"); empty shows nothing.
	Load string
	// Drain says the server drains before a restart, and its countdown
	// ("draining: 2 matches to end · exits in 9m41s"), shown above the
	// note; empty shows nothing.
	Drain string
}

// dashboardGap is the cells between table columns.
const dashboardGap = 2

// RenderDashboard renders the server operator's live view of st for a terminal
// of width×height cells: a header saying how to join (the UDP address, the
// SSH command and the host key's fingerprint) and the totals (rooms,
// players, spectators, traffic, drops, faults, tick time); a table of the
// rooms (name, a private room's join code, players/seats, bots, state,
// round, tick p99); a table of the rooms' players (room, slot, name,
// score, input margin, held and neutral ticks), when there is space; and at
// the bottom a log pane with the newest of logs (oldest first, as
// LogRing.Lines returns them) that fit (none when logs is empty), and the
// operator's keys.
//
// The result never has more than height lines nor a line wider than width
// cells: text is cut with "…", and a table that does not fit ends in
// "+N more". The header is kept first; the tables share what is left
// with the log pane, which keeps at least a few lines. Lines are
// separated by "\r\n" (the terminal is raw) with none after the last, so
// printing it from the top-left corner of a height-line terminal never
// scrolls. Names are cleaned of escape sequences and control characters.
// Without colour (noColor) the text has no escape sequences at all.
// A width or height of zero or less means 80 columns, or no line limit.
//
// Before the server has rooms (st.Rooms empty), st's single match is shown
// as one room. RenderDashboard is safe for concurrent use.
func RenderDashboard(st *netcode.ServerStats, info DashboardInfo, logs []string, width, height int, noColor bool) string {
	if width <= 0 {
		width = 80
	}
	d := newDashboard(noColor, width)
	rooms := dashboardRooms(st)

	head := d.header(st, rooms, info)
	if height > 0 && len(head) >= height {
		return strings.Join(head[:height], "\r\n")
	}
	avail := height - len(head) - 1 // the footer
	if height <= 0 {
		avail = 1 << 30
	}
	var note []string
	if info.Drain != "" && avail > 0 {
		note = append(note, d.fit(dseg{cleanText(info.Drain), d.value}))
		avail--
	}
	if info.Note != "" && avail > 0 {
		note = append(note, d.fit(dseg{cleanText(info.Note), d.value}))
		avail--
	}

	players := 0
	for i := range rooms {
		players += len(rooms[i].Players)
	}
	// The log pane, when there is a log, keeps its title and a fifth of
	// the lines (at least three); the rooms get up to half of the rest (at least three lines),
	// the players what the rooms leave, and the rooms and the log pane the
	// lines left over.
	logMin := 0
	if len(logs) > 0 {
		logMin = min(1+min(len(logs), max(3, avail/5)), max(avail, 0))
	}
	left := max(avail-logMin, 0)
	roomsNeed, playersNeed := 1+max(len(rooms), 1), 1+max(players, 1)
	roomsH := min(roomsNeed, max(left/2, 3), left)
	playersH := min(playersNeed, left-roomsH)
	if playersH < 2 {
		playersH = 0 // a title alone says nothing
	}
	roomsH += min(roomsNeed-roomsH, left-roomsH-playersH)
	logH := 0
	if len(logs) > 0 {
		logH = min(avail-roomsH-playersH, 1+len(logs))
		if height <= 0 {
			logH = 1 + len(logs)
		}
	}

	out := head
	out = append(out, d.roomTable(rooms, roomsH)...)
	out = append(out, d.playerTable(rooms, playersH)...)
	out = append(out, note...)
	out = append(out, d.logPane(logs, logH)...)
	out = append(out, d.fit(dseg{"k/b/m/u N Enter: kick, ban, mute, unmute #N · Ctrl-C stops", d.faint}))
	if height > 0 && len(out) > height {
		out = out[:height]
	}
	return strings.Join(out, "\r\n")
}

// dashboard renders the parts of a RenderDashboard for one width.
type dashboard struct {
	width                                        int
	title, label, value, faint, warn, ok, accent lipgloss.Style
}

func newDashboard(noColor bool, width int) *dashboard {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256)
	if noColor {
		r.SetColorProfile(termenv.Ascii)
	}
	fg := func(c string) lipgloss.Style { return r.NewStyle().Foreground(lipgloss.Color(c)) }
	return &dashboard{width: width,
		title: fg("214").Bold(true), label: fg("245"), value: r.NewStyle().Bold(true), faint: fg("240"),
		warn: fg("196").Bold(true), ok: fg("46"), accent: fg("75").Bold(true)}
}

// dseg is a piece of a dashboard line: plain text and its style.
type dseg struct {
	s  string
	st lipgloss.Style
}

// fit renders segs as one line, cut to the dashboard's width with "…".
func (d *dashboard) fit(segs ...dseg) string {
	var b strings.Builder
	room := d.width
	for _, g := range segs {
		if room <= 0 {
			break
		}
		s := g.s
		if textWidth(s) > room {
			s = truncate(s, room, "…")
		}
		room -= textWidth(s)
		b.WriteString(g.st.Render(s))
	}
	return b.String()
}

// pack lays items (each a few segments) out on lines of the dashboard's
// width, separated by " · ", starting a new line when the next item does
// not fit, and renders each line.
func (d *dashboard) pack(items ...[]dseg) []string {
	var lines []string
	var line []dseg
	used := 0
	for _, it := range items {
		w := 0
		for _, g := range it {
			w += textWidth(g.s)
		}
		if len(line) > 0 && used+3+w > d.width {
			lines = append(lines, d.fit(line...))
			line, used = nil, 0
		}
		if len(line) > 0 {
			line = append(line, dseg{" · ", d.faint})
			used += 3
		}
		line = append(line, it...)
		used += w
	}
	if len(line) > 0 {
		lines = append(lines, d.fit(line...))
	}
	return lines
}

// header is the title, how to join and the totals.
func (d *dashboard) header(st *netcode.ServerStats, rooms []netcode.RoomStats, info DashboardInfo) []string {
	players, bots, watching := 0, 0, 0
	for i := range rooms {
		watching += rooms[i].Spectators
		for _, p := range rooms[i].Players {
			players++
			if p.Bot {
				bots++
			}
		}
	}
	watching = max(watching, st.Spectators)
	kv := func(k, v string) []dseg { return []dseg{{k + " ", d.label}, {v, d.value}} }
	who := plural(players, "player")
	if bots > 0 {
		who += " (" + plural(bots, "bot") + ")"
	}
	lines := d.pack([]dseg{{"ttytanks server", d.title}}, []dseg{{plural(len(rooms), "room"), d.value}},
		[]dseg{{who, d.value}}, []dseg{{strconv.Itoa(watching) + " watching", d.value}})

	join := [][]dseg{kv("join with", "ttytanks join "+cleanText(info.Share))}
	if info.SSH != "" {
		join = append(join, kv("or", cleanText(info.SSH)))
	}
	lines = append(lines, d.pack(join...)...)
	if info.Fingerprint != "" {
		lines = append(lines, d.fit(dseg{"key ", d.label}, dseg{cleanText(info.Fingerprint), d.value}))
	}

	drops := strconv.FormatUint(st.DroppedTotal(), 10)
	var reasons []string
	for i, n := range st.Drops {
		if n > 0 {
			reasons = append(reasons, netcode.DropReason(i).String()+" "+strconv.FormatUint(n, 10))
		}
	}
	if len(reasons) > 0 {
		drops += " (" + strings.Join(reasons, ", ") + ")"
	}
	faults := []dseg{{"faults ", d.label}, {strconv.FormatUint(st.Faults, 10), d.value}}
	if st.Faults > 0 {
		faults[1].st = d.warn
	}
	figures := [][]dseg{
		kv("in", kb(st.BytesIn)), kv("out", kb(st.BytesOut)), kv("datagrams", strconv.FormatUint(st.DatagramsIn, 10)),
		kv("tick p50/p99", fmtUS(st.TickP50, &unicodeGlyphs)+" / "+fmtUS(st.TickP99, &unicodeGlyphs)+
			" (budget "+fmtMS(netcode.TickDuration)+")"),
		faults}
	if st.Slips > 0 { // the clock fell behind: the operator must see it
		figures = append(figures, []dseg{{"clock slipped ", d.label},
			{plural(int(st.Slips), "time") + ", " + plural(int(st.SkippedTicks), "tick") + " lost", d.warn}})
	}
	if st.Idled > 0 {
		figures = append(figures, kv("idle seats freed", strconv.FormatUint(st.Idled, 10)))
	}
	lines = append(lines, d.pack(append(figures, kv("drops", drops))...)...)
	if info.Load != "" {
		lines = append(lines, d.pack(kv("load", cleanText(info.Load)))...)
	}
	return lines
}

// dashboardRooms returns st's rooms, or its single match as one room when
// the server reports no rooms.
func dashboardRooms(st *netcode.ServerStats) []netcode.RoomStats {
	if len(st.Rooms) > 0 || (len(st.Players) == 0 && !st.Running && st.Match == 0) {
		return st.Rooms
	}
	state := netcode.RoomWaiting
	if st.Running {
		state = netcode.RoomPlaying
	}
	r := netcode.RoomStats{Match: st.Match, Tick: st.Tick, TickP50: st.TickP50, TickP99: st.TickP99, Players: st.Players}
	r.Name, r.State, r.Spectators = "match", state, st.Spectators
	r.RoomInfo.Players, r.Seats = len(st.Players), len(st.Players)+st.Need
	for _, p := range st.Players {
		if p.Bot {
			r.Bots++
		}
	}
	return []netcode.RoomStats{r}
}

// The rooms table's columns.
var roomColumns = []column{
	{title: "room", min: 10, max: 24},
	{title: "code", min: 8, max: 12},
	{title: "players", min: 7, max: 7},
	{title: "bots", min: 4, max: 4, right: true, drop: 3},
	{title: "watch", min: 5, max: 5, right: true, drop: 4},
	{title: "state", min: 9, max: 9},
	{title: "round", min: 8, max: 8},
	{title: "tick p99", min: 8, max: 8, right: true},
	{title: "at tick", min: 10, max: 10, right: true, drop: 5},
	{title: "match", min: 8, max: 8, drop: 6},
}

// roomTable renders the rooms table in at most h lines.
func (d *dashboard) roomTable(rooms []netcode.RoomStats, h int) []string {
	if h <= 0 {
		return nil
	}
	widths := fitColumns(roomColumns, d.width, dashboardGap)
	rows := make([][]dseg, 0, len(rooms))
	for i := range rooms {
		r := &rooms[i]
		name := cleanText(r.Name)
		if name == "" {
			name = "-"
		}
		code := "-"
		if r.Private {
			code = cleanText(r.Code)
			if code == "" {
				code = "private"
			}
		}
		round := "-"
		if r.Round > 0 {
			round = strconv.Itoa(r.Round)
		}
		if r.RoundsToWin > 0 {
			round += " (to " + strconv.Itoa(r.RoundsToWin) + ")"
		}
		stateStyle := d.value
		switch r.State {
		case netcode.RoomPlaying:
			stateStyle = d.ok
		case netcode.RoomCountdown, netcode.RoomResults:
			stateStyle = d.accent
		}
		p99 := d.value
		if r.TickP99 > netcode.TickDuration/4 {
			p99 = d.warn
		}
		rows = append(rows, []dseg{
			{name, d.value}, {code, d.value},
			{strconv.Itoa(r.RoomInfo.Players) + "/" + strconv.Itoa(r.Seats), d.value},
			{strconv.Itoa(r.Bots), d.value}, {strconv.Itoa(r.Spectators), d.value},
			{r.State.String(), stateStyle}, {round, d.value},
			{fmtUS(r.TickP99, &unicodeGlyphs), p99},
			{strconv.FormatUint(uint64(uint32(r.Tick)), 10), d.value},
			{fmt.Sprintf("%08x", r.Match), d.value},
		})
	}
	return d.table(roomColumns, widths, rows, h, "room", "(no rooms yet)")
}

// The players table's columns.
var playerColumns = []column{
	{title: "#", min: 2, max: 3, right: true},
	{title: "room", min: 8, max: 16},
	{title: "slot", min: 4, max: 4, right: true},
	{title: "name", min: 10, max: 22},
	{title: "score", min: 5, max: 5, right: true},
	{title: "margin", min: 7, max: 7, right: true},
	{title: "held", min: 7, max: 9, right: true},
	{title: "neutral", min: 7, max: 9, right: true},
	{title: "late", min: 5, max: 7, right: true, drop: 1},
	{title: "address", min: 15, max: 47, drop: 2},
}

// playerTable renders the rooms' players in at most h lines.
func (d *dashboard) playerTable(rooms []netcode.RoomStats, h int) []string {
	if h <= 0 {
		return nil
	}
	widths := fitColumns(playerColumns, d.width, dashboardGap)
	var rows [][]dseg
	num := 0 // the player's number for the operator's keys: its index in ServerStats.Players
	for i := range rooms {
		room := cleanText(rooms[i].Name)
		for _, p := range rooms[i].Players {
			num++
			name := cleanText(p.Name)
			nameStyle := d.value
			margin, addr := strconv.Itoa(p.MarginMs)+"ms", cleanText(p.Addr)
			if p.SSHFrom != "" {
				addr = "ssh " + cleanText(p.SSHFrom)
			}
			switch {
			case p.Bot:
				name += " (bot)"
				margin, addr = "-", "-"
			case !p.Connected:
				name += " (lost)"
				nameStyle = d.warn
			}
			rows = append(rows, []dseg{
				{strconv.Itoa(num - 1), d.label}, {room, d.value}, {strconv.Itoa(p.Slot), d.value}, {name, nameStyle},
				{strconv.Itoa(int(p.Score)), d.value}, {margin, d.value},
				{strconv.FormatUint(p.HeldTicks, 10), d.value}, {strconv.FormatUint(p.NeutralTicks, 10), d.value},
				{strconv.FormatUint(p.LateInputs, 10), d.value}, {addr, d.value},
			})
		}
	}
	return d.table(playerColumns, widths, rows, h, "player", "(no one yet)")
}

// table renders the column titles and rows in at most h lines; when the
// rows do not fit, the last line says how many more there are ("+3 more
// rooms"). An empty table shows empty under its titles.
func (d *dashboard) table(cols []column, widths []int, rows [][]dseg, h int, noun, empty string) []string {
	row := func(cells []dseg, style *lipgloss.Style) string {
		segs := make([]dseg, 0, 2*len(cells))
		for i, w := range widths {
			if w == 0 {
				continue
			}
			if len(segs) > 0 {
				segs = append(segs, dseg{strings.Repeat(" ", dashboardGap), d.faint})
			}
			c := cells[i]
			if style != nil {
				c.st = *style
			}
			c.s = padText(cleanText(c.s), w, cols[i].right, "…")
			segs = append(segs, c)
		}
		if n := len(segs); n > 0 {
			segs[n-1].s = strings.TrimRight(segs[n-1].s, " ")
		}
		return d.fit(segs...)
	}
	titles := make([]dseg, len(cols))
	for i, c := range cols {
		titles[i] = dseg{c.title, d.label}
	}
	lines := []string{row(titles, &d.label)}
	if len(rows) == 0 {
		if h > 1 {
			lines = append(lines, d.fit(dseg{empty, d.faint}))
		}
		return lines[:min(len(lines), h)]
	}
	if h == 1 { // no room for a row: say how many there are
		return []string{d.fit(dseg{plural(len(rows), noun), d.label})}
	}
	shown := len(rows)
	if shown > h-1 {
		shown = h - 2
	}
	for _, r := range rows[:shown] {
		lines = append(lines, row(r, nil))
	}
	if shown < len(rows) {
		lines = append(lines, d.fit(dseg{"+" + strconv.Itoa(len(rows)-shown) + " more " + noun + "s", d.faint}))
	}
	return lines
}

// logPane renders the log's title rule and the newest lines of logs that
// fit in h lines.
func (d *dashboard) logPane(logs []string, h int) []string {
	if h <= 0 {
		return nil
	}
	lines := []string{d.fit(dseg{"── log " + strings.Repeat("─", max(d.width-7, 0)), d.faint})}
	logs = logs[max(len(logs)-(h-1), 0):]
	for _, l := range logs {
		lines = append(lines, d.fit(dseg{shortLogTime(cleanText(l)), d.label}))
	}
	return lines
}

// shortLogTime shortens the timestamp slog's text handler starts a line
// with, "time=2026-12-01T07:58:33.527Z ", to the time of day, "07:58:33 ":
// the pane shows today's lines, and its width is better spent on the
// message.
func shortLogTime(l string) string {
	const prefix = "time=YYYY-MM-DDT"
	end := strings.IndexByte(l, ' ')
	if !strings.HasPrefix(l, "time=") || end < len(prefix)+8 || l[len(prefix)-1] != 'T' || l[len(prefix)+2] != ':' {
		return l
	}
	return l[len(prefix):len(prefix)+8] + l[end:]
}

// kb formats a byte count: bytes below 10 KiB, then KiB, then MiB.
func kb(n uint64) string {
	if n < 10*1024 {
		return fmt.Sprintf("%d B", n)
	}
	if n < 10*1024*1024 {
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1024*1024))
}
