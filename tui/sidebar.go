package tui

import (
	"strconv"
	"strings"
	"sync"

	"github.com/charmbracelet/lipgloss"
	"github.com/gdamore/tcell/v2"

	"ttytanks/game"
	"ttytanks/netcode"
)

// figure is one labelled line of the sidebar.
type figure uint8

const (
	figStatus figure = iota
	figTick
	figServerTick
	figRTT
	figLead
	figArrival
	figLoss
	figDelay
	figBandwidth
	figRollbacks
	figReplayTicks
	figReplayCost
	figReplayP95
	figReplayP99
	figHash
	figResyncs
	numFigures
)

// figureLabels are the sidebar's labels; each figure's value is on the same
// line, right-aligned.
var figureLabels = [numFigures]string{
	figStatus:      "status",
	figTick:        "tick",
	figServerTick:  "server tick",
	figRTT:         "RTT",
	figLead:        "input lead",
	figArrival:     "arrival margin",
	figLoss:        "loss up/down",
	figDelay:       "state delay",
	figBandwidth:   "bandwidth KB/s",
	figRollbacks:   "rollbacks",
	figReplayTicks: "replay ticks",
	figReplayCost:  "replay cost",
	figReplayP95:   "replay p95",
	figReplayP99:   "replay p99",
	figHash:        "hash mismatches",
	figResyncs:     "resyncs",
}

// sideItem is one entry of the sidebar's outline.
type sideItem struct {
	kind  uint8 // itemHeader, itemFigure, itemSpark, itemPlayers, itemEvents or itemKeys
	fig   figure
	spark int    // itemSpark: sparkRTT or sparkReplay
	name  string // itemHeader
}

const (
	itemHeader = iota
	itemFigure
	itemSpark
	itemPlayers
	itemEvents
	itemKeys
)

// sideEvents is how many lines of the event feed the sidebar shows at
// SidebarScores.
const sideEvents = FeedLen

const (
	sparkRTT = iota
	sparkReplay
)

// sideOutlines are the sidebar from top to bottom at each SidebarDetail:
// the full netcode panel; RTT, loss, rollbacks and the players; the
// players and the event feed.
var sideOutlines = func() [numSidebarDetails][]sideItem {
	h := func(name string) sideItem { return sideItem{kind: itemHeader, name: name} }
	f := func(fig figure) sideItem { return sideItem{kind: itemFigure, fig: fig} }
	s := func(spark int) sideItem { return sideItem{kind: itemSpark, spark: spark} }
	players, events, keys := sideItem{kind: itemPlayers}, sideItem{kind: itemEvents}, sideItem{kind: itemKeys}
	return [numSidebarDetails][]sideItem{
		SidebarFull: {
			h("ttytanks"), f(figStatus), f(figTick), f(figServerTick),
			h("network"), f(figRTT), s(sparkRTT), f(figLead), f(figArrival), f(figLoss), f(figDelay), f(figBandwidth),
			h("rollback"), f(figRollbacks), f(figReplayTicks), f(figReplayCost), f(figReplayP95), f(figReplayP99),
			s(sparkReplay), f(figHash), f(figResyncs),
			h("players"), players,
			h("keys"), keys,
		},
		SidebarMiddle: {
			h("ttytanks"), f(figStatus),
			h("network"), f(figRTT), s(sparkRTT), f(figLoss), f(figRollbacks),
			h("players"), players,
			h("keys"), keys,
		},
		SidebarScores: {
			h("players"), players,
			h("events"), events,
			h("keys"), keys,
		},
	}
}()

// sideLevel is how much decoration the sidebar can afford at a given
// height. The first level whose rows fit is used.
type sideLevel struct {
	box     bool // a full border box; otherwise a rule on the left edge only
	headers bool // a header line above each section
	sparks  bool // sparkline lines under RTT and replay p99
	keys    int  // lines of controls help: 2, 1 (short) or 0
}

var sideLevels = [...]sideLevel{
	{box: true, headers: true, sparks: true, keys: 2},
	{box: false, headers: true, sparks: true, keys: 2},
	{box: false, headers: false, sparks: true, keys: 2},
	{box: false, headers: false, sparks: true, keys: 1},
	{box: false, headers: false, sparks: false, keys: 1},
	{box: false, headers: false, sparks: false, keys: 0},
}

