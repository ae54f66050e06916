package netcode

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"time"

	"ttytanks/game"
	"ttytanks/proto"
)

// Why a client's session ended. Client.Err returns one of these (or an
// error wrapping one); test with errors.Is and errors.As, never by the
// message, which is for the player.
var (
	// ErrQuit: the player closed the session.
	ErrQuit = errors.New("quit")
	// ErrServerFull: every seat is taken.
	ErrServerFull = errors.New("the server is full")
	// ErrSpectatorsFull: every spectator place is taken.
	ErrSpectatorsFull = errors.New("the server has no room for another spectator")
	// ErrServerError: the server stopped the match after an internal
	// error (the server itself goes on).
	ErrServerError = errors.New("this room stopped after a server error")
	// ErrDraining: the server drains before a restart and takes nobody
	// new.
	ErrDraining = errors.New("this server is restarting, try again in a minute")
	// ErrRemoved: the server's operator removed the player (a kick or a
	// ban): an EndedError with proto.LeaveKicked is one.
	ErrRemoved = errors.New("the operator removed you from the server")
)

// NoAnswerError: the server never answered the handshake.
type NoAnswerError struct {
	Server netip.AddrPort
	After  time.Duration
}

func (e *NoAnswerError) Error() string {
	return fmt.Sprintf("no answer from %v after %v: is a ttytanks server running there?", e.Server, e.After)
}

// GoneError: nothing was heard from the server for SilenceGone.
type GoneError struct {
	Server netip.AddrPort
	After  time.Duration
}

func (e *GoneError) Error() string {
	return fmt.Sprintf("the server at %v is gone (nothing heard for %v)", e.Server, e.After)
}

// VersionError: the server speaks another protocol version.
type VersionError struct {
	Server, Client uint8 // 0 when the server's Reject did not say
}

func (e *VersionError) Error() string {
	if e.Server == 0 {
		return "the server speaks another protocol version: upgrade the older side"
	}
	return fmt.Sprintf("server speaks protocol v%d, this client v%d: upgrade the older side", e.Server, e.Client)
}

// Is makes errors.Is(err, proto.ErrVersion) hold.
func (e *VersionError) Is(target error) bool { return target == proto.ErrVersion }

// RefusedError: the server refused the Join for a reason without an error
// of its own. Room is what the client asked for, and Name the name it
// asked under (sanitized); the message names the one refused.
type RefusedError struct {
	Reason proto.RejectReason
	Room   RoomRequest
	Name   string
}

// Error says, in the player's words, why the server would not seat us and
// what to do about it.
func (e *RefusedError) Error() string {
	name := e.Room.Name
	if e.Room.Kind == RoomCreate {
		name = e.Room.Spec.Name
	}
	where := "the room"
	switch {
	case e.Room.Kind == RoomCode:
		where = "the private room"
	case name != "":
		where = "room " + strconv.Quote(name)
	}
	switch e.Reason {
	case proto.RejectRoomFull:
		if e.Room.Spectate {
			return where + " has no place for another spectator: pick another room"
		}
		return where + " is full: pick another room, or watch this one as a spectator"
	case proto.RejectNoRoom:
		if e.Room.Kind == RoomCode {
			return "no room has that join code: check it with whoever gave it to you"
		}
		switch {
		case name == "":
			return "there is no match to watch yet: try again later, or join to play"
		case !e.Room.Spectate: // a private room of that name
			return where + " is private: join it by its code (--code)"
		}
		return "there is no " + where + " to watch: check the name, or join it to create it"
	case proto.RejectRoomTaken:
		return where + " exists already: join it, or pick another name"
	case proto.RejectNoMatch:
		if n := e.Room.Spec.Seats; e.Room.Kind == RoomCreate && (n == 1 || n > game.MaxPlayers) {
			return fmt.Sprintf("a room has 2 to %d seats, not %d: pick another number", game.MaxPlayers, n)
		}
		return "the server has no match for you to join right now: try again later"
	case proto.RejectAddrLimit:
		return "your address already has as many players as this server lets one address have: leave one of those sessions, or try again later"
	case proto.RejectBadName:
		return "that name is taken or not allowed here: pick another (--name)"
	case proto.RejectBadToken:
		return "the seat to come back to is gone: join again"
	case proto.RejectBadCookie:
		return "the server could not check our handshake: try again"
	case proto.RejectSlowDown:
		return "too many tries from your address (wrong join codes or new rooms): wait a minute, then try again"
	case proto.RejectKicked:
		return "the operator removed a player from your address a short while ago: try again in a few minutes"
	case proto.RejectBusy:
		return "the server carries all the rooms it can for now: join a room already running, or try again later"
	case proto.RejectNameTaken:
		// At most 75 cells with a name of proto.MaxNameLen: whole on an
		// 80-column lobby's notice row.
		if e.Name == "" {
			return "another player holds that name here: pick another (--name NEW)"
		}
		return strconv.Quote(e.Name) + " is another player's name here: pick another (--name NEW)"
	}
	return "the server would not seat us (" + e.Reason.String() + "): try again later"
}

// EndedError: the server ended the session with a Leave.
type EndedError struct{ Reason proto.LeaveReason }

func (e *EndedError) Error() string {
	switch e.Reason {
	case proto.LeaveServerError:
		return ErrServerError.Error()
	case proto.LeaveMatchOver:
		return "the match is over"
	case proto.LeaveIdle:
		return "you were idle too long: your seat was freed"
	case proto.LeaveKicked:
		return ErrRemoved.Error()
	}
	return "the server ended the session: " + e.Reason.String()
}

// Is makes errors.Is(err, ErrServerError) hold for a server-error Leave,
// and errors.Is(err, ErrRemoved) for a kicked one.
func (e *EndedError) Is(target error) bool {
	return target == ErrServerError && e.Reason == proto.LeaveServerError ||
		target == ErrRemoved && e.Reason == proto.LeaveKicked
}

// NetworkError: the transport failed under the client.
type NetworkError struct{ Err error }

// KeyError: the server a Redirect sent us to signed its handshake with
// another key than the one the Redirect vouched for.
type KeyError struct{ Want, Got ed25519.PublicKey }

func (e *KeyError) Error() string {
	return "the server we were sent to has another key than the one its fleet vouched for: refusing it"
}

func (e *NetworkError) Error() string { return "network error: " + e.Err.Error() }
func (e *NetworkError) Unwrap() error { return e.Err }
