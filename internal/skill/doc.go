// Package skill chooses the room a quick match seats a player in by
// rating, and simulates quick matches to compare such rules.
//
// Fullest seats by fullness alone, as a server's quick match does without
// ratings: the room with a free seat that has the most seats taken. Rule keeps that preference within a
// window of rating: a rated newcomer fits a room when every rated player
// in it is within the room's window of the newcomer's R. The window starts
// at Base rating points either side and widens by Widen each second the
// room's first player has waited, as a matchmaker widens a ticket's skill
// window the longer it waits (Nakama's guide "How to build skill-based
// matchmaking" does so). From MaxWait on the window is unbounded: a room
// that has waited that long takes anyone, and while it has a free seat
// Pick opens no room, so the next arrivals fill the rooms open. Pick
// prefers a room of the newcomer's kind (ranked for a rated player, casual
// for a guest), then the fullest, then the closest mean R, then the first;
// -1 means open a new room.
//
// A guest has no rating and matches anywhere, preferring a casual room so
// that the seats of ranked rooms go to players who have a rating. A rated
// newcomer prefers a ranked room, and takes a casual one that fits rather
// than open a room. Only R is used, not RD: a new player's RD of 350 would
// widen any window scaled by it to nearly the whole ladder, and a window
// of points is one a player can be told ("within 150 of you").
//
// A server asks Pick where each quick-match newcomer goes, passing the
// rooms a quick match may join:
//
//	cands = cands[:0]
//	for _, r := range quickRooms { // public, their match not over
//		cands = append(cands, skill.Room{Free: r.free(), Taken: r.taken(),
//			Ratings: r.ratings(), Ranked: r.ranked(), Since: r.waitingSince()})
//	}
//	i := skill.DefaultRule.Pick(cands, p.R, p.rated, now)
//	if !skill.Busy(arrivalsInLast30s, seats) {
//		i = skill.Quiet(cands, i) // not alone while another waits
//	}
//	if i >= 0 {
//		return quickRooms[i] // seat p there
//	}
//	// open a new room for p
//
// Busy and Quiet are the quiet-server rule: on a server with fewer than
// twice a room's seats of arrivals in the last MaxWait, a newcomer whom
// Pick would seat alone (in a new room, or in an empty one a server keeps
// open) takes the fullest room where someone is seated instead, whatever
// its kind, so that two players never wait apart for nobody.
// TestSimulationQuietServerSeatsTogether holds a quiet server that keeps
// two rooms open to it: by Pick alone 95 of 500 players (in rooms of 2)
// are seated apart from one who waits; with the rule, none.
//
// Nothing here reads a clock or does I/O: the caller passes now, and
// Simulate draws from a seeded PCG source. Everything is safe for
// concurrent use.
//
// # The simulation and the constants
//
// Simulate seats a seeded Poisson stream of players, rated as a ladder's
// are (normal, mean 1500, standard deviation 300, clamped at 3 of them),
// in rooms of a number of seats that start their match when full, and
// reports the players' waits and the rooms' rating spreads (highest R
// less lowest). TestSimulationMatchesBySkill runs 1,000 players through a
// quiet server (one every 2 s) and a busy one (2 a second), with rooms of
// 2 and of 4, before (Fullest) and after (DefaultRule), and logs the table;
// TestSimulationSweep logs the rules around DefaultRule, the mean of 8
// seeds, which the figures below are.
//
// The constants are DefaultBase ±150, DefaultWiden 10 points a second and
// DefaultMaxWait 30 s, in points of a ladder whose spread is about 300 (a
// ladder much wider or narrower would scale Base and Widen with it):
//
//   - MaxWait 30 s is where the sweep's gains flatten. At 20 s a quiet
//     server's rooms of 4 barely halve their median spread (0.45 of
//     Fullest's), and a busy server's rooms of 4 have a 95th percentile
//     spread of 593 points against 316 at 30 s. At 45 s the median spread
//     improves little (0.40 against 0.42) for 2 s more of wait at the 95th
//     percentile; only the quiet server's 95th percentile spread in rooms
//     of 4 gains much (984 to 664), and a 45 s wait is long for a quick
//     match.
//   - Base ±150, half a standard deviation, keeps a margin both ways: at
//     ±100 a busy server's waits at the 95th percentile are longer (7.7 s
//     and 15.3 s against 5.5 s and 13.0 s at 2 and 4 seats) for spreads
//     already far below half; at ±200 a quiet server's rooms of 4 come to
//     0.45 of Fullest's median spread, close to the half that is asked.
//   - Widen 10 takes the window to ±450, 1.5 standard deviations, just
//     before MaxWait, so the step to unbounded there matters mostly to the
//     tails of the ladder. At 5 the median spread is lower (0.34 of
//     Fullest's in a quiet server's rooms of 4, against 0.42) for 2 s more
//     of wait at the 95th percentile (33.7 s against 31.5 s, and 15.2 s
//     against 13.0 s on a busy server); at 15 the quiet server's rooms of
//     4 come to 0.48 of Fullest's median spread.
//
// The price is the wait. In TestSimulationMatchesBySkill, at seed 1, a busy server's rooms of 4 go from a
// median spread of 571 points to 150, and its players' 95th percentile
// wait from 2.3 s to 13.0 s; a quiet server's from 571 to 233 and from
// 9.1 s to 30.0 s. The tests hold every workload to a median spread at
// most half of Fullest's and a 95th percentile wait within MaxWait plus
// the time (at the 95th percentile) for the seats but one to fill at that
// rate of arrivals.
//
//	file       what it holds
//	rule.go    Room, Rule, DefaultRule, Window, Pick, Busy, Quiet, Fullest
//	sim.go     SimConfig, Report, Simulate: quick matches played out
package skill
