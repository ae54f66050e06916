package sshfront

import (
	"log/slog"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"time"
)

// TallyEvery is how often the front end logs what it refused, dropped
// and closed: one line per interval with counts, instead of one line per
// connection (a flood of key exchanges made 15.7 MB of log in 45 s when
// each refusal had its own line).
const TallyEvery = 10 * time.Second

// maxTallyPrefixes bounds the distinct prefixes a tally remembers within
// one interval; beyond it they are counted, not named.
const maxTallyPrefixes = 4096

// tally counts refusals by what happened, and by prefix, within one
// interval. It is a pure value: the Server adds under its mutex and logs
// what take returns. Not safe for concurrent use.
type tally struct {
	since    time.Time
	events   map[string]int
	prefixes map[netip.Addr]int
	others   int // events of prefixes beyond maxTallyPrefixes
}

// add counts one event ("refused: banned", "closed: setup deadline") of
// a client in prefix at now; it reports whether the tally was empty, so
// the caller schedules a flush TallyEvery later.
func (t *tally) add(event string, prefix netip.Addr, now time.Time) (first bool) {
	if t.events == nil {
		t.events, t.prefixes, t.since = map[string]int{}, map[netip.Addr]int{}, now
		first = true
	}
	t.events[event]++
	if _, ok := t.prefixes[prefix]; ok || len(t.prefixes) < maxTallyPrefixes {
		t.prefixes[prefix]++
	} else {
		t.others++
	}
	return first
}

// tallyLine is one interval's summary.
type tallyLine struct {
	since    time.Time
	total    int
	events   string // "refused: banned=3 closed: setup deadline=1", by count, then name
	prefixes int    // distinct prefixes named (others beyond maxTallyPrefixes not counted)
	top      netip.Addr
	topCount int
}

// take returns the summary of what was added since the last take, and
// empties the tally; ok is false if nothing was.
func (t *tally) take() (l tallyLine, ok bool) {
	if len(t.events) == 0 {
		return l, false
	}
	type kv struct {
		k string
		n int
	}
	evs := make([]kv, 0, len(t.events))
	for k, n := range t.events { // sorted below
		evs = append(evs, kv{k, n})
		l.total += n
	}
	slices.SortFunc(evs, func(a, b kv) int {
		if a.n != b.n {
			return b.n - a.n
		}
		return strings.Compare(a.k, b.k)
	})
	var sb strings.Builder
	for i, e := range evs {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(e.k)
		sb.WriteString(" ×")
		sb.WriteString(strconv.Itoa(e.n))
	}
	l.events, l.since, l.prefixes = sb.String(), t.since, len(t.prefixes)
	for p, n := range t.prefixes { // ties go to the lowest address
		if n > l.topCount || n == l.topCount && p.Less(l.top) {
			l.top, l.topCount = p, n
		}
	}
	*t = tally{}
	return l, true
}

// log writes the line, with the interval ending at now.
func (l tallyLine) log(log *slog.Logger, now time.Time) {
	log.Info("ssh refusals", "count", l.total, "over", now.Sub(l.since).Round(time.Millisecond), "what", l.events,
		"prefixes", l.prefixes, "top", l.top.String(), "top_count", l.topCount)
}
