package resim

import (
	"errors"
	"io"
	"sort"

	"ttytanks/game"
	"ttytanks/proto/recording"
)

// KeyEvery is the interval between the keyframes a Timeline keeps, in
// ticks (3 s): a seek re-simulates at most this many ticks.
const KeyEvery = 3 * game.TickRate

// Timeline is a recording loaded for playback: every tick's inputs and
// events in memory, a keyframe snapshot every KeyEvery ticks, and a
// playback position that steps forward or seeks anywhere. A Timeline is
// not safe for concurrent use.
type Timeline struct {
	h      recording.Header
	inputs []game.Input // every tick's inputs, tick by tick, seat by seat
	events []recording.Event
	keys   []keyframe  // keys[i] is at tick Start + i·KeyEvery
	rounds []game.Tick // the tick each round begins at
	end    game.Tick   // the last position: the world after the last tick
	ended  bool        // the recording holds the match's end
	err    error

	world *game.World
	names [game.MaxPlayers]string
	next  int // index in events of the first event not yet applied
}

// keyframe is the playback position at a tick: the world before that
// tick's events.
type keyframe struct {
	snap  game.Snapshot
	names [game.MaxPlayers]string
	next  int
}

// Load reads a whole recording from r and simulates it once to place its
// keyframes and round starts, checking it as Verify does. A recording
// that is cut short, corrupt or diverges further on loads up to the last
// tick that checked out; Err then says why it stops there. Load fails
// only when the header cannot be read.
func Load(r io.Reader) (*Timeline, error) {
	rd, err := recording.NewReader(r)
	if err != nil {
		return nil, err
	}
	tl := &Timeline{h: rd.Header()}
	s, err := newSim(tl.h)
	if err != nil {
		return nil, err
	}
	var snap game.Snapshot
	s.world.Save(&snap)
	tl.keys = append(tl.keys, keyframe{snap: snap, names: s.names})
	tl.rounds = append(tl.rounds, tl.h.Start)
	round := s.world.State().Round.Number
	each := func() {
		st := s.world.State()
		if st.Round.Number != round {
			round = st.Round.Number
			tl.rounds = append(tl.rounds, st.Tick)
		}
		if st.Tick.Diff(tl.h.Start)%KeyEvery == 0 {
			s.world.Save(&snap)
			tl.keys = append(tl.keys, keyframe{snap: snap, names: s.names, next: tl.eventsBefore(st.Tick)})
		}
	}
	for {
		off := rd.Offset()
		k, err := rd.Next()
		if err != nil {
			if err != io.EOF {
				tl.err = err
			}
			break
		}
		tl.inputs = append(tl.inputs, k.Inputs...)
		tl.events = append(tl.events, k.Events...)
		if err := s.block(&k, off, each); err != nil {
			tl.err = err
			break
		}
	}
	// Keep what the simulation reached, and the events up to there.
	tl.end = s.world.Tick()
	n := int(tl.end.Diff(tl.h.Start))
	tl.inputs = tl.inputs[:n*tl.h.Slots]
	tl.events = tl.events[:tl.eventsBefore(tl.end.Add(1))]
	tl.ended = s.end != nil && tl.err == nil
	tl.world = s.world
	tl.Seek(tl.h.Start)
	return tl, nil
}

// eventsBefore returns the number of events before tick t.
func (tl *Timeline) eventsBefore(t game.Tick) int {
	rel := t.Diff(tl.h.Start)
	return sort.Search(len(tl.events), func(i int) bool { return tl.events[i].Tick.Diff(tl.h.Start) >= rel })
}

// Header returns the recording's header.
func (tl *Timeline) Header() recording.Header { return tl.h }

// Err says why the timeline ends before the end of the file (the file is
// cut short, corrupt, or its simulation diverges), or nil.
func (tl *Timeline) Err() error { return tl.err }

// Interrupted reports whether the recording ends without the match's end
// only because the file was cut short.
func (tl *Timeline) Interrupted() bool {
	return !tl.ended && (tl.err == nil || errors.Is(tl.err, recording.ErrShort))
}

// Start and End return the first and last positions.
func (tl *Timeline) Start() game.Tick { return tl.h.Start }
func (tl *Timeline) End() game.Tick   { return tl.end }

// Tick returns the playback position: the world at that tick, before its
// step.
func (tl *Timeline) Tick() game.Tick { return tl.world.Tick() }

// Round returns the current round's number.
func (tl *Timeline) Round() int { return int(tl.world.State().Round.Number) }

// Rounds returns the number of rounds begun in the recording.
func (tl *Timeline) Rounds() int { return len(tl.rounds) }

// Step advances the position by one tick; it reports false at the end.
func (tl *Timeline) Step() bool {
	t := tl.world.Tick()
	if !t.Before(tl.end) {
		return false
	}
	i := int(t.Diff(tl.h.Start)) * tl.h.Slots
	tl.world.Step(tl.inputs[i : i+tl.h.Slots])
	tl.apply()
	return true
}

// apply applies the seat changes of every event up to the world's tick.
func (tl *Timeline) apply() {
	rel := tl.world.Tick().Diff(tl.h.Start)
	for tl.next < len(tl.events) && tl.events[tl.next].Tick.Diff(tl.h.Start) <= rel {
		e := &tl.events[tl.next]
		switch e.Kind {
		case recording.EventJoin, recording.EventLeave:
			tl.world.Seat(e.Slot, e.Kind == recording.EventJoin)
			tl.names[e.Slot] = e.Name
		case recording.EventRename:
			tl.names[e.Slot] = e.Name
		}
		tl.next++
	}
}

// Seek moves the position to t, clamped to Start..End: it restores the
// keyframe at or before t and steps at most KeyEvery−1 ticks from there.
func (tl *Timeline) Seek(t game.Tick) {
	rel := min(max(t.Diff(tl.h.Start), 0), tl.end.Diff(tl.h.Start))
	k := &tl.keys[min(int(rel)/KeyEvery, len(tl.keys)-1)]
	tl.world.Restore(&k.snap)
	tl.names, tl.next = k.names, k.next
	tl.apply()
	for tl.world.Tick().Diff(tl.h.Start) < rel && tl.Step() {
	}
}

// RoundStart returns the tick at which the round n rounds from the
// current one begins (n = −1: the previous round, 0: this one, 1: the
// next), clamped to the recording.
func (tl *Timeline) RoundStart(n int) game.Tick {
	rel := tl.world.Tick().Diff(tl.h.Start)
	cur := sort.Search(len(tl.rounds), func(i int) bool { return tl.rounds[i].Diff(tl.h.Start) > rel }) - 1
	i := cur + n
	switch {
	case i < 0:
		return tl.h.Start
	case i >= len(tl.rounds):
		return tl.end
	}
	return tl.rounds[i]
}

// Names returns the seats' player names at the playback position.
func (tl *Timeline) Names() [game.MaxPlayers]string { return tl.names }

// State returns the world at the playback position. It is the
// timeline's own: read it, do not change it; it changes as the position
// moves.
func (tl *Timeline) State() *game.Snapshot { return tl.world.State() }

// Maze returns the maze of the round at the playback position, the
// timeline's own as State is.
func (tl *Timeline) Maze() *game.Maze { return tl.world.Maze() }
