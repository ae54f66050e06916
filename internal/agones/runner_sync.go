package agones

import "context"

// syncState is what the runner believes the sidecar holds: the rooms
// count, whether the capacity was set, the players List's values, and
// whether the fleet label is set.
type syncState struct {
	rooms    int64 // -1: not known
	capSet   bool
	players  []string
	inList   map[string]bool
	known    bool // players is the List; else the next report sets it whole
	labelSet bool
}

// maxListEdits is the most adds and removes one report sends; past it,
// the whole List is set in one call.
const maxListEdits = 16

func (s *syncState) init() { s.rooms = -1 }

// report sends what changed since the last report: the fleet label (once),
// the rooms count, the players List. A call that fails is tried again at
// the next report.
func (r *Runner) report(ctx context.Context, f Figures) {
	if r.cfg.FleetName != "" && !r.sync.labelSet {
		r.sync.labelSet = r.outcome("label", r.cfg.Client.SetLabel(ctx, FleetLabel, r.cfg.FleetName))
	}
	r.reportRooms(ctx, int64(f.Rooms))
	r.reportPlayers(ctx, f.Players[:min(len(f.Players), r.cfg.MaxPlayers)])
}

// reportRooms sets the rooms Counter's count to n if it changed (with
// the capacity, the first time).
func (r *Runner) reportRooms(ctx context.Context, n int64) {
	s := &r.sync
	setCap := r.cfg.RoomsCapacity > 0 && !s.capSet
	if n == s.rooms && !setCap {
		return
	}
	u := CounterUpdate{Count: &n}
	if setCap {
		u.Capacity = &r.cfg.RoomsCapacity
	}
	if r.outcome("rooms", r.cfg.Client.UpdateCounter(ctx, RoomsCounter, u)) {
		s.rooms, s.capSet = n, s.capSet || setCap
	} else {
		s.rooms = -1
	}
}

// reportPlayers brings the players List to want: the values gone removed
// and the new ones added, or, the first time, after a failure or for
// many changes, the whole List set.
func (r *Runner) reportPlayers(ctx context.Context, want []string) {
	s := &r.sync
	wanted := make(map[string]bool, len(want))
	for _, v := range want {
		wanted[v] = true
	}
	var gone, added []string
	for _, v := range s.players {
		if !wanted[v] {
			gone = append(gone, v)
		}
	}
	for _, v := range want {
		if !s.inList[v] {
			added = append(added, v)
		}
	}
	if s.known && len(gone) == 0 && len(added) == 0 {
		return
	}
	if !s.known || len(gone)+len(added) > maxListEdits {
		if s.known = r.outcome("players", r.cfg.Client.SetListValues(ctx, PlayersList, want)); s.known {
			s.players, s.inList = append([]string(nil), want...), wanted
		}
		return
	}
	// Removes first: they make room for the adds.
	for _, v := range gone {
		if s.known = r.outcome("players", r.cfg.Client.RemoveListValue(ctx, PlayersList, v)); !s.known {
			return
		}
		s.remove(v)
	}
	for _, v := range added {
		if s.known = r.outcome("players", r.cfg.Client.AddListValue(ctx, PlayersList, v)); !s.known {
			return
		}
		s.players = append(s.players, v)
		s.inList[v] = true
	}
}

// remove drops v from the believed List.
func (s *syncState) remove(v string) {
	delete(s.inList, v)
	for i, p := range s.players {
		if p == v {
			s.players = append(s.players[:i], s.players[i+1:]...)
			return
		}
	}
}