// rows returns the height of the sidebar outline at this level with
// players roster lines.
func (lv sideLevel) rows(outline []sideItem, players int) int {
	n := 0
	for _, it := range outline {
		switch it.kind {
		case itemHeader:
			if lv.headers {
				n++
			}
		case itemFigure:
			n++
		case itemSpark:
			if lv.sparks {
				n++
			}
		case itemPlayers:
			n += players
		case itemEvents:
			n += sideEvents
		case itemKeys:
			n += lv.keys
		}
	}
	if lv.box {
		n += 2
	}
	return n
}

// sideFrame is the static part of the sidebar for one size: the border,
// section headers, labels and key help as lipgloss renders them, and where
// the per-frame values go. Rows and columns are relative to the content
// area in.
type sideFrame struct {
	text    string      // ANSI-styled, painted at the sidebar's top-left corner
	cells   paintedText // text parsed, painted every frame
	in      rect        // the content area, relative to the sidebar's corner
	fig     [numFigures]int
	spark   [2]int
	players int // first roster row; -1 when there is none
	events  int // first event feed row; -1 when there is none
}

type sideKey struct {
	w, h, players int
	detail        SidebarDetail
	spectating    bool
}

// sidebar draws the sidebar: the client's status and netcode figures, the
// players and the controls. Its layout (border or rule, section headers,
// label column, key help) is done with lipgloss once per size and cached;
// each frame only writes the values into the places that layout reserved,
// in the lipgloss styles converted to tcell styles. It is safe for
// concurrent use.
type sidebar struct {
	t      *theme
	mu     sync.Mutex
	frames map[sideKey]*sideFrame
}

func newSidebar(t *theme) *sidebar {
	return &sidebar{t: t, frames: make(map[sideKey]*sideFrame)}
}

// frame returns the cached static frame for a w×h sidebar listing players
// at detail, with a spectator's key help when spectating.
func (sb *sidebar) frame(w, h, players int, detail SidebarDetail, spectating bool) *sideFrame {
	k := sideKey{w, h, players, detail % numSidebarDetails, spectating}
	sb.mu.Lock()
	defer sb.mu.Unlock()
	if f := sb.frames[k]; f != nil {
		return f
	}
	if len(sb.frames) >= 64 { // sizes come and go with resizes; keep a few
		clear(sb.frames)
	}
	f := sb.build(k)
	f.cells = parseCells(f.text, tcell.StyleDefault, sb.t.noColor)
	sb.frames[k] = f
	return f
}

// build lays out the static sidebar with lipgloss.
func (sb *sidebar) build(k sideKey) *sideFrame {
	w, h, players := k.w, k.h, k.players
	t, g := sb.t, sb.t.g
	outline := sideOutlines[k.detail]
	keys, keysShort := g.keys, g.keysShort
	if k.spectating {
		keys, keysShort = g.watchKeys, g.watchKeysShort
	}
	lv := sideLevels[len(sideLevels)-1]
	for _, l := range sideLevels {
		if l.rows(outline, players) <= h {
			lv = l
			break
		}
	}
	inner := max(w-2, 1) // two border columns, or the rule and its padding
	f := &sideFrame{players: -1, events: -1}
	for i := range f.fig {
		f.fig[i] = -1
	}
	f.spark = [2]int{-1, -1}
	var lines []string
	for _, it := range outline {
		switch it.kind {
		case itemHeader:
			if lv.headers {
				lines = append(lines, sb.header(it.name, inner))
			}
		case itemFigure:
			f.fig[it.fig] = len(lines)
			lines = append(lines, t.label.Render(figureLabels[it.fig]))
		case itemSpark:
			if lv.sparks {
				f.spark[it.spark] = len(lines)
				lines = append(lines, "")
			}
		case itemPlayers:
			if players > 0 {
				f.players = len(lines)
			}
			for range players {
				lines = append(lines, "")
			}
		case itemEvents:
			f.events = len(lines)
			for range sideEvents {
				lines = append(lines, "")
			}
		case itemKeys:
			switch lv.keys {
			case 2:
				lines = append(lines, t.key.Render(keys[0]), t.key.Render(keys[1]))
			case 1:
				lines = append(lines, t.key.Render(keysShort))
			}
		}
	}
	style := t.rule
	f.in = rect{x: 2, y: 0, w: inner, h: min(len(lines), h)}
	if lv.box {
		style = t.box
		f.in = rect{x: 1, y: 1, w: inner, h: min(len(lines), h-2)}
	}
	body := lipgloss.JoinVertical(lipgloss.Left, lines...)
	// Width counts padding but not borders.
	f.text = style.Width(inner + style.GetHorizontalPadding()).MaxHeight(h).Render(body)
	return f
}

