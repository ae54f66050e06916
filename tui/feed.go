package tui

import (
	"strconv"

	"ttytanks/game"
	"ttytanks/netcode"
)

// FeedLen is how many lines the event feed keeps.
const FeedLen = 8

// feed is the event feed: "alice joined", "bot2 destroyed alice", "bob
// left", "round 3: alice wins". It derives the events from the successive
// views it is shown, so it needs nothing from netcode but the View.
//
// The roster (names, connections) comes from the server and is reported
// at once. Kills and round results are seen first in the predicted world,
// which a State may still take back; they are held until the newest State
// applied is at or past the tick they were seen at and the world still
// shows them (a predicted death that a State rolls back is dropped
// unseen). The killer is the owner of the bullet nearest the wreck in the
// previous view or, when none was near (a point-blank shot the client
// learnt of with the State that showed the death), of the last bullet seen
// to hit the victim this round. A feed is not safe for concurrent use.
type feed struct {
	lines [FeedLen]feedLine // a ring; lines[(next-1)%FeedLen] is the newest
	next  int               // lines written so far
	out   [FeedLen]string   // what last returns
	outL  [FeedLen]feedLine // what lastLines returns
	chat  uint64            // the chat lines of the view taken so far (View.ChatTotal)

	started   bool
	round     uint16
	names     [game.MaxPlayers]string
	connected [game.MaxPlayers]bool
	seated    [game.MaxPlayers]bool
	alive     [game.MaxPlayers]bool
	hp        [game.MaxPlayers]int8
	lastHit   [game.MaxPlayers]int         // who last hit each tank this round, -1 unknown
	bullets   [game.MaxBullets]game.Bullet // the previous view's bullets
	nBullets  int

	kill      [game.MaxPlayers]pendingEvent // a death not yet confirmed
	roundOver pendingEvent                  // the round's result, not yet confirmed
	roundDone bool                          // the round's result is reported
}

// pendingEvent is an event seen in the predicted world at tick, waiting
// for the server's State to reach it.
type pendingEvent struct {
	on   bool
	tick game.Tick
	who  int // the killer's slot (-1 unknown), or the round's winner
}

// feedLine is a line of the feed: its text and, for a chat line, the
// sayer's seat (whose colour its first name bytes take; -1: none).
type feedLine struct {
	text string
	slot int8
	name int // the bytes of text drawn in the seat's colour
	// chat marks a line said in the chat (spectator: by a spectator), so
	// that what HUD.Chat hides is hidden, the lines already shown too.
	chat, spectator bool
	// notice marks the server's own word (a ChatLine from the server),
	// drawn in a style no player's line takes: a player named "server"
	// cannot pass for it.
	notice bool
}

// shows reports whether l shows under the chat setting show.
func (l *feedLine) shows(show ChatShow) bool {
	return !l.chat || show == ChatAll || show == ChatPlayers && !l.spectator
}

// add appends a line to the feed.
func (f *feed) add(s string) { f.addLine(feedLine{text: s, slot: -1}) }

// addLine appends l to the feed.
func (f *feed) addLine(l feedLine) {
	f.lines[f.next%FeedLen] = l
	f.next++
}

// last returns the text of up to n of the newest lines, oldest first, in
// a slice that the next call reuses.
func (f *feed) last(n int) []string {
	out := f.out[:0]
	for _, l := range f.lastLines(n) {
		out = append(out, l.text)
	}
	return out
}

// lastLines returns up to n of the newest lines, oldest first, in a
// slice that the next call reuses.
func (f *feed) lastLines(n int) []feedLine { return f.shownLines(n, ChatAll) }

// shownLines returns up to n of the newest lines that show under the chat
// setting show, oldest first, in a slice that the next call reuses.
func (f *feed) shownLines(n int, show ChatShow) []feedLine {
	n = max(min(n, FeedLen), 0)
	k := f.next
	for found := 0; k > max(f.next-FeedLen, 0) && found < n; {
		k--
		if f.lines[k%FeedLen].shows(show) {
			found++
		}
	}
	out := f.outL[:0]
	for ; k < f.next; k++ {
		if l := f.lines[k%FeedLen]; l.shows(show) {
			out = append(out, l)
		}
	}
	return out
}

