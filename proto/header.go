package proto

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"time"
	"unicode/utf8"
)

// Protocol constants. Sizes are in bytes.
const (
	// Magic opens every datagram: "TT".
	Magic uint16 = 0x5454
	// Version is the protocol version this build speaks. Any change to a
	// layout below, or to the game rules, needs a new version.
	Version uint8 = 10
	// MaxDatagram is the largest datagram either side sends or accepts.
	MaxDatagram = 1200
	// HeaderLen is the size of the clear header: magic u16, version u8,
	// type u8, session u64, match u32, player u8, seq u32. Every packet's
	// clear form opens with it; a sealed datagram opens with the
	// SealedHeaderLen bytes of SealedHeader instead.
	HeaderLen = 21
	// HelloLen is the size of a Hello, padded with zeros so that it is never
	// smaller than the Challenge (or Reject) it triggers.
	HelloLen = 64
	// MaxInputs is the most inputs one Input packet carries.
	MaxInputs = 8
	// DefaultRedundancy is how many inputs a client normally sends per
	// Input packet (the newest and the three before it).
	DefaultRedundancy = 4
	// MaxNameLen bounds a player name, in bytes of UTF-8, after sanitising.
	MaxNameLen = 16
	// CookieLen is the size of a Cookie.
	CookieLen = 24
	// TokenLen is the size of a reconnect Token.
	TokenLen = 16
	// SpectatorSlot is the slot (and Header.Player) of a spectator.
	SpectatorSlot = 0xFF
	// CookieLifetime is how long a Challenge cookie stays valid.
	CookieLifetime = 10 * time.Second
)

// Type is the packet type, the header's fourth byte.
type Type uint8

// Packet types. Their values are part of the wire format.
const (
	TypeHello         Type = 1 + iota // client → server: ask for a cookie
	TypeChallenge                     // server → client: the cookie
	TypeJoin                          // client → server: cookie and the client's ephemeral key
	TypeStart                         // server → client: seat and match
	TypeInput                         // client → server: the newest inputs
	TypeAck                           // server → client: tick report and hash
	TypeState                         // server → client: tick report and full snapshot
	_                                 // 8: unassigned (version 1's Reset)
	TypeLeave                         // either way: the session ends, or a Leave is acknowledged
	TypeReject                        // server → client: the Join or Request is refused
	TypeListRooms                     // client → server: cookie, ask for the room list
	TypeRoomList                      // server → client: one page of the room list
	TypeAccept                        // server → client: the server's keys and signature, the connection id
	TypeRequest                       // client → server, sealed: name, seat request, reconnect token
	TypePathChallenge                 // server → client, sealed: prove you receive at this address
	TypePathResponse                  // client → server, sealed: the challenge's data, echoed
	TypeChat                          // client → server, sealed: a line the player says
	TypeChatLine                      // server → client, sealed: a line said in the room, or a notice
	TypeChatAck                       // client → server, sealed: a room line received
	TypeRedirect                      // server → client, sealed: the Request is placed on another server of the fleet
	TypeLadderQuery                   // client → server, sealed: a page of the leaderboard, your card, or forget you
	TypeLadderPage                    // server → client, sealed: the page and your card
	TypeRated                         // server → client, sealed: the rating changes of a finished match
)

var typeNames = [...]string{
	TypeHello: "Hello", TypeChallenge: "Challenge", TypeJoin: "Join", TypeStart: "Start",
	TypeInput: "Input", TypeAck: "Ack", TypeState: "State",
	TypeLeave: "Leave", TypeReject: "Reject", TypeListRooms: "ListRooms", TypeRoomList: "RoomList",
	TypeAccept: "Accept", TypeRequest: "Request", TypePathChallenge: "PathChallenge", TypePathResponse: "PathResponse",
	TypeChat: "Chat", TypeChatLine: "ChatLine", TypeChatAck: "ChatAck", TypeRedirect: "Redirect",
	TypeLadderQuery: "LadderQuery", TypeLadderPage: "LadderPage", TypeRated: "Rated",
}

// String returns the packet type's name, such as "Hello", or "Type(N)" for
// an unknown value.
func (t Type) String() string {
	if t.known() {
		return typeNames[t]
	}
	return "Type(" + strconv.Itoa(int(t)) + ")"
}

func (t Type) known() bool { return t >= TypeHello && t <= TypeRated && t != typeUnassigned }

// Sealed reports whether packets of type t travel only sealed (a session's
// packets after its handshake); the others travel only in the clear,
// except Reject, which is sealed when it answers a Request and clear when
// it answers a Join, a ListRooms or a datagram of another version.
func (t Type) Sealed() bool {
	switch t {
	case TypeStart, TypeInput, TypeAck, TypeState, TypeLeave, TypeRequest, TypePathChallenge, TypePathResponse,
		TypeChat, TypeChatLine, TypeChatAck, TypeRedirect, TypeLadderQuery, TypeLadderPage, TypeRated:
		return true
	}
	return false
}

// Clear reports whether packets of type t may travel in the clear.
func (t Type) Clear() bool { return t.known() && !t.Sealed() }

// typeUnassigned is the type value version 1 used for Reset; no packet has
// it now.
const typeUnassigned Type = 8

