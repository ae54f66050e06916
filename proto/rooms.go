package proto

import (
	"encoding/binary"
	"fmt"

	"ttytanks/game"
)

// ListRooms (client → server) asks for one page of the room list. It
// echoes a Challenge's cookie, so the server answers only an address that
// has shown it receives what is sent to it: the answer may be larger than
// the request.
type ListRooms struct {
	Header
	// Cookie is the cookie from a Challenge to this session.
	Cookie Cookie
	// Offset is the index of the first room wanted.
	Offset uint16
	// ClientTime is the client's clock in milliseconds, echoed in the
	// RoomList (the lobby's ping).
	ClientTime uint32
}

// ListRoomsLen is the size of a ListRooms.
const ListRoomsLen = HeaderLen + CookieLen + 2 + 4

// Len returns the encoded size of a ListRooms (51 bytes).
func (p *ListRooms) Len() int { return ListRoomsLen }

// Append appends the ListRooms to b.
func (p *ListRooms) Append(b []byte) []byte { return p.AppendBody(p.appendAs(b, TypeListRooms)) }

// AppendBody appends the ListRooms's body, what follows its header, to b.
func (p *ListRooms) AppendBody(b []byte) []byte {
	b = append(b, p.Cookie[:]...)
	b = binary.BigEndian.AppendUint16(b, p.Offset)
	return binary.BigEndian.AppendUint32(b, p.ClientTime)
}

// PacketType returns TypeListRooms.
func (*ListRooms) PacketType() Type { return TypeListRooms }

// ParseListRooms decodes a ListRooms.
func ParseListRooms(b []byte) (ListRooms, error) {
	h, err := ParseHeader(b)
	if err != nil {
		return ListRooms{}, err
	}
	return ParseListRoomsBody(h, b[HeaderLen:])
}

// ParseListRoomsBody decodes the body b of a ListRooms, what follows its header h:
// the rest of a clear datagram, or the opened body of a sealed one.
func ParseListRoomsBody(h Header, b []byte) (ListRooms, error) {
	if err := h.want(TypeListRooms); err != nil {
		return ListRooms{}, err
	}
	r := reader{b: b}
	p := ListRooms{Header: h}
	copy(p.Cookie[:], r.bytes(CookieLen))
	p.Offset = r.u16()
	p.ClientTime = r.u32()
	if err := r.end(); err != nil {
		return ListRooms{}, err
	}
	return p, nil
}

// RoomEntry is one room in a RoomList.
type RoomEntry struct {
	// Name is the room's name in SanitizeName form.
	Name    string
	Private bool
	// Closing marks a room of a server that drains before a restart: it
	// takes nobody new, and its match, if one runs, is its last.
	Closing bool
	// Ranked marks a room whose matches are rated (version 8): a room of
	// a server with a ladder, without bots, not created casual.
	Ranked bool
	// Players counts the seats taken (bots included), of Seats; Bots are
	// the server-side bots among them.
	Players, Seats, Bots, Spectators uint8
	// State is the room's phase: 0 waiting, 1 countdown, 2 playing,
	// 3 results (MaxRoomState).
	State uint8
	// Round is the round being played (0 before the first); RoundsToWin
	// the match's win condition (0: none).
	Round       uint16
	RoundsToWin uint8
	// Leader is the name of the player with the most round wins ("" when
	// none has won a round), LeaderScore its round wins.
	Leader      string
	LeaderScore uint16
	// Server is where the room lives in a fleet: the "host:port" text of
	// that server's public UDP address, at most MaxServerLen bytes of
	// printable ASCII without spaces (0x21..0x7e); "" means the server
	// that sent the list.
	Server string
}

// MaxRoomState is the highest RoomEntry.State.
const MaxRoomState = 3

// MaxServerLen bounds a RoomEntry's Server, in bytes.
const MaxServerLen = 64

// The RoomEntry flag bits: Private, Closing, Ranked.
const (
	roomPrivate = 1 << 0
	roomClosing = 1 << 1
	roomRanked  = 1 << 2
)

// roomEntryFixedLen is a RoomEntry's size without its two names and its
// server.
const roomEntryFixedLen = 1 + 1 + 5 + 2 + 1 + 1 + 2 + 1

// Len returns the entry's encoded size: 14 bytes plus the two names and
// the server.
func (e *RoomEntry) Len() int {
	return roomEntryFixedLen + len(e.Name) + len(e.Leader) + len(e.Server)
}

// RoomList (server → client) is one page of the room list, the answer to
// a ListRooms with a valid cookie.
type RoomList struct {
	Header
	// ClientTime echoes the ListRooms' ClientTime.
	ClientTime uint32
	// Total is the number of rooms listed in all pages; Offset the index
	// of Rooms[0].
	Total  uint16
	Offset uint16
	// Rooms are the rooms of this page: as many as fit in MaxDatagram.
	Rooms []RoomEntry
}

// roomListFixedLen is a RoomList's size without its entries.
const roomListFixedLen = HeaderLen + 4 + 2 + 2 + 1

// Len returns the encoded size: 30 bytes plus the entries.
func (p *RoomList) Len() int {
	n := roomListFixedLen
	for i := range p.Rooms {
		n += p.Rooms[i].Len()
	}
	return n
}

// Fits reports whether one more entry e fits in the datagram.
func (p *RoomList) Fits(e *RoomEntry) bool {
	return p.Len()+e.Len() <= MaxDatagram && len(p.Rooms) < 255
}

