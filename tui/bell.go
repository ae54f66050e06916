package tui

import (
	"ttytanks/game"
	"ttytanks/netcode"
)

// bell rings the terminal bell (Options.Bell) when the local tank is hit
// and when it destroys another tank: once for each hit and each kill.
// It follows the predicted world the frames show, so a hit rings as the
// tank is drawn hit; a prediction that a State takes back and makes again
// rings once, not twice: it rings only for damage this round, or kills
// this match, beyond the most it has seen. A spectator's bell never
// rings. Not safe for concurrent use.
type bell struct {
	on     bool   // a seat's figures are held
	slot   int    // the local seat the figures are of
	round  uint16 // the round the damage is counted in
	damage int    // the most damage seen on the local tank this round
	kills  uint16 // the most kills by the local tank seen this match
}

// observe takes the view being drawn and returns how many times to ring.
func (b *bell) observe(v *netcode.View) (rings int) {
	w := &v.World
	s := v.Slot
	if v.Status != netcode.StatusPlaying || s < 0 || s >= int(w.Slots) || s >= game.MaxPlayers || !w.Tanks[s].Seated {
		b.on = false
		return 0
	}
	tk := &w.Tanks[s]
	damage := 0
	if tk.Spawned() {
		damage = int(game.TankHP) - int(max(tk.HP, 0))
	}
	if !b.on || b.slot != s {
		// A new seat: what it has already suffered and done is not news.
		b.on, b.slot, b.round, b.damage, b.kills = true, s, w.Round.Number, damage, tk.Stats.Kills
		return 0
	}
	if w.Round.Number != b.round {
		if w.Round.Number < b.round { // a new match: its figures start again
			b.kills = tk.Stats.Kills
		}
		b.round, b.damage = w.Round.Number, 0
	}
	if damage > b.damage {
		rings += (damage - b.damage + game.BulletDamage - 1) / game.BulletDamage
		b.damage = damage
	}
	if k := tk.Stats.Kills; k > b.kills {
		rings += int(k - b.kills)
		b.kills = k
	}
	return rings
}