// header renders a section header, "── name ─────", inner cells wide.
func (sb *sidebar) header(name string, inner int) string {
	rule := "─"
	if sb.t.g.ascii {
		rule = "-"
	}
	n := max(inner-textWidth(name)-4, 0)
	return sb.t.faint.Render(rule+rule+" ") + sb.t.header.Render(name) + sb.t.faint.Render(" "+strings.Repeat(rule, n))
}

// draw draws the sidebar for v in area.
func (sb *sidebar) draw(r *Renderer, area rect, v *netcode.View) {
	t := sb.t
	f := sb.frame(area.w, area.h, rosterLen(v), r.hud.Detail, v.Slot < 0)
	r.replay(&f.cells, area.x, area.y, area)

	in := f.in
	in.x += area.x
	in.y += area.y
	g := t.g
	vals := r.figs.update(v, in.w, g)
	for fig, row := range f.fig {
		if row < 0 || row >= in.h {
			continue
		}
		st := t.valueCell
		if fig == int(figStatus) {
			st = t.statusCell[min(int(v.Status), len(t.statusCell)-1)]
		}
		// The value may not overwrite its label and the space after it.
		room := in.w - textWidth(figureLabels[fig]) - 1
		r.putRight(in, in.y+row, truncate(vals[fig], room, g.ellipsis), st)
	}

	for i, row := range f.spark {
		if row < 0 || row >= in.h {
			continue
		}
		cells := r.figs.sparks[i]
		r.replayAs(cells, in.x+in.w-len(cells), in.y+row, in, t.sparkCell[i])
	}

	if f.players >= 0 {
		sb.drawRoster(r, in, in.y+f.players, v)
	}
	if f.events >= 0 {
		for k, line := range r.feed.shownLines(sideEvents, r.hud.Chat) {
			if y := in.y + f.events + k; y < in.y+in.h {
				r.putFeedLine(in.x, y, line, in.w, t.labelCell, in)
			}
		}
	}
}

// sideFigures are the sidebar's figures and sparklines as last shown.
type sideFigures struct {
	at     game.Tick // the local tick they were taken at
	ok     bool
	status netcode.Status
	width  int
	vals   [numFigures]string
	sparks [2][]paintedCell // the sparklines' cells, from column 0
}

// figureEvery is how often, in ticks, the sidebar's figures are refreshed:
// ten times a second.
const figureEvery = 6

// update refreshes the figures from v when they are figureEvery ticks old
// (or the status or the sidebar's width changed), and returns them.
func (f *sideFigures) update(v *netcode.View, width int, g *glyphs) *[numFigures]string {
	m := &v.Metrics
	if f.ok && f.status == v.Status && f.width == width && m.LocalTick.Diff(f.at) < figureEvery && m.LocalTick.Diff(f.at) >= 0 {
		return &f.vals
	}
	f.ok, f.at, f.status, f.width = true, m.LocalTick, v.Status, width
	vals := &f.vals
	vals[figStatus] = v.Status.String()
	vals[figTick] = strconv.FormatUint(uint64(m.LocalTick), 10)
	vals[figServerTick] = strconv.FormatUint(uint64(m.ServerTick), 10)
	vals[figRTT] = fmtMS(m.RTT)
	vals[figLead] = fmtTicks(m.InputLead)
	vals[figArrival] = fmtSignedMS(m.ArrivalMargin)
	vals[figLoss] = "measuring"
	if m.LossUpMeasured && m.LossDownMeasured {
		vals[figLoss] = fmtPct(m.LossUp) + " / " + fmtPct(m.LossDown)
	}
	vals[figDelay] = fmtTicks(m.StateDelay)
	vals[figBandwidth] = g.up + fmtKB(m.BytesUpPerSec) + " " + g.down + fmtKB(m.BytesDownPerSec)
	vals[figRollbacks] = strconv.FormatUint(m.Rollbacks, 10)
	vals[figReplayTicks] = strconv.Itoa(m.ReplayLast) + " (max " + strconv.Itoa(m.ReplayMax) + ")"
	vals[figReplayCost] = fmtUS(m.ReplayCostLast, g)
	vals[figReplayP95] = fmtUS(m.ReplayCostP95, g)
	vals[figReplayP99] = fmtUS(m.ReplayCostP99, g)
	vals[figHash] = strconv.FormatUint(m.HashMismatches, 10)
	vals[figResyncs] = strconv.FormatUint(m.Resyncs, 10)
	f.sparks[sparkRTT] = appendSparkCells(f.sparks[sparkRTT][:0], m.RTTSpark[:clampN(m.RTTSparkN)], width, &g.spark)
	f.sparks[sparkReplay] = appendSparkCells(f.sparks[sparkReplay][:0], m.ReplaySpark[:clampN(m.ReplaySparkN)], width, &g.spark)
	return vals
}

