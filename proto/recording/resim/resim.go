package resim

import (
	"errors"
	"fmt"

	"ttytanks/game"
	"ttytanks/proto/recording"
)

// ErrRules means a recording was made under other game rules than this
// build's (its header's Rules is not game.RulesVersion): it cannot be
// re-simulated here.
var ErrRules = errors.New("resim: recorded under other game rules")

// ErrResult means a result recorded in the file (a round's winner, the
// final scores) differs from what the simulation produced.
var ErrResult = errors.New("resim: recorded result differs from the simulation")

// sim re-simulates a recording block by block: it applies each event at
// its tick, steps the inputs and checks every checkpoint and result.
type sim struct {
	world  *game.World
	names  [game.MaxPlayers]string
	chain  uint64
	rounds int // rounds finished
	checks int // checkpoints verified
	end    *recording.Event
}

func newSim(h recording.Header) (*sim, error) {
	if h.Rules != game.RulesVersion {
		return nil, fmt.Errorf("%w: the match was played under rules v%d, this build plays v%d", ErrRules, h.Rules, game.RulesVersion)
	}
	w, err := game.NewWorld(h.Config())
	if err != nil {
		return nil, fmt.Errorf("resim: the header's match: %w", err)
	}
	s := &sim{world: w}
	copy(s.names[:], h.Names)
	return s, nil
}

// event applies e, which is for the world's current tick. It checks a
// result against the world.
func (s *sim) event(e *recording.Event) error {
	st := s.world.State()
	switch e.Kind {
	case recording.EventJoin, recording.EventLeave:
		s.world.Seat(e.Slot, e.Kind == recording.EventJoin)
		s.names[e.Slot] = e.Name
	case recording.EventRename:
		s.names[e.Slot] = e.Name
	case recording.EventRound:
		over := st.Round.Phase == game.PhaseOver || st.Round.Phase == game.PhaseMatchOver
		if !over || st.Round.Number != e.Round || st.Round.Winner != e.Winner {
			return fmt.Errorf("%w: round %d won by %d at tick %d; the simulation has round %d, phase %d, winner %d",
				ErrResult, e.Round, e.Winner, e.Tick, st.Round.Number, st.Round.Phase, st.Round.Winner)
		}
		s.rounds++
	case recording.EventEnd:
		for i, sc := range e.Scores {
			if st.Tanks[i].Score != sc {
				return fmt.Errorf("%w: final score of seat %d is %d, the simulation's %d", ErrResult, i, sc, st.Tanks[i].Score)
			}
		}
		s.end = e
	}
	return nil
}

// block re-simulates k, which starts at the world's tick and was read at
// byte offset off; each is called after each step.
func (s *sim) block(k *recording.Block, off int64, each func()) error {
	if k.First != s.world.Tick() {
		return fmt.Errorf("%w: block at byte %d starts at tick %d, the simulation is at %d", recording.ErrSequence, off, k.First, s.world.Tick())
	}
	ev, cp := k.Events, k.Checkpoints
	for i := 0; ; i++ {
		// A checkpoint covers the world the step before it left, before
		// the seat changes of its tick (RECORDING.md §7): the hash the
		// server had when it stepped.
		for len(cp) > 0 && cp[0].Tick == s.world.Tick() {
			got := recording.Chain(s.chain, cp[0].Tick, s.world.Hash())
			if got != cp[0].Chain {
				return &recording.CheckpointError{Tick: cp[0].Tick, Offset: off, Got: got, Want: cp[0].Chain}
			}
			s.chain = got
			s.checks++
			cp = cp[1:]
		}
		for len(ev) > 0 && ev[0].Tick == s.world.Tick() {
			if err := s.event(&ev[0]); err != nil {
				return err
			}
			ev = ev[1:]
		}
		if i == k.Count {
			return nil
		}
		s.world.Step(k.Input(i))
		if each != nil {
			each()
		}
	}
}
