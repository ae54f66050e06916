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

// tooSmallPhrases are the message shown on a w×h terminal smaller than
// the needW×needH its screen needs, in the parts a narrow screen puts on
// lines of their own rather than break one: "terminal too small (need
// 50x22, have 40x15)" joined.
func tooSmallPhrases(w, h, needW, needH int) []string {
	return []string{"terminal too small", "(need " + strconv.Itoa(needW) + "x" + strconv.Itoa(needH) +
		", have " + strconv.Itoa(w) + "x" + strconv.Itoa(h) + ")"}
}

// drawTooSmall draws only the "terminal too small" message for a w×h screen
// that needs needW×needH, centred on it: on one line where it fits, else
// broken between its phrases (and within one only when it alone is wider
// than the screen).
func (r *Renderer) drawTooSmall(w, h, needW, needH int) {
	phrases := tooSmallPhrases(w, h, needW, needH)
	if r.hud.Paused {
		phrases = append([]string{"paused."}, phrases...)
	}
	lines := wrapPhrases(phrases, w)
	y := max((h-len(lines))/2, 0)
	for i, line := range lines {
		r.putCentred(rect{0, 0, w, h}, y+i, line, r.t.title)
	}
}

// wrapPhrases joins phrases with spaces into lines at most w cells wide,
// breaking only between phrases (wrapParts), except that a phrase wider
// than w is word-wrapped (wrapWords) on lines of its own.
func wrapPhrases(phrases []string, w int) []string {
	var lines []string
	for _, line := range wrapParts(phrases, " ", 0, w, len(phrases)) {
		lines = append(lines, wrapWords(line, w)...)
	}
	return lines
}

// wrapWords breaks s at spaces into lines at most w cells wide (a longer
// word gets a line of its own and is clipped when drawn).
func wrapWords(s string, w int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case textWidth(line)+1+textWidth(word) <= w:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	return append(lines, line)
}

// renderPanel renders a message box no wider than maxW cells: a bold
// title, then each part of body (a paragraph, or a block of lines), each
// word-wrapped to the box and centred in it. The box is as narrow as its
// widest part allows.
func renderPanel(t *theme, maxW int, title string, body ...string) string {
	key := panelKey{t: t, maxW: maxW, text: title + "\x00" + strings.Join(body, "\x00")}
	return panels.get(key, func() string { return buildPanel(t, maxW, title, body...) })
}

// buildPanel is renderPanel without its cache.
func buildPanel(t *theme, maxW int, title string, body ...string) string {
	room := max(maxW-t.panel.GetHorizontalFrameSize(), 1)
	widest := lipgloss.Width(title)
	for _, b := range body {
		widest = max(widest, lipgloss.Width(b))
	}
	w := min(widest, room)
	para := t.r.NewStyle().Width(w).Align(lipgloss.Center)
	parts := make([]string, 0, 2*len(body)+1)
	parts = append(parts, para.Render(t.panelTitle.Render(title)))
	for _, b := range body {
		parts = append(parts, "", para.Render(b))
	}
	return t.panel.Render(lipgloss.JoinVertical(lipgloss.Left, parts...))
}

// paintCentred paints the styled block s centred in area, clipped to it.
func (r *Renderer) paintCentred(area rect, s string) {
	b := parsedBlocks.get(blockKey{s: s, noColor: r.t.noColor}, func() parsedBlock {
		w, h := lipgloss.Size(s)
		return parsedBlock{text: parseCells(s, tcell.StyleDefault, r.t.noColor), w: w, h: h}
	})
	r.replay(&b.text, area.x+max((area.w-b.w)/2, 0), area.y+max((area.h-b.h)/2, 0), area)
}

// Panels are drawn every frame while they show, and are the same for
// many frames: they are laid out (lipgloss) and parsed once, in caches
// shared by every session of the process.
var (
	panels       = newMemo[panelKey, string](256)
	parsedBlocks = newMemo[blockKey, parsedBlock](256)
)

type panelKey struct {
	t    *theme
	maxW int
	text string
}

type blockKey struct {
	s       string
	noColor bool
}

type parsedBlock struct {
	text paintedText
	w, h int
}

// memo is a small concurrency-safe cache that forgets everything when it
// is full (the values it holds are cheap to rebuild, just not every frame).
type memo[K comparable, V any] struct {
	mu  sync.Mutex
	max int
	m   map[K]V
}

