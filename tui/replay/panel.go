package replay

import (
	"fmt"
	"strconv"
	"strings"

	"ttytanks/game"
	"ttytanks/tui"
)

// helpTable is the help overlay's table: keyTable.
var helpTable = func() [][2]string { return append([][2]string(nil), keyTable...) }()

// fillPanel makes pn the replay's own sidebar, help and feed at the
// current position: the recording (its name and match id), the round and
// the score, the speed and the position, and the followed player's
// figures (round wins, kills, deaths, shots, hits); the feed holds the
// events up to the position. It reuses pn's slices.
func (p *Player) fillPanel(pn *tui.Panel) {
	tl := p.TL
	st := tl.State()
	h := tl.Header()
	match := "#" + strconv.FormatUint(uint64(h.Match), 10)
	if p.Name != "" {
		match = p.Name + " " + match
	}
	round := strconv.Itoa(tl.Round()) + " of " + strconv.Itoa(tl.Rounds())
	if h.Rounds > 0 {
		round += ", first to " + strconv.Itoa(h.Rounds)
	}
	var score []string
	for i := range min(int(st.Slots), game.MaxPlayers) {
		if st.Tanks[i].Seated {
			score = append(score, strconv.Itoa(int(st.Tanks[i].Score)))
		}
	}
	speed := fmt.Sprintf("%gx", Speeds[p.Speed])
	if p.Paused {
		speed += " paused"
	}
	pos, total := tl.Tick().Diff(tl.Start()), tl.End().Diff(tl.Start())
	*pn = tui.Panel{
		Mode: "REPLAY",
		Sections: append(pn.Sections[:0], tui.PanelSection{Title: "replay", Rows: []tui.PanelRow{
			{Label: "match", Value: match},
			{Label: "round", Value: round},
			{Label: "score", Value: strings.Join(score, " - ")},
			{Label: "speed", Value: speed},
			{Label: "position", Value: clock(pos) + " / " + clock(total)},
		}}),
		Keys: keyHints,
		Help: helpTable,
		Feed: p.Feed.Lines(tl.Start(), tl.Tick()),
	}
	if f := p.Follow; f >= 0 && f < int(st.Slots) {
		tk := &st.Tanks[f]
		name := followName(tl, f)
		n := func(v uint16) string { return strconv.Itoa(int(v)) }
		pn.Sections = append(pn.Sections, tui.PanelSection{Title: "following " + name, Rows: []tui.PanelRow{
			{Label: "rounds won", Value: n(tk.Score)},
			{Label: "kills", Value: n(tk.Stats.Kills)},
			{Label: "deaths", Value: n(tk.Stats.Deaths)},
			{Label: "shots", Value: n(tk.Stats.Shots)},
			{Label: "hits", Value: n(tk.Stats.Hits)},
		}})
	}
}
