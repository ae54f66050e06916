package netcode

// epochMemory is how many match epochs a connection remembers, on
// either side.
const epochMemory = 4

// epochs maps the match epochs of a connection to the (match, player)
// pairs they stand for: the last epochMemory of them.
type epochs struct {
	last uint8 // the newest epoch given (0: none)
	e    [epochMemory]epoch
}

type epoch struct {
	n      uint8
	match  uint32
	player uint8
}

// forStart returns the epoch of a Start for match and player: the newest
// one if it stands for the same pair, else a new one.
func (e *epochs) forStart(match uint32, player uint8) uint8 {
	if cur := &e.e[e.last%epochMemory]; e.last != 0 && cur.match == match && cur.player == player {
		return e.last
	}
	e.last++
	if e.last == 0 {
		e.last = 1 // 0 stands for no match
	}
	e.e[e.last%epochMemory] = epoch{n: e.last, match: match, player: player}
	return e.last
}

// learn records what a received Start says epoch n stands for.
func (e *epochs) learn(n uint8, match uint32, player uint8) {
	if n == 0 {
		return
	}
	e.e[n%epochMemory] = epoch{n: n, match: match, player: player}
	e.last = n
}

// of returns the epoch that stands for match and player, or 0.
func (e *epochs) of(match uint32, player uint8) uint8 {
	for i := range e.e {
		if x := &e.e[i]; x.n != 0 && x.match == match && x.player == player {
			return x.n
		}
	}
	return 0
}

// lookup returns the pair epoch n stands for.
func (e *epochs) lookup(n uint8) (match uint32, player uint8, ok bool) {
	if x := &e.e[n%epochMemory]; n != 0 && x.n == n {
		return x.match, x.player, true
	}
	return 0, 0, false
}
