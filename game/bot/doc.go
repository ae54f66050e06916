// Package bot is a deterministic computer player for ttytanks.
//
// A Bot is called once per tick with the newest state (predicted or
// authoritative) and returns one slot's input:
//
//	b := bot.New(seed)
//	in := b.Input(w.State(), w.Maze(), slot)
//
// # Policy
//
// Each call, in order:
//
//   - Idle: outside PhasePlaying, for a dead or stunned tank, or when the
//     maze is not the snapshot's, the input is neutral.
//   - Seek: a breadth-first search over floor tiles from every live enemy
//     gives each tile its path distance to the nearest one. The bot steps
//     to a neighbouring tile one closer, steering for that tile along the
//     lane and first lining up with the lane it turns into when it is too
//     far off it for the game's corner assist to slide it in. Ties between
//     equal paths are broken by the bot's dice, and for an occasional
//     stretch (one epoch in wanderOneIn, never when the enemy is close) it
//     heads for a random cell near the enemy instead, which may lead round
//     another way.
//   - Shoot: with its cooldown over, the bot simulates a bullet fired in
//     each of the eight directions (the aim changes in the same tick as the
//     move that sets it, so one tick turns and fires) with the game's
//     ricochet rules, and keeps those that hit an enemy within shotReach
//     ticks and shotBounces ricochets before they could hit the bot
//     itself. A wall in the way, a point-blank shot into the wall it faces
//     (which would come straight back) or an enemy out of line all give no
//     shot. It fires only "sure" shots: the target, reacting a tick late
//     and trying every simple escape (hold any of the nine moves, or run
//     along a lane and then turn off it) cannot get clear of the bullet's
//     path, including a bullet catching it from behind. Shots a target can
//     dodge would only fill the corridors with ricochets. Among sure shots
//     it takes the quickest; with one in hand it turns and fires instead of
//     following the path, holding fire for a tick now and then
//     (hesitateOneIn) so two bots do not trade in lockstep.
//   - Dodge: every bullet in flight is traced for window ticks (any owner;
//     its own only once it has bounced). If the chosen move, held for active
//     ticks and then standing still, is hit within safeAfter ticks, the bot
//     tries a few dozen move sequences (each move held; fire this tick and
//     then move; run along a lane for 4..20 ticks and then turn off it) and
//     takes the one hit last, hits after safeAfter counting as none, then
//     the one that ends nearest its target. Stepping into a side opening
//     perpendicular to the bullet, or back round a corner, come out of this
//     search; so does not running ahead of a bullet down a dead end.
//
// # Levels
//
// A Level weakens the policy above, and only by what it lets the bot see
// and do, never by cheating: Hard is all of it (New makes a Hard bot, and
// so does the zero Bot). Normal looks for a shot only every lookEvery
// ticks, fires one shot in missOneIn 45° off, and dodges only bullets that
// have flown seeAfter ticks (it sees them late). Easy looks for a shot a
// few times a second, misses one shot in three, and never dodges. The
// tests play the levels against each other and against a scripted
// newcomer who only turns to face a lined-up enemy and fires.
//
// The look-ahead uses a copy of the game's movement and bullet rules (tank
// acceleration, corner assist and wall clipping; ricochets, bounce limit
// and life), checked against the real World by the tests. It ignores other
// tanks as obstacles.
//
// # Determinism
//
// Like package game, it uses no clocks, IO, goroutines, maps, floats or
// global randomness, and Input does not allocate. A Bot keeps no memory
// between calls, only scratch space: its random choices are hashed from
// its seed, the slot and the tick (or the epoch of the tick), so Input is a
// pure function of the seed and its arguments, and replays and rollbacks
// get the same answer. A Bot is not safe for concurrent use; use one per
// goroutine.
package bot
