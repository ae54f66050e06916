package skill

import (
	"math"
	"time"
)

// Room is a room a quick match may seat a newcomer in, as the server sees
// it at the newcomer's arrival. The caller passes only rooms a quick match
// may join (public, their match not over); Pick skips those with no free
// seat.
type Room struct {
	// Free and Taken are the room's free and taken seats.
	Free, Taken int
	// Ratings holds the R of each rated player seated, in rating points
	// (guests and bots have none and are left out). Pick only reads it.
	Ratings []float64
	// Ranked reports whether the room's match is rated.
	Ranked bool
	// Since is when the room's first waiting player began to wait for
	// the match to start; zero when nobody waits (the match is under way).
	Since time.Time
}

// wait returns how long the room's first waiting player has waited at
// now: zero if nobody waits, or if Since is after now.
func (c *Room) wait(now time.Time) time.Duration {
	if c.Since.IsZero() {
		return 0
	}
	return max(now.Sub(c.Since), 0)
}

// span returns the lowest, highest and mean R of the room's rated
// players, and how many there are (the first three are 0 if none).
func (c *Room) span() (lo, hi, mean float64, n int) {
	if len(c.Ratings) == 0 {
		return 0, 0, 0, 0
	}
	lo, hi = c.Ratings[0], c.Ratings[0]
	var sum float64
	for _, r := range c.Ratings {
		lo, hi, sum = min(lo, r), max(hi, r), sum+r
	}
	return lo, hi, sum / float64(len(c.Ratings)), len(c.Ratings)
}

// Rule is how a quick match seats a newcomer by rating. A rated newcomer
// fits a room when every rated player in it is within the room's window
// of the newcomer's R: Window(the room's wait) rating points either side.
// The window starts at Base, widens by Widen each second the room's first
// player has waited, and is unbounded from MaxWait on, so that a room
// waiting that long takes anyone and fills.
//
// While no window is past Base, every room's spread (its highest R less
// its lowest) stays within Base: each player who joined was within Base
// of every player already there.
//
// The zero Rule has every window unbounded: it seats by fullness alone.
type Rule struct {
	// Base is the window at a wait of zero, in rating points.
	Base float64
	// Widen is how much the window widens each second of wait, in rating
	// points a second.
	Widen float64
	// MaxWait is the wait from which the window is unbounded.
	MaxWait time.Duration
}

// The default rule's constants, which the simulation chose (doc.go says
// why): ±150 rating points, half a ladder's standard deviation of 300,
// widening by 10 points a second to ±450 just before 30 s, and unbounded
// from 30 s.
const (
	DefaultBase    = 150
	DefaultWiden   = 10
	DefaultMaxWait = 30 * time.Second
)

// DefaultRule is the rule of the default constants.
var DefaultRule = Rule{Base: DefaultBase, Widen: DefaultWiden, MaxWait: DefaultMaxWait}

// Window returns the window of a room whose first player has waited wait,
// in rating points either side of the newcomer: Base plus Widen for each
// second of wait (a negative wait counts as zero, and a window is never
// below zero), or +Inf from MaxWait on.
func (r Rule) Window(wait time.Duration) float64 {
	if wait >= r.MaxWait {
		return math.Inf(1)
	}
	return max(r.Base+r.Widen*max(wait, 0).Seconds(), 0)
}

// fits reports whether a rated newcomer at x fits a room whose rated
// players lie in [lo, hi] and whose window is w.
func fits(x, lo, hi, w float64) bool {
	return math.IsInf(w, 1) || (x-lo <= w && hi-x <= w)
}

// Pick returns the index in rooms of the room to seat a newcomer in at
// now, or -1 to open a new room. newcomer is the newcomer's R, and rated
// false for a guest, whose newcomer is ignored.
//
// A room is a candidate if it has a free seat and, for a rated newcomer,
// every rated player in it is within its window (a room with no rated
// player fits anyone). Of the candidates Pick prefers:
//
//  1. a room of the newcomer's kind: a ranked room for a rated newcomer,
//     a casual one for a guest, so that guests leave ranked seats to
//     players who have a rating, and go there only when no casual room
//     has a seat;
//  2. then the fullest (most seats taken);
//  3. then, for a rated newcomer, the one whose rated players' mean R is
//     closest to theirs (a room with none last);
//  4. then the first in rooms.
//
// Pick allocates nothing and does not change rooms; it is a pure function
// of its arguments, safe for concurrent use.
func (r Rule) Pick(rooms []Room, newcomer float64, rated bool, now time.Time) int {
	best, bestKind, bestTaken, bestDist := -1, false, 0, 0.0
	for i := range rooms {
		c := &rooms[i]
		if c.Free <= 0 {
			continue
		}
		dist := 0.0
		if rated {
			lo, hi, mean, n := c.span()
			switch {
			case n == 0:
				dist = math.Inf(1)
			case !fits(newcomer, lo, hi, r.Window(c.wait(now))):
				continue
			default:
				dist = math.Abs(mean - newcomer)
			}
		}
		kind := c.Ranked == rated
		if best >= 0 {
			if kind != bestKind {
				if !kind {
					continue
				}
			} else if c.Taken != bestTaken {
				if c.Taken < bestTaken {
					continue
				}
			} else if !(dist < bestDist) {
				continue
			}
		}
		best, bestKind, bestTaken, bestDist = i, kind, c.Taken, dist
	}
	return best
}

// Busy reports whether a server to which arrivals quick matches came in
// the last MaxWait (the newcomer's not counted) is busy enough, for rooms
// of seats seats, to seat a newcomer alone: at least twice seats of them,
// so that one who fits them is likely to come soon. On a quieter server
// Quiet applies.
func Busy(arrivals, seats int) bool { return arrivals >= 2*seats }

// Quiet returns the room a quiet server (Busy false) seats a newcomer in,
// given i, the room a rule picked for them in rooms (-1: a new room): i,
// unless the newcomer would wait there alone — in a new room, or one with
// no seat taken, such as a room a server keeps open — while another room
// has a seat taken and one free; then the fullest such room, the first
// on a tie, so that two players never wait apart for nobody. It panics if
// i is not -1 or an index of rooms; it allocates nothing.
func Quiet(rooms []Room, i int) int {
	if i >= 0 && rooms[i].Taken > 0 {
		return i
	}
	best := -1
	for j := range rooms {
		if c := &rooms[j]; c.Free > 0 && c.Taken > 0 && (best < 0 || c.Taken > rooms[best].Taken) {
			best = j
		}
	}
	if best < 0 {
		return i
	}
	return best
}

// Fullest returns the index in rooms of the room a quick match seats a
// newcomer in without regard to rating, as netcode's quick match does: the
// room with a free seat that has the most seats taken, the first of those
// on a tie, or -1 to open a new room. It allocates nothing.
func Fullest(rooms []Room) int {
	best := -1
	for i := range rooms {
		if rooms[i].Free > 0 && (best < 0 || rooms[i].Taken > rooms[best].Taken) {
			best = i
		}
	}
	return best
}
