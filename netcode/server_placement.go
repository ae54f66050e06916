package netcode

import (
	"net/netip"
	"time"

	"ttytanks/game"
	"ttytanks/proto"
)

// place finds the room a Request asks for, opening one when it should;
// nil and the reason to refuse when there is none.
func (s *Server) place(j *proto.Request, from netip.AddrPort, now time.Time) (*room, proto.RejectReason) {
	t := &s.rooms
	name := proto.SanitizeName(j.Room)
	switch j.Kind {
	case proto.RoomQuick:
		if best := t.quick(j.Spectate); best != nil {
			return best, 0
		}
		if j.Spectate {
			return nil, proto.RejectNoRoom
		}
		if s.cfg.Bots >= s.cfg.Players {
			return nil, proto.RejectFull // a new room would have no seat for a player either
		}
		return s.newRoom(from, t.freeName(), s.defaults, false, now)
	case proto.RoomNamed:
		if name == "" {
			return nil, proto.RejectNoRoom
		}
		if r := t.byName(name); r != nil {
			if _, code := r.keys(); code != "" {
				return nil, proto.RejectNoRoom // a private room is joined by its code
			}
			if !j.Spectate && r.places().free() == 0 {
				return nil, proto.RejectRoomFull
			}
			return r, 0
		}
		if j.Spectate {
			return nil, proto.RejectNoRoom
		}
		if s.cfg.Bots >= s.cfg.Players {
			return nil, proto.RejectRoomFull // its seats would all be bots'
		}
		return s.newRoom(from, name, s.defaults, false, now)
	case proto.RoomCode:
		if !s.adm.isTrusted(from.Addr()) && !t.guess(s.adm.origin(from), now) {
			s.drop(DropRateLimited)
			return nil, proto.RejectSlowDown
		}
		r := t.byCode(name)
		if r == nil {
			return nil, proto.RejectNoRoom
		}
		if !j.Spectate && r.places().free() == 0 {
			return nil, proto.RejectRoomFull
		}
		return r, 0
	default: // RoomCreate
		if name == "" {
			name = t.freeName()
		}
		if t.byName(name) != nil {
			return nil, proto.RejectRoomTaken
		}
		cfg := s.defaults
		if j.Seats != 0 {
			cfg.Players, cfg.Bots = int(j.Seats), int(j.Bots)
		}
		if cfg.Bots > 0 && s.cfg.NewBot == nil {
			cfg.Bots = 0
		}
		if _, err := game.NewWorld(game.Config{Slots: cfg.Players, MazeW: cfg.MazeW, MazeH: cfg.MazeH}); err != nil {
			return nil, proto.RejectNoMatch // the maze has no cell for so many seats
		}
		return s.newRoom(from, name, cfg, j.Private, now)
	}
}

// newRoom opens a room on demand for a player at from, if the server may
// open one more and from has not opened its share lately.
func (s *Server) newRoom(from netip.AddrPort, name string, cfg roomConfig, private bool, now time.Time) (*room, proto.RejectReason) {
	if s.rooms.count() >= s.cfg.MaxRooms {
		return nil, proto.RejectFull
	}
	if !s.adm.isTrusted(from.Addr()) && !s.rooms.open(s.adm.origin(from), now) {
		s.drop(DropRateLimited)
		return nil, proto.RejectSlowDown
	}
	var r *room
	// The opening runs the bot policy and the world, which may panic:
	// such a room never opens.
	if !s.guard(func() { r = s.openRoom(name, cfg, private, false, now) }) || r == nil {
		return nil, proto.RejectNoMatch
	}
	s.log.Info("room opened", "room", name, "seats", cfg.Players, "bots", cfg.Bots, "private", private)
	return r, 0
}
