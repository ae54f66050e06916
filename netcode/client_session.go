package netcode

import (
	"fmt"
	"time"

	"ttytanks/game"
	"ttytanks/proto"
)

// Leave delivery: a closing client repeats its Leave every leaveEvery
// until the server acknowledges it, for at most leaveFor.
const (
	leaveEvery = 100 * time.Millisecond
	leaveFor   = time.Second
)

// Silence thresholds: after SilenceReconnecting without a datagram from the
// server the client shows "reconnecting" and stops predicting; after
// SilenceGone it gives up.
const (
	SilenceReconnecting = 3 * time.Second
	SilenceGone         = 20 * time.Second
)

// session is the client's life cycle with one server: the seat and match
// it was given, the roster, silence and reconnects, the repeated Leave,
// and how it ended (the connection attempts are the handshake's). Its
// status changes only through its methods.
type session struct {
	// room is where the player asked to play; once a Start names the
	// room, later Joins (after a lost seat) ask for that room by name.
	room RoomRequest
	// name is the name our last Request asked under, sanitized as the
	// server takes it, for a refusal to name.
	name string
	// redirected: a Redirect sent us to this server, which must place us
	// itself (the Request says so).
	redirected bool
	roomName   string
	roomCode   string
	rounds     int
	status     Status
	err        error  // why it ended, once StatusClosed
	note       string // a word for the player while reconnecting
	id         uint64
	token      proto.Token
	// tokenKey is the resume key of the connection token was issued on:
	// a Request with the token proves it holds it.
	tokenKey  [proto.KeyLen]byte
	match     uint32
	slot      int
	slots     int
	need      int
	names     [game.MaxPlayers]string
	connected [game.MaxPlayers]bool
	startTick game.Tick
	seq       uint32
	heard     time.Time // last genuine datagram from the server (or the first attempt)
	// woke is when the client last woke from a freeze: silence counts
	// from then at the earliest. away is the freeze's length while the
	// client checks whether its seat outlived it (0 otherwise); notice
	// is a word for the player about a seat lost to a freeze.
	woke      time.Time
	away      time.Duration
	notice    string
	prevSlot  int // the seat before the newest Start
	keepAlive time.Time
	// leaving: a Leave is out and not yet acknowledged.
	leaving    bool
	leaveUntil time.Time
	nextLeave  time.Time
}

func newSession(id uint64, room RoomRequest) session {
	s := session{id: id, slot: -1, room: room}
	if room.Kind == RoomCreate && (room.Spec.Seats == 1 || room.Spec.Seats > game.MaxPlayers) {
		s.end(&RefusedError{Reason: proto.RejectNoMatch, Room: room}) // PROTOCOL.md §5.14: 2..8 seats; a server drops the Request
	}
	return s
}

// header returns the header of our next datagram (without its sequence
// number).
func (s *session) header() proto.Header {
	h := proto.Header{Session: s.id, Match: s.match, Player: proto.SpectatorSlot}
	if s.slot >= 0 {
		h.Player = uint8(s.slot)
	}
	return h
}

// nextSeq returns the sequence number of our next datagram.
func (s *session) nextSeq() uint32 {
	s.seq++
	return s.seq
}

// end closes the session with err (the first reason wins).
func (s *session) end(err error) {
	if s.status != StatusClosed {
		s.status, s.err, s.note = StatusClosed, err, ""
	}
}

// hear notes a genuine datagram from the server.
func (s *session) hear(now time.Time) { s.heard = now }

// lastHeard returns when the server was last heard from.
func (s *session) lastHeard() time.Time { return s.heard }

// silence returns how long the server has been silent at now.
func (s *session) silence(now time.Time) time.Duration {
	if s.heard.IsZero() {
		s.heard = now
	}
	if s.woke.After(s.heard) {
		return now.Sub(s.woke) // the freeze's silence was ours
	}
	return now.Sub(s.heard)
}

// wake notes that the client woke at now from a freeze of gap.
func (s *session) wake(now time.Time, gap time.Duration) { s.woke = now }

// checking notes that a freeze of gap, longer than the server holds a
// seat, ended: the session, reconnecting, says so until a Start tells
// what became of the seat.
func (s *session) checking(gap time.Duration) {
	s.away, s.note = gap, awayNote(gap)
}