// Append appends the RoomList to b. Names and servers are written as they
// are: names not in SanitizeName form, and servers longer than
// MaxServerLen or with other bytes than printable ASCII, are rejected by
// the receiver.
func (p *RoomList) Append(b []byte) []byte { return p.AppendBody(p.appendAs(b, TypeRoomList)) }

// AppendBody appends the RoomList's body, what follows its header, to b.
func (p *RoomList) AppendBody(b []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, p.ClientTime)
	b = binary.BigEndian.AppendUint16(b, p.Total)
	b = binary.BigEndian.AppendUint16(b, p.Offset)
	b = append(b, byte(len(p.Rooms)))
	for i := range p.Rooms {
		e := &p.Rooms[i]
		b = append(b, byte(len(e.Name)))
		b = append(b, e.Name...)
		var flags byte
		if e.Private {
			flags |= roomPrivate
		}
		if e.Closing {
			flags |= roomClosing
		}
		if e.Ranked {
			flags |= roomRanked
		}
		b = append(b, flags, e.Players, e.Seats, e.Bots, e.Spectators, e.State)
		b = binary.BigEndian.AppendUint16(b, e.Round)
		b = append(b, e.RoundsToWin, byte(len(e.Leader)))
		b = append(b, e.Leader...)
		b = binary.BigEndian.AppendUint16(b, e.LeaderScore)
		b = append(b, byte(len(e.Server)))
		b = append(b, e.Server...)
	}
	return b
}

// PacketType returns TypeRoomList.
func (*RoomList) PacketType() Type { return TypeRoomList }

// ParseRoomList decodes a RoomList. Besides the lengths it checks that
// names are in SanitizeName form and servers at most MaxServerLen bytes
// of printable ASCII without spaces (ErrName), flags are defined (ErrFlags),
// and that players ≤ seats ≤ 8, bots ≤ players and the state is known
// (ErrRange).
func ParseRoomList(b []byte) (RoomList, error) {
	h, err := ParseHeader(b)
	if err != nil {
		return RoomList{}, err
	}
	return ParseRoomListBody(h, b[HeaderLen:])
}

// ParseRoomListBody decodes the body b of a RoomList, what follows its header h:
// the rest of a clear datagram, or the opened body of a sealed one.
func ParseRoomListBody(h Header, b []byte) (RoomList, error) {
	if err := h.want(TypeRoomList); err != nil {
		return RoomList{}, err
	}
	r := reader{b: b}
	p := RoomList{Header: h}
	p.ClientTime = r.u32()
	p.Total = r.u16()
	p.Offset = r.u16()
	n := int(r.u8())
	if r.short {
		return RoomList{}, ErrShort
	}
	if n > 0 {
		p.Rooms = make([]RoomEntry, 0, min(n, (len(b)+HeaderLen-roomListFixedLen)/roomEntryFixedLen+1))
	}
	for i := 0; i < n; i++ {
		var e RoomEntry
		name, err := r.name()
		if err != nil {
			return RoomList{}, err
		}
		flags := r.u8()
		e.Players, e.Seats, e.Bots, e.Spectators, e.State = r.u8(), r.u8(), r.u8(), r.u8(), r.u8()
		e.Round = r.u16()
		e.RoundsToWin = r.u8()
		leader, err := r.name()
		if err != nil {
			return RoomList{}, err
		}
		e.LeaderScore = r.u16()
		server, err := r.server()
		if err != nil {
			return RoomList{}, fmt.Errorf("room %d: %w", i, err)
		}
		switch {
		case !isSanitized(name) || !isSanitized(leader):
			return RoomList{}, fmt.Errorf("%w: room %d: name %q leader %q not sanitised", ErrName, i, name, leader)
		case flags&^(roomPrivate|roomClosing|roomRanked) != 0:
			return RoomList{}, ErrFlags
		case e.Seats > game.MaxPlayers || e.Players > e.Seats || e.Bots > e.Players || e.State > MaxRoomState:
			return RoomList{}, fmt.Errorf("%w: room %d: %d of %d seats, %d bots, state %d", ErrRange, i, e.Players, e.Seats, e.Bots, e.State)
		}
		e.Name, e.Leader, e.Server = string(name), string(leader), string(server)
		e.Private, e.Closing, e.Ranked = flags&roomPrivate != 0, flags&roomClosing != 0, flags&roomRanked != 0
		p.Rooms = append(p.Rooms, e)
	}
	if err := r.end(); err != nil {
		return RoomList{}, err
	}
	return p, nil
}

// server reads a RoomEntry's length-prefixed server: at most MaxServerLen
// bytes, each printable ASCII other than a space (ErrName); ErrShort if
// the datagram ends first. It aliases b.
func (r *reader) server() ([]byte, error) {
	n := int(r.u8())
	if r.short {
		return nil, ErrShort
	}
	if n > MaxServerLen {
		return nil, fmt.Errorf("%w: server of %d bytes, max %d", ErrName, n, MaxServerLen)
	}
	v := r.bytes(n)
	if r.short {
		return nil, ErrShort
	}
	for _, c := range v {
		if c < 0x21 || c > 0x7e {
			return nil, fmt.Errorf("%w: server %q: byte %#02x is not printable ASCII", ErrName, v, c)
		}
	}
	return v, nil
}