// Header is the clear header (PROTOCOL.md §3.1). On the wire it opens only
// the handshake's datagrams and the room list's: Hello, Challenge, Join,
// Accept, a clear Reject, ListRooms and RoomList. It is also the in-memory
// header of every sealed packet: a sender fills it in (a Start's Match is
// the one field that travels) and Sealer.AppendPacket replaces it by a
// SealedHeader and an epoch; a receiver fills it in from the connection,
// the epoch and the packet number after Opener.Open, and hands it to the
// packet's ParseXBody with the body. Magic and Version are implicit:
// Append writes them and ParseHeader checks them.
type Header struct {
	// Type is the packet type. The Append method of a packet writes its own
	// type, whatever this field holds; Parse sets it.
	Type Type
	// Session is chosen at random (non-zero) by the client and carried in
	// every clear datagram of its handshakes, both ways. Sealed packets do
	// not carry it: the receiver puts its own name for the connection.
	Session uint64
	// Match identifies the match; zero until the server's Start says it,
	// and in every clear datagram. Sealed packets carry an epoch that
	// stands for Match and Player (a Start carries its Match too).
	Match uint32
	// Player is the sender's seat (client → server) or the addressee's
	// seat (server → client); zero before Start, SpectatorSlot for
	// spectators.
	Player uint8
	// Seq is, in a sealed packet's clear form, the packet number of its
	// sealed datagram: the sender's count of the datagrams it sealed on
	// the connection, from 1 (AppendPacket numbers the datagram itself,
	// whatever Seq holds). Receivers use it to measure loss. In a clear
	// datagram a client counts its datagrams from 1, and the server's
	// replies carry 0 (PROTOCOL.md §3.1).
	Seq uint32
}

// Head returns the packet's header, so code that sends any packet can set
// its fields (the sequence number, say) through one method: every packet
// type embeds Header and so has Head.
func (h *Header) Head() *Header { return h }

// AppendHeader appends the HeaderLen bytes of h, with Magic and Version,
// writing h.Type as it is.
func (h *Header) AppendHeader(b []byte) []byte {
	return h.appendAs(b, h.Type)
}

func (h *Header) appendAs(b []byte, t Type) []byte {
	b = binary.BigEndian.AppendUint16(b, Magic)
	b = append(b, Version, byte(t))
	b = binary.BigEndian.AppendUint64(b, h.Session)
	b = binary.BigEndian.AppendUint32(b, h.Match)
	b = append(b, h.Player)
	return binary.BigEndian.AppendUint32(b, h.Seq)
}

// ParseHeader decodes the header of a datagram. It checks, in this order:
// the size (HeaderLen to MaxDatagram bytes: ErrShort, ErrOversize), the
// magic (ErrMagic), the version (*VersionError, which is ErrVersion) and
// that the type is known (ErrType). It does not look past the header.
func ParseHeader(b []byte) (Header, error) {
	if len(b) < HeaderLen {
		return Header{}, ErrShort
	}
	if len(b) > MaxDatagram {
		return Header{}, ErrOversize
	}
	if binary.BigEndian.Uint16(b) != Magic {
		return Header{}, ErrMagic
	}
	if b[2] != Version {
		return Header{}, &VersionError{Got: b[2], Want: Version}
	}
	t := Type(b[3])
	if !t.known() {
		return Header{}, ErrType
	}
	return Header{
		Type:    t,
		Session: binary.BigEndian.Uint64(b[4:]),
		Match:   binary.BigEndian.Uint32(b[12:]),
		Player:  b[16],
		Seq:     binary.BigEndian.Uint32(b[17:]),
	}, nil
}

// want checks that the header is of type t (ErrWrongType otherwise).
func (h *Header) want(t Type) error {
	if h.Type != t {
		return fmt.Errorf("%w: got %v, want %v", ErrWrongType, h.Type, t)
	}
	return nil
}

// reader reads big-endian fields from b. Every read checks the length
// first; a read past the end returns zero and sets short, which stays set.
type reader struct {
	b     []byte
	off   int
	short bool
}

func (r *reader) has(n int) bool {
	if len(r.b)-r.off < n {
		r.short = true
		return false
	}
	return true
}

func (r *reader) u8() uint8 {
	if !r.has(1) {
		return 0
	}
	v := r.b[r.off]
	r.off++
	return v
}

func (r *reader) u16() uint16 {
	if !r.has(2) {
		return 0
	}
	v := binary.BigEndian.Uint16(r.b[r.off:])
	r.off += 2
	return v
}

func (r *reader) u32() uint32 {
	if !r.has(4) {
		return 0
	}
	v := binary.BigEndian.Uint32(r.b[r.off:])
	r.off += 4
	return v
}

func (r *reader) u64() uint64 {
	if !r.has(8) {
		return 0
	}
	v := binary.BigEndian.Uint64(r.b[r.off:])
	r.off += 8
	return v
}

// bytes returns the next n bytes (aliasing b), or nil if there are fewer.
func (r *reader) bytes(n int) []byte {
	if !r.has(n) {
		return nil
	}
	v := r.b[r.off : r.off+n]
	r.off += n
	return v
}

// end returns ErrShort if a read ran past the end, ErrTrailing if bytes
// remain, and nil if the packet used exactly the whole datagram.
func (r *reader) end() error {
	if r.short {
		return ErrShort
	}
	if r.off != len(r.b) {
		return ErrTrailing
	}
	return nil
}

// name reads a length-prefixed name: at most MaxNameLen bytes of valid
// UTF-8 (ErrName), ErrShort if the datagram ends first. It aliases b.
func (r *reader) name() ([]byte, error) {
	n := int(r.u8())
	if r.short {
		return nil, ErrShort
	}
	if n > MaxNameLen {
		return nil, fmt.Errorf("%w: %d bytes, max %d", ErrName, n, MaxNameLen)
	}
	v := r.bytes(n)
	if r.short {
		return nil, ErrShort
	}
	if !utf8.Valid(v) {
		return nil, fmt.Errorf("%w: not valid UTF-8", ErrName)
	}
	return v, nil
}