// request returns our Request: the room we want, our name, and our
// token with its proof, over the connection it goes on, when we held a
// place.
func (s *session) request(name string, spectate bool, proof func(resume [proto.KeyLen]byte) proto.Proof) *proto.Request {
	j := &proto.Request{Header: proto.Header{Session: s.id}, Token: s.token, Spectate: spectate, Name: name, Redirected: s.redirected}
	s.name = proto.SanitizeName(name)
	if s.token != (proto.Token{}) {
		j.Proof = proof(s.tokenKey)
	}
	r := s.room
	switch {
	case r.Kind == RoomLobby:
		j.Kind, j.Spectate = proto.RoomLobby, true
	case r.Kind == RoomCode:
		j.Kind, j.Room = proto.RoomCode, r.Name
	case s.roomName != "":
		j.Kind, j.Room = proto.RoomNamed, s.roomName
	case r.Kind == RoomNamed:
		j.Kind, j.Room = proto.RoomNamed, r.Name
	case r.Kind == RoomCreate:
		j.Kind, j.Room, j.Private, j.Casual = proto.RoomCreate, r.Spec.Name, r.Spec.Private, r.Spec.Casual
		if r.Spec.Seats > 0 {
			j.Seats, j.Bots = uint8(r.Spec.Seats), uint8(r.Spec.Bots)
		}
	}
	return j
}

// asked returns the room the session asks for.
func (s *session) asked() RoomRequest { return s.room }

// redirect makes the session ask another server for room, as a
// Redirected Request.
func (s *session) redirect(room RoomRequest) {
	s.room, s.redirected, s.roomName, s.roomCode = room, true, "", ""
}

// rejoin starts the session over, as a new player asking for room (its
// place on a server that died is gone), with notice for the player.
func (s *session) rejoin(room RoomRequest, notice string) {
	*s = newSession(s.id, room)
	s.notice = notice
}

// roomOf returns the room the session plays in, its join code (private
// rooms) and the match's win condition, as the last Start said.
func (s *session) roomOf() (name, code string, rounds int) { return s.roomName, s.roomCode, s.rounds }

// rejected takes a Reject; it ends the session unless the cookie was only
// stale: then it reports retry, and the handshake starts over.
//
// joining is set while we play without a world yet (our Join repeats
// until the first State): the server answers a Join of a session it holds
// with a Start, so a Reject then means our place is gone (its room closed,
// say, and the Leave that told us was lost) and ends the session too.
func (s *session) rejected(r proto.RejectReason, spectate, joining bool) (retry bool) {
	if r == proto.RejectBadCookie && s.status != StatusClosed {
		return true // stale, or for an address we no longer have
	}
	if s.status != StatusConnecting && s.status != StatusWaiting && s.status != StatusReconnecting && !(s.status == StatusPlaying && joining) {
		return // a stray answer to a duplicate Join
	}
	switch r {
	case proto.RejectFull:
		if spectate {
			s.end(ErrSpectatorsFull)
		} else {
			s.end(ErrServerFull)
		}
	case proto.RejectVersion:
		s.end(&VersionError{})
	case proto.RejectDraining:
		s.end(ErrDraining)
	default:
		s.end(&RefusedError{Reason: r, Room: s.room, Name: s.name})
	}
	return false
}

// startKind says what a Start meant to the session.
type startKind uint8

const (
	startIgnored startKind = iota // stale or irrelevant
	startRoster                   // only the roster was news
	startLobby                    // seated, waiting for players
	startNew                      // a match to build (or, running, to join)
)

// started takes a Start that came on the connection whose resume key is
// resume, and says what it means: the session moves to waiting or
// playing. newMatch reports that the match id changed (a new match or a
// new server).
func (s *session) started(st *proto.Start, haveWorld bool, resume [proto.KeyLen]byte) (kind startKind, newMatch bool) {
	if s.status == StatusClosed {
		return startIgnored, false
	}
	s.slots, s.need = int(st.Slots), int(st.Need)
	if st.Token != s.token {
		s.token, s.tokenKey = st.Token, resume
	}
	s.roomName, s.roomCode, s.rounds = st.Room, st.Code, int(st.Rounds)
	for i := range s.names {
		s.names[i], s.connected[i] = "", false
		if i < s.slots {
			s.names[i], s.connected[i] = st.Roster[i].Name, st.Roster[i].Connected
		}
	}
	reconnected := s.status == StatusReconnecting
	s.slot = -1
	if st.Slot != proto.SpectatorSlot {
		s.slot = int(st.Slot)
	}
	same := s.status == StatusPlaying && haveWorld && s.match == st.Match && s.startTick == st.StartTick
	if st.Need > 0 && s.match == st.Match && s.status == StatusPlaying {
		return startIgnored, false // a delayed Start from the lobby: a running match never goes back
	}
	if reconnected {
		s.note = "" // back: in the lobby or in the match, as this Start says
	}
	if s.away > 0 && st.Slot != proto.SpectatorSlot {
		// A Start after a freeze longer than FreeAfter: the server held
		// our seat no longer (unless it froze with us), so this is a new
		// one.
		s.notice = fmt.Sprintf("this computer was asleep for %v, longer than the server holds a seat (%v): the seat was lost; joined again as a new player",
			s.away.Round(time.Second), FreeAfter)
		s.away = 0
	}
	newMatch = s.match != st.Match
	s.match = st.Match
	if st.Need > 0 {
		s.status = StatusWaiting
		return startLobby, newMatch
	}
	if same {
		return startRoster, newMatch
	}
	s.startTick = st.StartTick
	s.status = StatusPlaying
	return startNew, newMatch
}

