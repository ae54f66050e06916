package netcode

import (
	"time"

	"ttytanks/proto"
)

// What a room shows of itself: to the room table (its keys, its places),
// to the lobby (its line in the room list) and to the operator (its
// figures).

// opened returns what r was opened as: the name and join code the table
// finds it by (a public room, listed in the lobby, has no code), what it
// costs the budgets of room openings (its owner, zero for a room the
// server opened on its own, and its bot seats), and what a permanent room
// reopens with after a fault.
func (r *room) opened() roomSpec { return r.roomSpec }

// private reports whether a room opened as s is private: it has a join
// code and is not listed.
func (s roomSpec) private() bool { return s.code != "" }

// game returns r's match.
func (r *room) game() *match { return &r.match }

// places returns r's seat table, for the room table's lookups across
// rooms and for placement.
func (r *room) places() *seatTable { return &r.seats }

// info returns r's line in the lobby.
func (r *room) info() RoomInfo {
	in := RoomInfo{Name: r.name, Private: r.private(), Ranked: r.cfg.Ranked, Seats: r.cfg.Players, Spectators: r.seats.spectatorCount(),
		Players: r.cfg.Players - r.seats.free(), RoundsToWin: r.cfg.Rounds, Closing: r.h.draining()}
	for i := 0; i < r.cfg.Players; i++ {
		if r.seats.at(i).state == seatBot {
			in.Bots++
		}
	}
	switch {
	case !r.match.live():
		in.State = RoomWaiting
	case r.match.counting():
		in.State = RoomCountdown
	case r.match.over():
		in.State = RoomResults
	default:
		in.State = RoomPlaying
	}
	if w := r.match.current(); w != nil {
		snap := w.State()
		in.Round = int(snap.Round.Number)
		for i := 0; i < int(snap.Slots); i++ {
			if sc := int(snap.Tanks[i].Score); sc > in.LeaderScore {
				in.Leader, in.LeaderScore = r.seats.at(i).name, sc
			}
		}
	}
	return in
}

// entryOf returns a room's line in a RoomList.
func entryOf(in RoomInfo) proto.RoomEntry {
	return proto.RoomEntry{Name: in.Name, Private: in.Private, Closing: in.Closing, Ranked: in.Ranked, Players: uint8(in.Players), Seats: uint8(in.Seats),
		Bots: uint8(in.Bots), Spectators: uint8(min(in.Spectators, 255)), State: uint8(in.State), Round: uint16(in.Round),
		RoundsToWin: uint8(in.RoundsToWin), Leader: proto.SanitizeName(in.Leader), LeaderScore: uint16(in.LeaderScore)}
}

// stats returns r's figures. now is the driver's clock, for the step
// quantiles, which are computed at most once a second (Stats may be asked
// far more often).
func (r *room) stats(now time.Time) RoomStats {
	rs := RoomStats{RoomInfo: r.info(), Code: r.code, Match: r.match.matchID()}
	if r.stepQ.at.IsZero() || now.Sub(r.stepQ.at) >= time.Second {
		r.stepQ.at = now
		r.stepQ.p50, r.stepQ.p99 = time.Duration(r.stepDur.quantile(0.5)), time.Duration(r.stepDur.quantile(0.99))
	}
	rs.TickP50, rs.TickP99 = r.stepQ.p50, r.stepQ.p99
	if w := r.match.current(); w != nil {
		rs.Tick = w.Tick()
	}
	for j := 0; j < r.cfg.Players; j++ {
		if p := r.seats.at(j); p.state != seatFree {
			rs.Players = append(rs.Players, r.playerStats(p))
		}
	}
	r.seats.eachSpectator(func(sp *spectator) {
		if peerTransport(&sp.link) == "ssh" {
			rs.SpectatorsSSH++
		}
	})
	return rs
}

// stepped records how long one of r's steps took.
func (r *room) stepped(d time.Duration) { r.stepDur.add(float64(d)) }

// playerStats returns the figures of a taken seat.
func (r *room) playerStats(p *seat) PlayerStats {
	ps := PlayerStats{Slot: p.slot, Name: p.name, Bot: p.state == seatBot, Connected: p.state != seatLost,
		MarginMs: p.in.marginMs(), Score: r.match.score(p.slot), Room: r.name}
	ps.RealTicks, ps.HeldTicks, ps.NeutralTicks, ps.LateInputs = p.in.counts()
	if p.human() {
		ps.Addr, ps.SSHFrom, ps.SSH = p.addr.String(), r.h.sshFrom(p.addr), peerTransport(&p.link) == "ssh"
	}
	return ps
}
