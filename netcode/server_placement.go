package netcode

import (
	"net/netip"
	"time"

	"ttytanks/game"
	"ttytanks/internal/skill"
	"ttytanks/proto"
)

// place finds the room a Request asks for, opening one when it should;
// nil and the reason to refuse when there is none.
func (s *Server) place(j *proto.Request, l *link, now time.Time) (*room, proto.RejectReason) {
	t := &s.rooms
	from := l.addr
	name := proto.SanitizeName(j.Room)
	switch j.Kind {
	case proto.RoomLobby:
		return s.lobbyRoom(now), 0 // ParseRequest took it only with Spectate
	case proto.RoomQuick:
		if s.ladder.keeps() && !j.Spectate {
			// By skill (PROTOCOL.md §4.15): a room near the player's
			// rating, else, on a server busy enough, a new one; the
			// usual pick if none may open. On a quiet server, never a
			// room of one's own while another player waits.
			busy := skill.Busy(t.quickTraffic(now, s.cfg.Skill.MaxWait), s.cfg.Players)
			if best := t.quickBySkill(s.cfg.Skill, l.rating, !l.who.IsZero(), busy, now, s.clk.now()); best != nil {
				return best, 0
			}
			if busy && s.cfg.Bots < s.cfg.Players {
				if r, why := s.newRoom(from, t.freeName(s.fleet.nameTaken), s.defaults, false, now); r != nil {
					return r, why
				}
			}
		}
		if best := t.quick(j.Spectate); best != nil {
			return best, 0
		}
		if j.Spectate {
			return nil, proto.RejectNoRoom
		}
		if s.cfg.Bots >= s.cfg.Players {
			return nil, proto.RejectFull // a new room would have no seat for a player either
		}
		return s.newRoom(from, t.freeName(s.fleet.nameTaken), s.defaults, false, now)
	case proto.RoomNamed:
		if name == "" {
			return nil, proto.RejectNoRoom
		}
		if r := t.byName(name); r != nil {
			if r.opened().private() {
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
		trusted, origin := s.adm.isTrusted(from.Addr()), s.adm.origin(from)
		if !trusted && !t.mayGuess(origin, now) {
			s.drop(DropRateLimited)
			return nil, proto.RejectSlowDown
		}
		r := t.byCode(name)
		if r == nil {
			if !trusted {
				t.missed(origin, now)
			}
			return nil, proto.RejectNoRoom
		}
		if !j.Spectate && r.places().free() == 0 {
			return nil, proto.RejectRoomFull
		}
		return r, 0
	default: // RoomCreate
		if name == "" {
			name = t.freeName(s.fleet.nameTaken)
		}
		if t.byName(name) != nil || s.fleet.nameTaken(name) {
			return nil, proto.RejectRoomTaken
		}
		cfg := s.defaults
		if j.Seats != 0 {
			cfg.Players, cfg.Bots = int(j.Seats), int(j.Bots)
		}
		if cfg.Players < 2 && j.Seats != 0 {
			return nil, proto.RejectNoMatch // PROTOCOL.md §5.14: 2..8 seats (ParseRequest refuses 1)
		}
		if cfg.Bots > 0 && s.cfg.NewBot == nil {
			cfg.Bots = 0
		}
		cfg.Ranked = s.ladder.keeps() && cfg.Bots == 0 && !j.Casual
		if _, err := game.NewWorld(game.Config{Slots: cfg.Players, MazeW: cfg.MazeW, MazeH: cfg.MazeH}); err != nil {
			return nil, proto.RejectNoMatch // the maze has no cell for so many seats
		}
		return s.newRoom(from, name, cfg, j.Private, now)
	}
}

// newRoom opens a room on demand for a player at from, if the server may
// open one more and from has not opened its share lately: the room and
// its bots are paid for from from's prefix's budget (MaxRoomsPerAddr,
// MaxBotsPerAddr) and the server's (MaxRooms, MaxBots), and while the
// ticks take more than half their time the server opens none.
func (s *Server) newRoom(from netip.AddrPort, name string, cfg roomConfig, private bool, now time.Time) (*room, proto.RejectReason) {
	if s.rooms.count() >= s.cfg.MaxRooms {
		return nil, proto.RejectFull
	}
	owner := s.adm.origin(from)
	rooms, bots, allBots := s.rooms.spending(owner)
	// The prefix's own budget first: a prefix past it is told so however
	// busy the server is, and never competes for the server's budget.
	if !s.adm.isTrusted(from.Addr()) {
		if !s.rooms.open(owner, now) {
			s.drop(DropRateLimited)
			return nil, proto.RejectSlowDown
		}
		if rooms >= s.cfg.MaxRoomsPerAddr || bots+cfg.Bots > s.cfg.MaxBotsPerAddr {
			s.drop(DropAddrLimit)
			return nil, proto.RejectAddrLimit
		}
	}
	if s.busy.refuses(now) || allBots+cfg.Bots > s.cfg.MaxBots {
		s.drop(DropBusy)
		return nil, proto.RejectBusy
	}
	var r *room
	// The opening runs the bot policy and the world, which may panic:
	// such a room never opens.
	if !s.guard(func() { r = s.openRoom(name, cfg, private, false, owner, now) }) || r == nil {
		return nil, proto.RejectNoMatch
	}
	s.log.Info("room opened", "room", name, "seats", cfg.Players, "bots", cfg.Bots, "private", private)
	return r, 0
}
