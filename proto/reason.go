package proto

import "strconv"

// LeaveReason says why a session ends. Its values are part of the wire
// format; zero is not a valid reason.
type LeaveReason uint8

// Leave reasons.
const (
	// LeaveQuit: the player quit (client → server).
	LeaveQuit LeaveReason = 1 + iota
	// LeaveShutdown: the server is shutting down.
	LeaveShutdown
	// LeaveTimeout: the server heard nothing from the client for too long.
	LeaveTimeout
	// LeaveKicked: the server removed the client (for example for
	// misbehaving).
	LeaveKicked
	// LeaveMatchOver: the match ended.
	LeaveMatchOver
	// LeaveServerError: the server stopped the match after an internal
	// error; the server itself goes on.
	LeaveServerError
	// LeaveIdle: the player showed no intent (no move, shot or vote) for
	// the server's idle time, and its seat was freed.
	LeaveIdle
)

var leaveNames = [...]string{
	LeaveQuit: "quit", LeaveShutdown: "server shutting down", LeaveTimeout: "timed out",
	LeaveKicked: "kicked", LeaveMatchOver: "match over", LeaveServerError: "server error",
	LeaveIdle: "idle too long",
}

func (r LeaveReason) known() bool { return r >= LeaveQuit && r <= LeaveIdle }

// String returns a short lower-case description, fit for a status line.
func (r LeaveReason) String() string {
	if r.known() {
		return leaveNames[r]
	}
	return "LeaveReason(" + strconv.Itoa(int(r)) + ")"
}

// RejectReason says why the server refused a Hello or Join. Its values are
// part of the wire format; zero is not a valid reason.
type RejectReason uint8

// Reject reasons.
const (
	// RejectVersion: the client speaks another protocol version.
	RejectVersion RejectReason = 1 + iota
	// RejectFull: the server has no seat to offer: every room is full
	// and no more may open.
	RejectFull
	// RejectBadCookie: the Join's cookie is invalid or expired; start over
	// with a Hello.
	RejectBadCookie
	// RejectBadToken: the reconnect token matches no seat.
	RejectBadToken
	// RejectBadName: the name is invalid or taken.
	RejectBadName
	// RejectNoMatch: the server runs no match the client can join.
	RejectNoMatch
	// RejectAddrLimit: the client's address already holds its share of
	// seats (or spectator places).
	RejectAddrLimit
	// RejectNoRoom: no room has that name (a spectator's Join) or that
	// join code.
	RejectNoRoom
	// RejectRoomTaken: a room of that name exists (RoomCreate).
	RejectRoomTaken
	// RejectRoomFull: every seat of the named room is taken.
	RejectRoomFull
	// RejectSlowDown: too many wrong join codes, or rooms opened, from
	// the address; try again in a minute.
	RejectSlowDown
	// RejectDraining: the server is draining before a restart: it takes
	// no new player, spectator or room; try again in a minute.
	RejectDraining
	// RejectKicked: the operator removed a player from the address (its
	// IPv6 /64) a short while ago; it stays out for a few minutes.
	RejectKicked
	// RejectBusy: the server carries all the rooms and bots it can step
	// on time; it opens no more for now.
	RejectBusy
	// RejectNameTaken: another player's key holds the name on this
	// server's ladder (version 8): pick another.
	RejectNameTaken
)

// MaxRejectReason is the highest RejectReason.
const MaxRejectReason = RejectNameTaken

var rejectNames = [...]string{
	RejectVersion: "protocol version mismatch", RejectFull: "server full",
	RejectBadCookie: "bad or expired cookie", RejectBadToken: "unknown reconnect token",
	RejectBadName: "bad name", RejectNoMatch: "no match to join",
	RejectAddrLimit: "too many players from your address",
	RejectNoRoom:    "no such room", RejectRoomTaken: "a room of that name exists",
	RejectRoomFull: "the room is full", RejectSlowDown: "too many tries from your address: wait a minute",
	RejectDraining:  "the server is restarting",
	RejectKicked:    "removed by the operator: try again in a few minutes",
	RejectBusy:      "the server is busy: no new rooms for now",
	RejectNameTaken: "another player holds that name: pick another with --name",
}

func (r RejectReason) known() bool { return r >= RejectVersion && r <= MaxRejectReason }

// String returns a short lower-case description, fit for a status line.
func (r RejectReason) String() string {
	if r.known() {
		return rejectNames[r]
	}
	return "RejectReason(" + strconv.Itoa(int(r)) + ")"
}
