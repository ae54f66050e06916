package replay

import (
	"sort"
	"strconv"

	"ttytanks/game"
	"ttytanks/proto/recording/resim"
)

// Feed is a recording's event feed, worked out once from the whole
// timeline: each kill, round result and seat change with the tick at
// which the world first shows it. Lines gives what has happened by a
// tick, so a seek back forgets the later events and a seek forward shows
// those it jumped over. A Feed is safe for concurrent reads.
type Feed struct {
	ticks []game.Tick // the tick of each line, in order
	texts []string
}

// NewFeed steps tl from its start to its end to find the events, and
// leaves tl where it was.
func NewFeed(tl *resim.Timeline) *Feed {
	at := tl.Tick()
	defer tl.Seek(at)
	tl.Seek(tl.Start())
	f := &Feed{}
	var prev game.Snapshot
	prev = *tl.State()
	names := tl.Names()
	for tl.Step() {
		cur, now := tl.State(), tl.Names()
		f.step(&prev, cur, names, now)
		prev, names = *cur, now
	}
	return f
}

// step adds the events between two successive positions.
func (f *Feed) step(prev, cur *game.Snapshot, was, now [game.MaxPlayers]string) {
	t := cur.Tick
	name := func(i int) string {
		if now[i] != "" {
			return now[i]
		}
		if was[i] != "" {
			return was[i]
		}
		return "player " + strconv.Itoa(i+1)
	}
	for i := range game.MaxPlayers {
		seatedBefore := i < int(prev.Slots) && prev.Tanks[i].Seated
		seated := i < int(cur.Slots) && cur.Tanks[i].Seated
		switch {
		case was[i] != "" && now[i] != was[i] && now[i] != "":
			f.add(t, was[i]+" left")
			f.add(t, now[i]+" joined")
		case seatedBefore && !seated:
			f.add(t, name(i)+" left")
		case !seatedBefore && seated && now[i] != "":
			f.add(t, now[i]+" joined")
		}
	}
	slots := min(int(cur.Slots), game.MaxPlayers)
	var killers []int
	for j := range slots {
		if cur.Tanks[j].Stats.Kills > prev.Tanks[j].Stats.Kills {
			killers = append(killers, j)
		}
	}
	for i := range slots {
		if cur.Tanks[i].Stats.Deaths <= prev.Tanks[i].Stats.Deaths {
			continue
		}
		who := nearestOwner(prev, &cur.Tanks[i])
		switch {
		case who == i:
			f.add(t, name(i)+" was hit by their own shot")
			continue
		case who >= 0 && contains(killers, who):
		case len(killers) == 1:
			who = killers[0]
		default:
			f.add(t, name(i)+" was destroyed")
			continue
		}
		f.add(t, name(who)+" destroyed "+name(i))
	}
	if r := &cur.Round; r.Phase != prev.Round.Phase {
		switch r.Phase {
		case game.PhaseOver:
			f.add(t, "round "+strconv.Itoa(int(r.Number))+": "+winner(r.Winner, name))
		case game.PhaseMatchOver:
			f.add(t, "match over: "+winner(r.Winner, name))
		}
	}
}

func winner(w int8, name func(int) string) string {
	if w < 0 || int(w) >= game.MaxPlayers {
		return "draw"
	}
	return name(int(w)) + " wins"
}

// nearestOwner returns the owner of prev's bullet nearest the wreck tk
// (within two tiles), or −1.
func nearestOwner(prev *game.Snapshot, tk *game.Tank) int {
	best, bestD := -1, int32(2*game.SubTile)
	for _, b := range prev.Bullets[:min(int(prev.NumBullets), game.MaxBullets)] {
		d := max(abs32(b.X-tk.X), abs32(b.Y-tk.Y))
		if d < bestD && int(b.Owner) < game.MaxPlayers {
			best, bestD = int(b.Owner), d
		}
	}
	return best
}

func contains(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func abs32(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}

func (f *Feed) add(t game.Tick, s string) {
	f.ticks = append(f.ticks, t)
	f.texts = append(f.texts, s)
}

// Lines returns the events that have happened by tick t (the world at t
// shows them), oldest first, in a slice of the Feed's own: read it, do
// not change it. Ticks are compared relative to start, the recording's.
func (f *Feed) Lines(start, t game.Tick) []string {
	rel := t.Diff(start)
	n := sort.Search(len(f.ticks), func(i int) bool { return f.ticks[i].Diff(start) > rel })
	return f.texts[:n:n]
}