func newMemo[K comparable, V any](max int) *memo[K, V] {
	return &memo[K, V]{max: max, m: map[K]V{}}
}

// get returns the value of k, building it with build when it is missing.
func (c *memo[K, V]) get(k K, build func() V) V {
	c.mu.Lock()
	v, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return v
	}
	v = build()
	c.mu.Lock()
	if len(c.m) >= c.max {
		clear(c.m)
	}
	c.m[k] = v
	c.mu.Unlock()
	return v
}

// statusPanel returns the message box for the connecting, waiting,
// reconnecting and closed states, and "" for playing.
func statusPanel(t *theme, maxW int, v *netcode.View, opts Options) string {
	g := t.g
	switch v.Status {
	case netcode.StatusConnecting:
		title := "connecting" + g.ellipsis
		if opts.Server != "" {
			title = "connecting to " + opts.Server + g.ellipsis
		}
		return renderPanel(t, maxW, title, nonEmpty(v.Message)...)
	case netcode.StatusWaiting:
		return renderPanel(t, maxW, "waiting for players", waitingText(v, opts, g), rosterText(t, v, g))
	case netcode.StatusReconnecting:
		return renderPanel(t, maxW, "reconnecting"+g.ellipsis, nonEmpty(v.Message)...)
	case netcode.StatusClosed:
		msg := v.Message
		if msg == "" {
			msg = "the session is over"
		}
		return renderPanel(t, maxW, "session closed", msg)
	}
	return ""
}

// waitingText is "waiting for N more player(s) — share: ttytanks join ADDR".
func waitingText(v *netcode.View, opts Options, g *glyphs) string {
	s := "waiting for " + strconv.Itoa(v.Need) + " more player"
	if v.Need != 1 {
		s += "s"
	}
	switch {
	case opts.Share != "": // ssh: the lobby, then this room
		s += " " + g.dash + " share: " + opts.Share
		if v.Code != "" {
			s += ", code " + v.Code
		} else if v.Room != "" {
			s += ", room " + v.Room
		}
	case opts.ShareAddr != "":
		s += " " + g.dash + " share the command below"
	}
	if opts.Lobby {
		s += " " + g.dash + " l lobby"
	}
	return s
}

// joinCommand is the "ttytanks join ADDR" command the waiting screen
// shares (with the room, or a private room's code, and the server's key
// when known), or "" when there is none to share (an SSH session shares
// opts.Share in its box). It is drawn on a line of its own, outside the
// box and never wrapped, so that it copies whole (drawShareLine).
func joinCommand(v *netcode.View, opts Options) string {
	if opts.Share != "" || opts.ShareAddr == "" {
		return ""
	}
	s := "ttytanks join " + opts.ShareAddr
	switch {
	case v.Code != "":
		s += " --code " + v.Code
	case v.Room != "":
		s += " --room " + v.Room
	}
	if opts.ShareKey != "" {
		s += " --server-key " + opts.ShareKey
	}
	return s
}

// drawShareLine draws cmd on one row of its own, without a border: on
// the row below the box panel (centred in area), or above it when the box
// reaches the bottom; centred in area when it fits there, else from the
// left edge of the screen across its whole width (the sidebar included).
// A command wider than the screen is cut with an ellipsis, and the row
// below says how wide a window shows it whole.
func (r *Renderer) drawShareLine(area rect, panel, cmd string) {
	_, ph := lipgloss.Size(panel)
	top := area.y + max((area.h-ph)/2, 0)
	y := top + ph
	if y >= r.h {
		y = max(top-1, 0)
	}
	cw := textWidth(cmd)
	x := area.x + (area.w-cw)/2
	if cw > area.w {
		x = max((r.w-cw)/2, 0)
	}
	line := rect{x: 0, y: y, w: r.w, h: 1}
	for c := 0; c < r.w; c++ { // a clear row: nothing of the sidebar runs into it
		r.put(c, y, " ", 1, tcell.StyleDefault)
	}
	r.putString(x, y, truncate(cmd, r.w, r.t.g.ellipsis), r.t.title, line)
	if cw > r.w && y+1 < r.h { // cut: say how to see it whole
		note := "(a window " + strconv.Itoa(cw) + " columns wide shows the whole command)"
		next := rect{x: 0, y: y + 1, w: r.w, h: 1}
		for c := 0; c < r.w; c++ {
			r.put(c, y+1, " ", 1, tcell.StyleDefault)
		}
		r.putString(max((r.w-textWidth(note))/2, 0), y+1, note, r.t.text, next)
	}
}

