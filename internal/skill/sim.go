package skill

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"
)

// SimConfig is a simulation of quick-match tickets: Tickets players, one
// arriving at a time as a Poisson process of Rate a second, each seated on
// arrival by Pick in rooms of Seats seats. A room's match starts when its
// last seat is taken, and a player's wait is from their arrival to that.
type SimConfig struct {
	// Seed seeds the PCG source of the arrivals and the ratings.
	Seed uint64
	// Tickets is how many players arrive; Rate how many a second, on
	// average; Seats the seats of a room (at least 2).
	Tickets int
	Rate    float64
	Seats   int
	// Mean and SD are the normal distribution the players' R is drawn
	// from, clamped to [Mean-3 SD, Mean+3 SD] as a ladder's tails thin
	// out (zero: 1500 and 300, a new player's R in package rating and a
	// ladder's spread).
	Mean, SD float64
	// Guests is the share of players with no rating, 0 to 1. A room a
	// guest opens is casual, one a rated player opens ranked.
	Guests float64
	// Pick seats a player: the rule under test, as Rule.Pick (nil: the
	// fullest room, Fullest).
	Pick func(rooms []Room, newcomer float64, rated bool, now time.Time) int
	// Rooms is how many rooms stay open from the start, ranked and empty
	// until a player comes, as a server's --rooms keeps them: one that
	// starts its match is replaced by an empty one. Pick sees them as it
	// sees the rooms it opened.
	Rooms int
	// Quiet, if not zero, seats as a server does on a quiet server: a
	// player arriving when fewer than twice Seats others arrived in the
	// last Quiet (Busy false) is seated where Quiet says, not where Pick
	// says. Zero: where Pick says.
	Quiet time.Duration
}

// Report is what a simulation measured.
type Report struct {
	// Started is how many rooms started their match; Seated how many
	// players were in them; Waiting how many were still waiting in a room
	// at the last arrival (their waits are not in the quantiles).
	Started, Seated, Waiting int
	// Apart is how many players were seated alone, in a new room or an
	// empty one, while another room held a waiting player, arriving when
	// the server was quiet (fewer than twice Seats others in the last
	// Quiet, or DefaultMaxWait if Quiet is zero): two players waiting
	// apart on a server where nobody may come to either.
	Apart int
	// WaitP50, WaitP95 and WaitMax are quantiles of the seated players'
	// waits.
	WaitP50, WaitP95, WaitMax time.Duration
	// SpreadP50, SpreadP95 and SpreadMean are of the started rooms'
	// rating spreads, their highest R less their lowest, in rating points
	// (rooms with fewer than two rated players left out).
	SpreadP50, SpreadP95, SpreadMean float64
}

// simEpoch is when a simulation's clock starts; any time would do.
var simEpoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// simRoom is a room the simulation has open: its players' arrivals, the R
// of its rated players, its kind, when its first player arrived, and
// whether it stays open (SimConfig.Rooms).
type simRoom struct {
	arrivals []time.Time
	ratings  []float64
	ranked   bool
	since    time.Time
	stays    bool
}

// Simulate runs cfg and reports what it measured. It is a pure function
// of cfg: the same cfg gives the same Report. It panics if cfg has fewer
// than 1 ticket or 2 seats, or a Rate that is not positive, or if Pick
// chooses a room that is not in its rooms (it is offered only rooms with
// a free seat: a full room starts and leaves the list).
func Simulate(cfg SimConfig) Report {
	if cfg.Tickets < 1 || cfg.Seats < 2 || !(cfg.Rate > 0) || math.IsInf(cfg.Rate, 1) {
		panic(fmt.Sprintf("skill: Simulate: %d tickets, %d seats, rate %v", cfg.Tickets, cfg.Seats, cfg.Rate))
	}
	mean, sd := cfg.Mean, cfg.SD
	if mean == 0 && sd == 0 {
		mean, sd = 1500, 300
	}
	pick := cfg.Pick
	if pick == nil {
		pick = func(rooms []Room, _ float64, _ bool, _ time.Time) int { return Fullest(rooms) }
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x736b696c6c)) // "skill"
	var (
		open    []*simRoom
		view    []Room
		waits   []time.Duration
		spreads []float64
		recent  []time.Time // the arrivals of the last quiet span, oldest first
		rep     Report
	)
	for range cfg.Rooms {
		open = append(open, &simRoom{ranked: true, stays: true})
	}
	span := cfg.Quiet
	if span == 0 {
		span = DefaultMaxWait
	}
	now := simEpoch
	for range cfg.Tickets {
		now = now.Add(time.Duration(rng.ExpFloat64() / cfg.Rate * float64(time.Second)))
		r := min(max(mean+sd*rng.NormFloat64(), mean-3*sd), mean+3*sd)
		rated := rng.Float64() >= cfg.Guests
		for len(recent) > 0 && now.Sub(recent[0]) > span {
			recent = recent[1:]
		}
		busy := Busy(len(recent), cfg.Seats)
		recent = append(recent, now)
		view = view[:0]
		waiting := false
		for _, o := range open {
			view = append(view, Room{Free: cfg.Seats - len(o.arrivals), Taken: len(o.arrivals),
				Ratings: o.ratings, Ranked: o.ranked, Since: o.since})
			waiting = waiting || len(o.arrivals) > 0
		}
		i := pick(view, r, rated, now)
		if i >= len(open) {
			panic(fmt.Sprintf("skill: Simulate: Pick chose room %d of %d", i, len(open)))
		}
		if cfg.Quiet != 0 && !busy {
			i = Quiet(view, i)
		}
		if !busy && waiting && (i < 0 || len(open[i].arrivals) == 0) {
			rep.Apart++
		}
		if i < 0 {
			open = append(open, &simRoom{ranked: rated})
			i = len(open) - 1
		}
		o := open[i]
		if len(o.arrivals) == 0 {
			o.since = now
		}
		o.arrivals = append(o.arrivals, now)
		if rated {
			o.ratings = append(o.ratings, r)
		}
		if len(o.arrivals) < cfg.Seats {
			continue
		}
		rep.Started++
		for _, a := range o.arrivals {
			waits = append(waits, now.Sub(a))
		}
		if len(o.ratings) >= 2 {
			spreads = append(spreads, slices.Max(o.ratings)-slices.Min(o.ratings))
		}
		if o.stays {
			open[i] = &simRoom{ranked: true, stays: true}
		} else {
			open = slices.Delete(open, i, i+1)
		}
	}
	for _, o := range open {
		rep.Waiting += len(o.arrivals)
	}
	rep.Seated = len(waits)
	slices.Sort(waits)
	slices.Sort(spreads)
	if len(waits) > 0 {
		rep.WaitP50, rep.WaitP95, rep.WaitMax = quantile(waits, 0.5), quantile(waits, 0.95), waits[len(waits)-1]
	}
	if len(spreads) > 0 {
		var sum float64
		for _, s := range spreads {
			sum += s
		}
		rep.SpreadP50, rep.SpreadP95, rep.SpreadMean = quantile(spreads, 0.5), quantile(spreads, 0.95), sum/float64(len(spreads))
	}
	return rep
}

// quantile returns the q quantile of sorted, which is not empty, by the
// nearest rank: the smallest value at least a share q of them are at or
// below.
func quantile[T any](sorted []T, q float64) T {
	k := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[min(max(k, 0), len(sorted)-1)]
}