// Roster columns: "›" marker, tank glyph, space, name, HP, score.
const (
	rosterHPW    = 7 // "♥♥♡" or "HP 2/3", and a space
	rosterScoreW = 4
)

// drawRoster draws one line per player from row y: a marker on the local
// player, the tank's glyph (a wreck for a dead tank or a seat left, once
// the match is on) and the name in the slot's colour, HP (hearts,
// "dead", "lost" while the player's connection is lost, or, for a seat
// whose player left, "left") and score.
func (sb *sidebar) drawRoster(r *Renderer, in rect, y int, v *netcode.View) {
	t, g := sb.t, sb.t.g
	nameW := max(in.w-3-rosterHPW-rosterScoreW, 1)
	playing := v.Status == netcode.StatusPlaying || v.Status == netcode.StatusReconnecting
	for i := range game.MaxPlayers {
		if !inRoster(v, i) {
			continue
		}
		if y >= in.y+in.h {
			return
		}
		tk := &v.World.Tanks[i]
		local := i == v.Slot
		switch {
		case local:
			r.putString(in.x, y, g.you, t.valueCell, in)
		case v.Slot < 0 && i == r.hud.followed():
			r.putString(in.x, y, g.followed, t.valueCell, in)
		}
		glyph := g.tank[aimIndex(tk.AimX, tk.AimY)]
		waiting := playing && tk.Seated && !tk.Spawned() // seated mid-round: not on the map
		switch {
		case waiting:
			glyph = " "
		case !playing:
			// Before the match no tank is alive yet: each player is shown
			// with their tank, as it will be on the map.
		case !tk.Seated || !tk.Alive:
			glyph = g.wreck
		}
		name := t.slotCell[i]
		if local {
			name = name.Bold(true)
		}
		r.putString(in.x+1, y, glyph, t.slotCell[i], in)
		label := truncate(slotName(v, i), nameW, g.ellipsis)
		if waiting {
			// The HP column is free: the note may use it.
			label = truncate(slotName(v, i)+" "+g.dash+" joins next round", nameW+rosterHPW-1, g.ellipsis)
		}
		r.putString(in.x+3, y, label, name, in)
		hp := ""
		switch {
		case !playing, waiting:
		case !tk.Seated:
			hp = "left"
		case v.Names[i] != "" && !v.Connected[i]:
			hp = "lost" // connection lost: the tank idles until they return
		case !tk.Alive:
			hp = "dead"
		default:
			hp = fmtHP(tk.HP, g)
		}
		r.putString(in.x+3+nameW, y, hp, t.labelCell, in)
		r.putRight(in, y, strconv.Itoa(int(tk.Score)), t.valueCell)
		y++
	}
}

// putRight puts the plain text s right-aligned in the columns of in on row
// y.
func (r *Renderer) putRight(in rect, y int, s string, st tcell.Style) {
	if c := r.unicodeText(s); c != nil {
		r.replayAs(c.cells, in.x+in.w-c.w, y, in, st)
		return
	}
	r.putString(in.x+in.w-textWidth(s), y, s, st, in)
}

func clampN(n int) int { return min(max(n, 0), netcode.SparkLen) }

// inRoster reports whether slot i is listed: a seated tank or a named seat.
func inRoster(v *netcode.View, i int) bool {
	return v.Names[i] != "" || (i < int(v.World.Slots) && v.World.Tanks[i].Seated)
}

func rosterLen(v *netcode.View) int {
	n := 0
	for i := range game.MaxPlayers {
		if inRoster(v, i) {
			n++
		}
	}
	return n
}
