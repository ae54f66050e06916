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
	DropRateLimited                     // a Hello or Join over its source's rate limit
	DropDuplicate                       // an Input whose sequence number was seen: a copy or a replay
	DropFault                           // its handling failed inside the server (the match was stopped)
	DropBanned                          // a Hello or Join from a banned address
	DropAddrLimit                       // a Join from an address that holds its share of places
	numDropReasons
)

var dropNames = [numDropReasons]string{
	"short", "oversize", "magic", "version", "type", "malformed", "bad-input", "unexpected",
	"bad-cookie", "unknown-player", "wrong-addr", "wrong-session", "wrong-match",
	"stale", "future", "rate-limited", "duplicate", "fault", "banned", "addr-limit",
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
	}
	return DropMalformed
}
