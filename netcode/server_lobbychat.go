package netcode

import (
	"time"

	"ttytanks/game"
	"ttytanks/proto"
)

// The lobby's chat: the lobby's viewers (clients that asked with
// proto.RoomLobby) are the spectators of one more room, which gives no
// seat, never plays and is in no room list; they talk there as a room's
// peers do (server_chat.go) and keep their places as spectators do. The
// room opens with its first viewer and is the server's alone: it counts
// against no bound on rooms, and a fault in it only closes it (the next
// viewer opens it again).

// lobbyPlaces is how many viewers the lobby's chat holds; a prefix holds
// an eighth of them at most, and when all are taken a newcomer takes the
// place of the viewer idle the longest (makeLobbyRoom).
const lobbyPlaces = 64

// lobbyRoom returns the lobby's chat room, opening it if it is not open.
func (s *Server) lobbyRoom(now time.Time) *room {
	if r := s.rooms.lobbyRoom(); r != nil {
		return r
	}
	rules := s.rules
	rules.maxSpectators, rules.spectatorDelay, rules.newBot = lobbyPlaces, 0, nil
	cfg := roomConfig{Players: 1, MazeW: game.DefaultMazeW, MazeH: game.DefaultMazeH, StateEvery: s.defaults.StateEvery}
	r := newRoom(s.host, rules, roomSpec{cfg: cfg, permanent: true, lobby: true}, s.rng.Next()|1, now)
	s.rooms.add(r)
	r.openLobby()
	return r
}

// lobbyIdle is how long a lobby viewer keeps its place without saying a
// line: a player reading the room list for so long is gone, and its
// place is another's.
const lobbyIdle = 10 * time.Minute

// freeIdleViewers frees the places of r's viewers (the lobby's chat room)
// who took their place or last said a line lobbyIdle ago, with a Leave
// that says so.
func (r *room) freeIdleViewers(now time.Time) {
	var idle []*spectator
	r.seats.eachSpectator(func(sp *spectator) {
		if now.Sub(sp.chat.active) >= lobbyIdle {
			idle = append(idle, sp)
		}
	})
	for _, sp := range idle {
		r.sayLeave(&sp.link, -1, proto.LeaveIdle)
		r.seats.dropSpectator(sp)
		r.log.spectatorLeft(&sp.link)
	}
}

// makeLobbyRoom frees, when r (the lobby's chat room) is full, the place
// of the viewer idle the longest (who took it or last said a line the
// longest ago), with a Leave that says so, for a newcomer: viewers of
// many addresses holding every place (an IPv6 /64 is one address, and
// one home has many) would otherwise keep everyone else out of the lobby,
// ttytanks top and me --forget included; now they only take turns.
func (r *room) makeLobbyRoom() {
	if !r.opened().lobby || r.seats.spectatorCount() < lobbyPlaces {
		return
	}
	var idlest *spectator
	r.seats.eachSpectator(func(sp *spectator) {
		if idlest == nil || sp.chat.active.Before(idlest.chat.active) {
			idlest = sp
		}
	})
	if idlest != nil {
		r.sayLeave(&idlest.link, -1, proto.LeaveIdle)
		r.seats.dropSpectator(idlest)
		r.log.spectatorLeft(&idlest.link)
	}
}

// spectatorShare is how many spectator places of r one prefix may hold.
func (s *Server) spectatorShare(r *room) int {
	if r.opened().lobby {
		return lobbyPlaces / 8
	}
	return s.spectatorsPerRoom()
}
