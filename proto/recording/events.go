package recording

import (
	"encoding/binary"
	"fmt"

	"ttytanks/game"
	"ttytanks/proto"
)

// EventKind says what an Event is.
type EventKind uint8

const (
	// EventJoin: a player named Name takes seat Slot before Tick's step.
	EventJoin EventKind = 1
	// EventLeave: the player in seat Slot leaves before Tick's step.
	EventLeave EventKind = 2
	// EventRename: the player in seat Slot is now called Name. It does not
	// change the simulation.
	EventRename EventKind = 3
	// EventRound: a round ended; the world reached Tick with round Round
	// over, won by Winner (−1: a draw); Scores are every seat's score
	// after it.
	EventRound EventKind = 4
	// EventEnd: the match ended at Tick (its last step was Tick−1);
	// Winner is the seat with the highest score (−1: a tie) and Scores
	// the final scores. Nothing follows it.
	EventEnd EventKind = 5
)

// String returns the kind's lower-case name.
func (k EventKind) String() string {
	switch k {
	case EventJoin:
		return "join"
	case EventLeave:
		return "leave"
	case EventRename:
		return "rename"
	case EventRound:
		return "round"
	case EventEnd:
		return "end"
	}
	return fmt.Sprintf("EventKind(%d)", uint8(k))
}

// Event is something that happens between ticks: a seat change, which the
// simulation applies before Tick's step, or a result, which the simulation
// produced on reaching Tick.
type Event struct {
	Kind EventKind
	// Tick is within the block's First..First+Count.
	Tick game.Tick
	// Slot is the seat of a join, leave or rename.
	Slot int
	// Name is the player's name for a join or rename.
	Name string
	// Round is the number of the round that ended (EventRound).
	Round uint16
	// Winner is a seat or −1 (EventRound, EventEnd).
	Winner int8
	// Scores holds one score per seat (EventRound, EventEnd).
	Scores []uint16
}

// len returns the number of bytes append writes.
func (e *Event) len(first game.Tick) int {
	n := 1 + uvarintLen(uint64(e.Tick.Diff(first)))
	switch e.Kind {
	case EventJoin, EventRename:
		n += 1 + 1 + len(e.Name)
	case EventLeave:
		n++
	case EventRound, EventEnd:
		if e.Kind == EventRound {
			n += uvarintLen(uint64(e.Round))
		}
		n++
		for _, s := range e.Scores {
			n += uvarintLen(uint64(s))
		}
	}
	return n
}

// append appends the event: kind, tick offset from first, then the kind's
// fields.
func (e *Event) append(b []byte, first game.Tick) []byte {
	b = append(b, uint8(e.Kind))
	b = binary.AppendUvarint(b, uint64(e.Tick.Diff(first)))
	switch e.Kind {
	case EventJoin, EventRename:
		b = appendString(append(b, uint8(e.Slot)), e.Name)
	case EventLeave:
		b = append(b, uint8(e.Slot))
	case EventRound, EventEnd:
		if e.Kind == EventRound {
			b = binary.AppendUvarint(b, uint64(e.Round))
		}
		b = append(b, uint8(e.Winner))
		for _, s := range e.Scores {
			b = binary.AppendUvarint(b, uint64(s))
		}
	}
	return b
}

// parseEvent reads one event of a block at first..first+count with slots
// seats, and returns it with its tick offset. Failures are left in p.err.
func parseEvent(p *parser, first game.Tick, count, slots int) (Event, int) {
	e := Event{Kind: EventKind(p.byte())}
	off := p.uvarintMax(count)
	e.Tick = first.Add(int32(off))
	slot := func() int {
		s := int(p.byte())
		if p.err == nil && s >= slots {
			p.err = fmt.Errorf("%w: %v event for seat %d of %d", ErrMalformed, e.Kind, s, slots)
		}
		return s
	}
	switch e.Kind {
	case EventJoin, EventRename:
		e.Slot = slot()
		e.Name = p.string(proto.MaxNameLen)
		checkName(p, e.Name)
	case EventLeave:
		e.Slot = slot()
	case EventRound, EventEnd:
		if e.Kind == EventRound {
			e.Round = uint16(p.uvarintMax(0xFFFF))
		}
		e.Winner = int8(p.byte())
		if p.err == nil && (e.Winner < -1 || int(e.Winner) >= slots) {
			p.err = fmt.Errorf("%w: winner %d of %d seats", ErrMalformed, e.Winner, slots)
		}
		e.Scores = make([]uint16, slots)
		for i := range e.Scores {
			e.Scores[i] = uint16(p.uvarintMax(0xFFFF))
		}
	default:
		if p.err == nil {
			p.err = fmt.Errorf("%w: event kind %d", ErrMalformed, e.Kind)
		}
	}
	return e, off
}
