package resim

import (
	"ttytanks/game"
	"ttytanks/game/bot"
)

// botInputs returns an input source of game/bot's bots, one per seat.
func botInputs() func(*game.World, int) game.Input {
	var bots [game.MaxPlayers]*bot.Bot
	for i := range bots {
		bots[i] = bot.New(uint64(i + 1))
	}
	return func(w *game.World, s int) game.Input { return bots[s].Input(w.State(), w.Maze(), s) }
}
