package netcode

import (
	"errors"

	"ttytanks/proto"
)

// DropReason says why the server dropped a datagram.
type DropReason uint8

// Drop reasons, counted separately in ServerStats.Drops.
const (
	DropShort         DropReason = iota // truncated datagram
	DropOversize                        // larger than proto.MaxDatagram
	DropMagic                           // not our protocol
	DropVersion                         // another protocol version
	DropType                            // unknown packet type
	DropMalformed                       // a field out of range, trailing bytes, bad padding
	DropBadInput                        // move value or button bits out of range, bad input ticks
	DropUnexpected                      // a packet type the server does not accept
	DropBadCookie                       // Join with an invalid or expired cookie
	DropUnknownPlayer                   // no such seat (or a bot's)
	DropWrongAddr                       // a known seat, from another address (spoofed or moved)
	DropWrongSession                    // a known seat, another session
	DropWrongMatch                      // a datagram for an earlier match
	DropStale                           // an Input whose newest tick is already simulated
	DropFuture                          // an Input too far ahead of the server
	DropRateLimited                     // a Hello or Join over its source's rate limit, a LadderQuery too soon after the last
	DropDuplicate                       // an Input whose sequence number was seen: a copy or a replay
	DropFault                           // its handling failed inside the server (the match was stopped)
	DropBanned                          // a Hello or Join from a banned address
	DropAddrLimit                       // a Join from an address that holds its share of places
	DropClear                           // a session's packet in the clear: after the handshake everything is sealed
	DropUnknownConn                     // a sealed datagram of no connection the server holds
	DropReplay                          // a sealed datagram whose packet number was already opened
	DropTooOld                          // a sealed datagram behind the replay window
	DropBadSeal                         // a sealed datagram that fails authentication (forged or damaged)
	DropConnLimit                       // a Join over the connection limits (the server's, or its address's)
	DropBadProof                        // a Request whose reconnect token comes without its session's proof
	DropMoved                           // a Request on a connection from an address its path check has not validated
	DropKicked                          // a Join or Request from a prefix a kick holds out (KickHold)
	DropBusy                            // a room asked for while the server carries all it can step on time
	DropChat                            // a chat line over its sayer's budget, from a muted player, empty or too long once cleaned, or with chat off
	DropBadIdentity                     // a Request whose player key or vouching does not verify on its handshake
	DropLadder                          // a Request or LadderQuery that needs the ladder while its work queue (or the queries' share of it) is full
	numDropReasons
)

var dropNames = [numDropReasons]string{
	"short", "oversize", "magic", "version", "type", "malformed", "bad-input", "unexpected",
	"bad-cookie", "unknown-player", "wrong-addr", "wrong-session", "wrong-match",
	"stale", "future", "rate-limited", "duplicate", "fault", "banned", "addr-limit",
	"clear", "unknown-conn", "replay", "too-old", "bad-seal", "conn-limit", "bad-proof", "moved", "kicked", "busy",
	"chat", "bad-identity", "ladder",
}

// String returns the reason's short name, as dashboards and logs show it.
func (r DropReason) String() string {
	if r < numDropReasons {
		return dropNames[r]
	}
	return "unknown"
}

// dropReasonFor classifies a decoding error.
func dropReasonFor(err error) DropReason {
	switch {
	case errors.Is(err, proto.ErrShort):
		return DropShort
	case errors.Is(err, proto.ErrOversize):
		return DropOversize
	case errors.Is(err, proto.ErrMagic):
		return DropMagic
	case errors.Is(err, proto.ErrVersion):
		return DropVersion
	case errors.Is(err, proto.ErrType):
		return DropType
	case errors.Is(err, proto.ErrMove), errors.Is(err, proto.ErrButtons),
		errors.Is(err, proto.ErrTooManyInputs), errors.Is(err, proto.ErrInputTicks):
		return DropBadInput
	case errors.Is(err, proto.ErrReplay):
		return DropReplay
	case errors.Is(err, proto.ErrTooOld):
		return DropTooOld
	case errors.Is(err, proto.ErrOpen):
		return DropBadSeal
	case errors.Is(err, proto.ErrSealedShort), errors.Is(err, proto.ErrSealedHeader):
		return DropShort
	case errors.Is(err, proto.ErrChat):
		return DropChat
	}
	return DropMalformed
}
