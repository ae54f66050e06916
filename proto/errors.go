package proto

import (
	"errors"
	"fmt"
)

// Decoding errors. Every Parse function returns one of these, possibly
// wrapped with detail; test for them with errors.Is.
var (
	// ErrShort means the datagram ends before the packet does.
	ErrShort = errors.New("proto: short packet")
	// ErrOversize means the datagram is longer than MaxDatagram bytes.
	ErrOversize = errors.New("proto: datagram larger than 1200 bytes")
	// ErrMagic means the datagram does not start with Magic; it is not ours.
	ErrMagic = errors.New("proto: bad magic")
	// ErrVersion means the peer speaks another protocol version. It is
	// returned as a *VersionError, which carries both versions.
	ErrVersion = errors.New("proto: protocol version mismatch")
	// ErrType means the header's type byte is not a known Type.
	ErrType = errors.New("proto: unknown packet type")
	// ErrWrongType means a Parse function was given a datagram of another
	// type, such as ParseJoin given a Hello.
	ErrWrongType = errors.New("proto: wrong packet type")
	// ErrTrailing means there are bytes after the end of the packet.
	ErrTrailing = errors.New("proto: trailing bytes after packet")
	// ErrPadding means the zero padding of a Hello is not all zeros.
	ErrPadding = errors.New("proto: non-zero padding")
	// ErrFlags means a boolean or flag byte has a bit set that the
	// protocol does not define.
	ErrFlags = errors.New("proto: undefined flag bits set")
	// ErrMove means an input's move value is outside {-1, 0, 1}.
	ErrMove = errors.New("proto: input move value outside {-1,0,1}")
	// ErrButtons means an input has a button bit outside game.ButtonMask.
	ErrButtons = errors.New("proto: input has unknown button bits")
	// ErrTooManyInputs means an Input packet carries no input or more than
	// MaxInputs.
	ErrTooManyInputs = errors.New("proto: input count not in 1..8")
	// ErrInputTicks means the inputs of an Input packet are not for
	// consecutive ascending ticks. The wire format cannot express that, so
	// only Input.Validate returns it.
	ErrInputTicks = errors.New("proto: input ticks not consecutive")
	// ErrSnapshot means a decoded snapshot fails game.Snapshot.Validate; the
	// error wraps both ErrSnapshot and the game's error.
	ErrSnapshot = errors.New("proto: invalid snapshot")
	// ErrName means a name is longer than MaxNameLen bytes or not valid
	// UTF-8 (Request, Redirect), or not in the form SanitizeName returns
	// (Start, RoomList), or a RoomList's server is longer than
	// MaxServerLen bytes or holds a byte that is not printable ASCII.
	ErrName = errors.New("proto: invalid name")
	// ErrChat means a chat line is empty, too long, not valid UTF-8, or
	// (in a ChatLine) not in CleanChat's form.
	ErrChat = errors.New("proto: invalid chat line")
	// ErrRange means a field is out of range: a Start's slot, slot count,
	// players needed, maze size or state interval; an Accept's connection
	// id; a RoomList entry's counts or state; a Request's or a Redirect's
	// room kind, room or room settings; a Redirect's address.
	ErrRange = errors.New("proto: field out of range")
	// ErrReason means a Leave or Reject carries an unknown reason code.
	ErrReason = errors.New("proto: unknown reason code")
	// ErrCookieExpired means a cookie was issued by this jar for this
	// address but more than CookieLifetime ago (or in the future).
	ErrCookieExpired = errors.New("proto: cookie expired")
	// ErrCookieInvalid means a cookie was not issued by this jar for this
	// address: forged, corrupted, or presented from another IP or port.
	ErrCookieInvalid = errors.New("proto: invalid cookie")
)

// VersionError is returned by ParseHeader (and every Parse function) when
// the datagram's version byte is not Version. errors.Is(err, ErrVersion)
// holds for it; its message is fit to show to a user.
type VersionError struct {
	// Got is the version in the datagram; Want is Version.
	Got, Want uint8
}

// Error returns a message such as
// "proto: peer speaks protocol v2, this build speaks v1".
func (e *VersionError) Error() string {
	return fmt.Sprintf("proto: peer speaks protocol v%d, this build speaks v%d", e.Got, e.Want)
}

// Is reports whether target is ErrVersion.
func (e *VersionError) Is(target error) bool { return target == ErrVersion }