// rosterText lists the seated players, one per line, as a left-aligned
// block.
func rosterText(t *theme, v *netcode.View, g *glyphs) string {
	var b strings.Builder
	b.WriteString("players so far:")
	n := 0
	for i := range game.MaxPlayers {
		if !inRoster(v, i) {
			continue
		}
		b.WriteString("\n" + g.bullet + " " + slotName(v, i))
		if i == v.Slot {
			b.WriteString(" (you)")
		}
		n++
	}
	if n == 0 {
		b.WriteString("\n(none yet)")
	}
	return t.r.NewStyle().Align(lipgloss.Left).Render(b.String())
}

// roundOverPanel is the box shown over the maze while a round is over: the
// result and every player's score.
func roundOverPanel(t *theme, maxW int, v *netcode.View) string {
	r := &v.World.Round
	// It shows for seconds: found by what it says, laid out once.
	key := make([]byte, 0, 96)
	key = strconv.AppendInt(key, int64(r.Number), 10)
	key = append(key, winnerText(v)...)
	for i := range min(int(v.World.Slots), game.MaxPlayers) {
		if v.World.Tanks[i].Seated {
			key = append(append(append(key, 0, byte(i)), slotName(v, i)...), 0)
			key = strconv.AppendInt(key, int64(v.World.Tanks[i].Score), 10)
		}
	}
	return panels.get(panelKey{t: t, maxW: maxW, text: "round over\x00" + string(key)}, func() string {
		var scores []string
		for i := range min(int(v.World.Slots), game.MaxPlayers) {
			if !v.World.Tanks[i].Seated {
				continue
			}
			scores = append(scores, t.slotName[i].Render(slotName(v, i))+"  "+
				t.value.Render(strconv.Itoa(int(v.World.Tanks[i].Score))))
		}
		title := "ROUND " + strconv.Itoa(int(r.Number)) + " OVER"
		return buildPanel(t, maxW, title, t.value.Render(winnerText(v)), lipgloss.JoinVertical(lipgloss.Right, scores...))
	})
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

// waitingPanel is shown over the field while a match left with one tank
// waits for another (game.PhaseWaiting): why nothing moves, that the
// score is kept, and how to leave.
func waitingPanel(t *theme, maxW int, v *netcode.View, lobby bool) string {
	score := 0
	if v.Slot >= 0 && v.Slot < game.MaxPlayers {
		score = int(v.World.Tanks[v.Slot].Score)
	}
	keys := "q quits"
	if lobby {
		keys = "l lobby " + t.g.dot + " q quits"
	}
	if settledByForfeit(v) {
		outcome := "they forfeit: you win, not rated"
		if change := ratingChange(v, v.Slot, t.g); change != t.g.dash {
			outcome = "they forfeit: you win, rated " + change
		}
		title := othersLeft(v)
		return panels.get(panelKey{t: t, maxW: maxW, text: "settled\x00" + title + "\x00" + outcome + keys}, func() string {
			return buildPanel(t, maxW, title, t.value.Render(outcome),
				t.label.Render("whoever joins next starts a new match"), t.label.Render(keys))
		})
	}
	return panels.get(panelKey{t: t, maxW: maxW, text: "waiting\x00" + strconv.Itoa(score) + keys}, func() string {
		return buildPanel(t, maxW, "WAITING FOR AN OPPONENT", t.value.Render("nobody else is left: the match waits for someone to join"),
			t.label.Render("your round wins are kept ("+strconv.Itoa(score)+")"), t.label.Render(keys))
	})
}

// othersLeft names who left a match settled by forfeit: "YOUR OPPONENT
// LEFT" in a duel (two seats), else "THE OTHERS LEFT".
func othersLeft(v *netcode.View) string {
	if v.World.Slots == 2 {
		return "YOUR OPPONENT LEFT"
	}
	return "THE OTHERS LEFT"
}

// settledByForfeit reports whether the match v waits in was recorded
// already: the ranked match's last opponents left it, forfeiting, and
// the server said so (View.Recorded), with this player's rating change
// in View.Rated, or without it if it did not rate them.
func settledByForfeit(v *netcode.View) bool {
	if v.World.Round.Phase != game.PhaseWaiting || v.Slot < 0 {
		return false
	}
	if v.Recorded {
		return true
	}
	for _, c := range v.Rated {
		if int(c.Slot) == v.Slot {
			return true
		}
	}
	return false
}
