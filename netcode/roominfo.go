package netcode

import "time"

// RoomState is where a room's match is.
type RoomState uint8

const (
	// RoomWaiting: seats are free; the match starts when they are taken.
	RoomWaiting RoomState = iota
	// RoomCountdown: every seat is taken and the first tick is near.
	RoomCountdown
	// RoomPlaying: rounds are being played.
	RoomPlaying
	// RoomResults: the match is over; the results show and the players
	// vote for a rematch.
	RoomResults
)

var roomStateNames = [...]string{RoomWaiting: "waiting", RoomCountdown: "countdown", RoomPlaying: "playing", RoomResults: "results"}

func (s RoomState) String() string {
	if int(s) < len(roomStateNames) {
		return roomStateNames[s]
	}
	return "unknown"
}

// RoomInfo is one line of the lobby's room list.
type RoomInfo struct {
	Name    string
	Private bool
	// Closing marks a room of a server that drains before a restart: it
	// takes nobody new, and its match, if one runs, is its last.
	Closing bool
	// Ranked marks a room whose matches are rated (PROTOCOL.md §4.15).
	Ranked bool
	// Players counts the seats taken (bots included), Seats the room's
	// seats, Bots the server-side bots among the players.
	Players, Seats, Bots, Spectators int
	State                            RoomState
	// Round is the round being played (0 before the first).
	Round int
	// RoundsToWin is the match's win condition: the first to win that many
	// rounds wins the match.
	RoundsToWin int
	// Leader and LeaderScore name the player with the most round wins
	// ("" when nobody has won a round).
	Leader      string
	LeaderScore int
	// Server is where the room lives in a fleet: its server's public
	// address; "" for the server that listed it.
	Server string
}

// RoomList is what the lobby knows of a server.
type RoomList struct {
	// Rooms are the public rooms, and a private one only to its players.
	Rooms []RoomInfo
	// Total is the number of rooms the server has (the list may be cut to
	// what one reply carries).
	Total int
	// Ping is the round trip of the last list request.
	Ping time.Duration
	// Updated is when the list last arrived (zero: not yet).
	Updated time.Time
	// Err says why the lobby cannot reach the server, if it cannot.
	Err error
}

// Draining reports whether the server drains before a restart: every
// room it lists is closing.
// Only its own rooms count: another server of its fleet may drain.
func (l *RoomList) Draining() bool {
	for i := range l.Rooms {
		if l.Rooms[i].Closing && l.Rooms[i].Server == "" {
			return true
		}
	}
	return false
}

// RoomSpec describes a room to create.
type RoomSpec struct {
	Name string
	// Seats is 2..game.MaxPlayers (0: the server's default), Bots the
	// seats it fills with server-side bots.
	Seats, Bots int
	// Private rooms are left out of the list and joined with their code.
	Private bool
	// Casual rooms are never rated, on a server with a ladder
	// (PROTOCOL.md §4.15); a room with bots is casual anyway.
	Casual bool
}

// RoomRequestKind says how a Join picks its room.
type RoomRequestKind uint8

const (
	// RoomQuick takes a seat in the fullest public room with a free seat,
	// or a new room (a spectator: the public room with the most players).
	RoomQuick RoomRequestKind = iota
	// RoomNamed joins the room of that name, or creates it.
	RoomNamed
	// RoomCode joins a private room by its join code.
	RoomCode
	// RoomCreate creates a room from a RoomSpec.
	RoomCreate
	// RoomLobby takes a place among the lobby's viewers, for the lobby's
	// chat (with Spectate: the lobby has no seats).
	RoomLobby
)

// RoomRequest is where a client asks to play or watch.
type RoomRequest struct {
	Kind RoomRequestKind
	// Name is the room's name (RoomNamed) or its join code (RoomCode).
	Name     string
	Spec     RoomSpec
	Spectate bool
}