// lost moves a waiting or playing session to reconnecting after silence
// (the handshake starts a new attempt).
func (s *session) lost() {
	s.status, s.note = StatusReconnecting, "no word from the server: reconnecting…"
}

// close starts leaving: the Leave goes out now and is repeated until
// acknowledged or leaveFor has passed. It returns the Leave, or nil when
// there is no match to leave, or no connection the server placed us on
// (none yet, or a new one while reconnecting: placed tells): a Leave on
// it could not name our place, and the server frees the place after
// FreeAfter.
func (s *session) close(now time.Time, placed func(match uint32, player uint8) bool) *proto.Leave {
	h := s.header()
	had := s.status != StatusClosed && s.match != 0 && placed(h.Match, h.Player)
	s.end(ErrQuit)
	if !had {
		return nil
	}
	s.leaving, s.leaveUntil, s.nextLeave = true, now.Add(leaveFor), now.Add(leaveEvery)
	return s.leave()
}

func (s *session) leave() *proto.Leave {
	return &proto.Leave{Header: s.header(), Reason: proto.LeaveQuit}
}

// resendLeave returns the Leave again when it is due, and stops trying
// after leaveFor.
func (s *session) resendLeave(now time.Time) *proto.Leave {
	if !s.leaving {
		return nil
	}
	if now.After(s.leaveUntil) {
		s.leaving = false
		return nil
	}
	if now.Before(s.nextLeave) {
		return nil
	}
	s.nextLeave = now.Add(leaveEvery)
	return s.leave()
}

// left takes a Leave from the server for our match: an acknowledgement of
// ours, or the server ending the session.
func (s *session) left(l *proto.Leave) {
	if s.leaving {
		s.leaving = false // acknowledged: the seat is free
		return
	}
	if l.Match == s.match {
		s.end(&EndedError{Reason: l.Reason})
	}
}

// deadline returns the session's next timer at or after now (zero: none),
// nextHello being the handshake's.
func (s *session) deadline(nextHello time.Time) time.Time {
	switch {
	case s.leaving:
		return s.nextLeave
	case s.status == StatusConnecting || s.status == StatusReconnecting:
		return nextHello
	case s.status == StatusWaiting:
		return s.keepAlive
	}
	return time.Time{}
}

// state returns the session's status.
func (s *session) state() Status { return s.status }

// seat returns our seat, or -1.
func (s *session) seat() int { return s.slot }

// seats returns the number of seats in the match.
func (s *session) seats() int { return s.slots }

// reason returns why the session ended (nil before it has).
func (s *session) reason() error { return s.err }

// sessionID returns the session id.
func (s *session) sessionID() uint64 { return s.id }

// matchID returns the match the server put us in (0 before Start).
func (s *session) matchID() uint32 { return s.match }

// pendingLeave reports whether our Leave awaits its acknowledgement.
func (s *session) pendingLeave() bool { return s.leaving }

// addressee reports whether player is our seat (SpectatorSlot for a
// spectator): a packet for another is not ours.
func (s *session) addressee(player uint8) bool {
	if s.slot < 0 {
		return player == proto.SpectatorSlot
	}
	return int(player) == s.slot
}

// keepAliveDue reports whether a lobby keep-alive is due at now (about
// once a second), and the tick it names.
func (s *session) keepAliveDue(now time.Time) (game.Tick, bool) {
	if now.Before(s.keepAlive) {
		return 0, false
	}
	s.keepAlive = now.Add(time.Second)
	return s.startTick, true
}

// fill copies the session's part of a View.
func (s *session) fill(dst *View) {
	dst.Status, dst.Slot, dst.Need = s.status, s.slot, s.need
	dst.Message, dst.Notice = s.note, s.notice
	if s.err != nil {
		dst.Message = s.err.Error()
	}
	dst.Names, dst.Connected = s.names, s.connected
	dst.Room, dst.Code, dst.Rounds = s.roomName, s.roomCode, s.rounds
}
