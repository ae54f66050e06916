package tui

import (
	"ttytanks/game"
	"ttytanks/netcode"
)

// BurstTicks is how long, in ticks, a destroyed tank is drawn bursting
// before it is a wreck.
const BurstTicks = 24

// hitFlashTicks is the period, in ticks, of a hit tank's flash: it shows
// its hit marks for half of each period of its hitstun.
const hitFlashTicks = 6

// effects is the renderer's short memory of what it drew, for the effects
// that outlast a single view: the tick at which each tank was first drawn
// destroyed, for its burst. A tank drawn alive again (a predicted death
// that a State rolled back, or a new round) forgets it at once, so nothing
// of a death that did not happen stays on the screen. Hits need no memory:
// a hit tank flashes while the view shows it in hitstun. Not safe for
// concurrent use.
type effects struct {
	seen    bool
	alive   [game.MaxPlayers]bool
	dying   [game.MaxPlayers]bool      // the burst is running
	deathAt [game.MaxPlayers]game.Tick // the tick the burst started
}

// observe takes the view about to be drawn.
func (e *effects) observe(v *netcode.View) {
	w := &v.World
	for i := range game.MaxPlayers {
		tk := &w.Tanks[i]
		alive := i < int(w.Slots) && tk.Alive
		switch {
		case alive || i >= int(w.Slots) || !tk.Spawned():
			e.dying[i] = false
		case e.seen && e.alive[i]:
			e.dying[i], e.deathAt[i] = true, w.Tick
		}
		e.alive[i] = alive
	}
	e.seen = true
}

// burst returns the burst frame (0 first) of slot i's destroyed tank at
// tick t, or -1 when it is not bursting.
func (e *effects) burst(i int, t game.Tick) int {
	if !e.dying[i] {
		return -1
	}
	d := t.Diff(e.deathAt[i])
	if d < 0 || d >= BurstTicks {
		return -1
	}
	return int(d) * len(unicodeGlyphs.burst) / BurstTicks
}

// flashing reports whether a tank with hitstun ticks left shows its hit
// marks now: in the first half of each flash period, counted from the hit.
func flashing(hitstun uint8) bool {
	if hitstun == 0 {
		return false
	}
	since := int(game.HitstunTicks) - int(hitstun)
	return since%hitFlashTicks < hitFlashTicks/2
}