// observe takes the next view and adds the lines for what changed since
// the previous one.
func (f *feed) observe(v *netcode.View) {
	w := &v.World
	if !f.started {
		// The players already here when we arrive are not news.
		f.started = true
		for i := range f.lastHit {
			f.lastHit[i] = -1
		}
		f.names, f.connected = v.Names, v.Connected
		f.snapshot(v)
		return
	}
	f.roster(v)
	playing := v.Status == netcode.StatusPlaying || v.Status == netcode.StatusReconnecting
	if !playing || w.Round.Number != f.round {
		// A new round or match: nothing pending carries over.
		f.kill = [game.MaxPlayers]pendingEvent{}
		f.roundOver, f.roundDone = pendingEvent{}, false
		for i := range f.lastHit {
			f.lastHit[i] = -1
		}
		f.snapshot(v)
		return
	}
	confirmed := w.Tick.Add(-v.Metrics.StateDelay) // the newest State applied
	slots := min(int(w.Slots), game.MaxPlayers)
	for i := range slots {
		tk := &w.Tanks[i]
		switch {
		case tk.Alive:
			f.kill[i].on = false // a predicted death taken back
			if tk.HP < f.hp[i] {
				if s := f.shooter(tk); s >= 0 {
					f.lastHit[i] = s
				}
			}
		case f.alive[i] && tk.Spawned():
			who := f.shooter(tk)
			if who < 0 {
				who = f.lastHit[i]
			}
			f.kill[i] = pendingEvent{on: true, tick: w.Tick, who: who}
		}
		if p := &f.kill[i]; p.on && tk.Spawned() && !tk.Alive && !confirmed.Before(p.tick) {
			p.on = false
			f.add(killText(v, p.who, i))
		}
	}
	r := &w.Round
	switch {
	case r.Phase != game.PhaseOver:
		f.roundOver.on = false
	case !f.roundOver.on && !f.roundDone:
		f.roundOver = pendingEvent{on: true, tick: w.Tick, who: int(r.Winner)}
	}
	if p := &f.roundOver; p.on && r.Phase == game.PhaseOver && !confirmed.Before(p.tick) {
		p.on, f.roundDone = false, true
		f.add("round " + strconv.Itoa(int(r.Number)) + ": " + winnerText(v))
	}
	f.snapshot(v)
}

// roster adds a line for each player who joined, left, lost the
// connection or came back.
func (f *feed) roster(v *netcode.View) {
	for i := range game.MaxPlayers {
		was, now := f.names[i], v.Names[i]
		seated := i < int(v.World.Slots) && v.World.Tanks[i].Seated
		switch {
		case was != "" && now != was:
			f.add(was + " left")
			if now != "" {
				f.add(now + " joined")
			}
		case was == "" && now != "":
			f.add(now + " joined")
		case now != "" && f.seated[i] && !seated && v.Status == netcode.StatusPlaying && f.round == v.World.Round.Number:
			f.add(now + " left") // the seat was given up; the name stays until the roster changes
		case now != "" && f.connected[i] && !v.Connected[i]:
			f.add(now + " lost the connection")
		case now != "" && !f.connected[i] && v.Connected[i] && was == now:
			f.add(now + " is back")
		}
	}
	f.names, f.connected = v.Names, v.Connected
}

// snapshot remembers what observe compares the next view with.
func (f *feed) snapshot(v *netcode.View) {
	w := &v.World
	f.round = w.Round.Number
	for i := range game.MaxPlayers {
		f.alive[i] = i < int(w.Slots) && w.Tanks[i].Alive
		f.hp[i] = w.Tanks[i].HP
		f.seated[i] = i < int(w.Slots) && w.Tanks[i].Seated
	}
	f.nBullets = min(int(w.NumBullets), game.MaxBullets)
	copy(f.bullets[:], w.Bullets[:f.nBullets])
}

// shooter returns the owner of the previous view's bullet nearest the
// wreck tk (within two tiles), or -1.
func (f *feed) shooter(tk *game.Tank) int {
	best, bestD := -1, int32(2*game.SubTile)
	for _, b := range f.bullets[:f.nBullets] {
		d := max(abs32(b.X-tk.X), abs32(b.Y-tk.Y))
		if d < bestD && int(b.Owner) < game.MaxPlayers {
			best, bestD = int(b.Owner), d
		}
	}
	return best
}

// killText is the feed line for slot victim destroyed by slot killer (-1:
// unknown).
func killText(v *netcode.View, killer, victim int) string {
	switch killer {
	case -1:
		return slotName(v, victim) + " was destroyed"
	case victim:
		return slotName(v, victim) + " was hit by their own shot"
	}
	return slotName(v, killer) + " destroyed " + slotName(v, victim)
}

func abs32(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}
