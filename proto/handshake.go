package proto

import (
	"encoding/binary"
	"fmt"

	"ttytanks/game"
)

// Cookie is the stateless token a server hands out in a Challenge and
// expects back in the Join; see CookieJar.
type Cookie [CookieLen]byte

// Token is a reconnect token: the server issues one in Start, and a client
// that presents it in a later Join gets its seat back. The zero Token means
// none.
type Token [TokenLen]byte

// Hello (client → server) opens the handshake. It carries only the header
// and is padded with zeros to HelloLen bytes, so the server's answer is
// never larger than the request (no amplification).
type Hello struct{ Header }

// Len returns HelloLen.
func (p *Hello) Len() int { return HelloLen }

// Append appends the Hello, padded to HelloLen bytes, to b.
func (p *Hello) Append(b []byte) []byte { return p.AppendBody(p.appendAs(b, TypeHello)) }

// AppendBody appends the Hello's body, what follows its header, to b.
func (p *Hello) AppendBody(b []byte) []byte {
	var pad [HelloLen - HeaderLen]byte
	return append(b, pad[:]...)
}

// PacketType returns TypeHello.
func (*Hello) PacketType() Type { return TypeHello }

// ParseHello decodes a Hello. It must be exactly HelloLen bytes with zero
// padding (ErrShort, ErrTrailing, ErrPadding).
func ParseHello(b []byte) (Hello, error) {
	h, err := ParseHeader(b)
	if err != nil {
		return Hello{}, err
	}
	return ParseHelloBody(h, b[HeaderLen:])
}

// ParseHelloBody decodes the body b of a Hello, what follows its header h:
// the rest of a clear datagram, or the opened body of a sealed one.
func ParseHelloBody(h Header, b []byte) (Hello, error) {
	if err := h.want(TypeHello); err != nil {
		return Hello{}, err
	}
	if len(b) < HelloLen-HeaderLen {
		return Hello{}, ErrShort
	}
	if len(b) > HelloLen-HeaderLen {
		return Hello{}, ErrTrailing
	}
	for _, c := range b {
		if c != 0 {
			return Hello{}, ErrPadding
		}
	}
	return Hello{Header: h}, nil
}

// Challenge (server → client) answers a Hello with a cookie the client must
// echo in its Join. The server keeps no state for it.
type Challenge struct {
	Header
	Cookie Cookie
}

// Len returns the encoded size of a Challenge (45 bytes).
func (p *Challenge) Len() int { return HeaderLen + CookieLen }

// Append appends the Challenge to b.
func (p *Challenge) Append(b []byte) []byte { return p.AppendBody(p.appendAs(b, TypeChallenge)) }

// AppendBody appends the Challenge's body, what follows its header, to b.
func (p *Challenge) AppendBody(b []byte) []byte {
	return append(b, p.Cookie[:]...)
}

// PacketType returns TypeChallenge.
func (*Challenge) PacketType() Type { return TypeChallenge }

// ParseChallenge decodes a Challenge.
func ParseChallenge(b []byte) (Challenge, error) {
	h, err := ParseHeader(b)
	if err != nil {
		return Challenge{}, err
	}
	return ParseChallengeBody(h, b[HeaderLen:])
}

// ParseChallengeBody decodes the body b of a Challenge, what follows its header h:
// the rest of a clear datagram, or the opened body of a sealed one.
func ParseChallengeBody(h Header, b []byte) (Challenge, error) {
	if err := h.want(TypeChallenge); err != nil {
		return Challenge{}, err
	}
	r := reader{b: b}
	p := Challenge{Header: h}
	copy(p.Cookie[:], r.bytes(CookieLen))
	if err := r.end(); err != nil {
		return Challenge{}, err
	}
	return p, nil
}

// EphLen is the size of an X25519 public key.
const EphLen = 32

// ServerKeyLen and SigLen are the sizes of an Ed25519 public key and
// signature.
const (
	ServerKeyLen = 32
	SigLen       = 64
)

// AcceptLen is the size of an Accept: 153 bytes.
const AcceptLen = HeaderLen + 4 + EphLen + ServerKeyLen + SigLen

// JoinLen is the size of a Join, padded so that the Accept it triggers is
// never larger: 153 bytes.
const JoinLen = AcceptLen

// Join (client → server) echoes the Challenge's cookie and opens the key
// exchange with the client's ephemeral X25519 public key. It is padded
// with zeros to JoinLen bytes. What the client asks for travels later, in
// the sealed Request.
type Join struct {
	Header
	// Cookie is the cookie from the Challenge.
	Cookie Cookie
	// Eph is the client's ephemeral X25519 public key for this handshake.
	Eph [EphLen]byte
}

// Len returns JoinLen.
func (p *Join) Len() int { return JoinLen }

// Append appends the Join, padded to JoinLen bytes, to b.
func (p *Join) Append(b []byte) []byte { return p.AppendBody(p.appendAs(b, TypeJoin)) }

// AppendBody appends the Join's body, what follows its header, to b.
func (p *Join) AppendBody(b []byte) []byte {
	b = append(b, p.Cookie[:]...)
	b = append(b, p.Eph[:]...)
	var pad [JoinLen - HeaderLen - CookieLen - EphLen]byte
	return append(b, pad[:]...)
}

// PacketType returns TypeJoin.
func (*Join) PacketType() Type { return TypeJoin }

// ParseJoin decodes a Join: exactly JoinLen bytes with zero padding.
func ParseJoin(b []byte) (Join, error) {
	h, err := ParseHeader(b)
	if err != nil {
		return Join{}, err
	}
	return ParseJoinBody(h, b[HeaderLen:])
}

// ParseJoinBody decodes the body b of a Join, what follows its header h:
// the rest of a clear datagram, or the opened body of a sealed one.
func ParseJoinBody(h Header, b []byte) (Join, error) {
	if err := h.want(TypeJoin); err != nil {
		return Join{}, err
	}
	if len(b) < JoinLen-HeaderLen {
		return Join{}, ErrShort
	}
	if len(b) > JoinLen-HeaderLen {
		return Join{}, ErrTrailing
	}
	p := Join{Header: h}
	r := reader{b: b}
	copy(p.Cookie[:], r.bytes(CookieLen))
	copy(p.Eph[:], r.bytes(EphLen))
	for _, c := range b[r.off:] {
		if c != 0 {
			return Join{}, ErrPadding
		}
	}
	return p, nil
}

// Accept (server → client) answers a Join whose cookie is valid: the
// server's half of the key exchange. The client checks Sig with
// VerifyTranscript over Transcript(session, cookie, its own ephemeral key,
// Eph, ServerKey, Conn), decides whether it trusts ServerKey, and derives
// the session keys with DeriveKeys. From then on both sides seal.
type Accept struct {
	Header
	// Conn is the connection id the server assigned: it opens every
	// sealed datagram of the session, both ways. Never zero.
	Conn uint32
	// Eph is the server's ephemeral X25519 public key.
	Eph [EphLen]byte
	// ServerKey is the server's long-term Ed25519 public key.
	ServerKey [ServerKeyLen]byte
	// Sig is the server's signature over the handshake's transcript.
	Sig [SigLen]byte
}

// Len returns AcceptLen.
func (p *Accept) Len() int { return AcceptLen }

// Append appends the Accept to b.
func (p *Accept) Append(b []byte) []byte { return p.AppendBody(p.appendAs(b, TypeAccept)) }

// AppendBody appends the Accept's body, what follows its header, to b.
func (p *Accept) AppendBody(b []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, p.Conn)
	b = append(b, p.Eph[:]...)
	b = append(b, p.ServerKey[:]...)
	return append(b, p.Sig[:]...)
}

// PacketType returns TypeAccept.
func (*Accept) PacketType() Type { return TypeAccept }

// ParseAccept decodes an Accept; a zero connection id is ErrRange.
func ParseAccept(b []byte) (Accept, error) {
	h, err := ParseHeader(b)
	if err != nil {
		return Accept{}, err
	}
	return ParseAcceptBody(h, b[HeaderLen:])
}

// ParseAcceptBody decodes the body b of an Accept, what follows its header h:
// the rest of a clear datagram, or the opened body of a sealed one.
func ParseAcceptBody(h Header, b []byte) (Accept, error) {
	if err := h.want(TypeAccept); err != nil {
		return Accept{}, err
	}
	r := reader{b: b}
	p := Accept{Header: h, Conn: r.u32()}
	copy(p.Eph[:], r.bytes(EphLen))
	copy(p.ServerKey[:], r.bytes(ServerKeyLen))
	copy(p.Sig[:], r.bytes(SigLen))
	if err := r.end(); err != nil {
		return Accept{}, err
	}
	if p.Conn == 0 {
		return Accept{}, fmt.Errorf("%w: connection id 0", ErrRange)
	}
	return p, nil
}

// ProofLen is the size of a Request's reconnect proof.
const ProofLen = 16

// Proof is a reconnect proof: ResumeProof of the key the token was issued
// under, over the new handshake's transcript.
type Proof [ProofLen]byte

// Request flag bits.
const (
	requestSpectate   = 1 << 0 // ask for a spectator place
	requestPrivate    = 1 << 1 // RoomCreate: the new room is private
	requestRedirected = 1 << 2 // sent here by a Redirect: never redirect it again
	requestCasual     = 1 << 3 // RoomCreate: the new room is casual, unrated (version 8)
	requestDefault    = 1 << 4 // the name is the client's default: a key that holds one keeps it (version 8)
)

// RoomKind says how a Request picks its room. Its values are part of the
// wire format.
type RoomKind uint8

// Room kinds.
const (
	// RoomQuick: the fullest public room with a free seat, or a new one; a
	// spectator watches the public room with the most players.
	RoomQuick RoomKind = iota
	// RoomNamed: the room of that name, created if there is none.
	RoomNamed
	// RoomCode: the private room with that join code.
	RoomCode
	// RoomCreate: a new room with that name, seats, bots and privacy.
	RoomCreate
	// RoomLobby: a place among the lobby's viewers, for its chat (a
	// spectator's place, in no room; PROTOCOL.md §4.10). Version 6.
	RoomLobby
)

// Request (client → server, sealed) is the first packet of a session
// after its handshake: it asks for a seat (or a spectator's place) in a
// room, with the player's name, and, to take back a place the player
// held, the reconnect token with its proof. The server answers it with a
// Start or a (sealed) Reject, and answers a repeat the same way.
type Request struct {
	Header
	// Token is the reconnect token from an earlier Start; zero means none.
	Token Token
	// Proof shows that the sender holds the session the token was issued
	// to: ResumeProof(that session's resume key, this handshake's
	// transcript). Zero with a zero Token.
	Proof Proof
	// Spectate asks for a spectator seat instead of a player's.
	Spectate bool
	// Name is the player's name: at most MaxNameLen bytes of valid UTF-8 on
	// the wire. Clients send SanitizeName's result; servers sanitise again.
	Name string
	// Kind says how the server picks the room; Room is its name
	// (RoomNamed, RoomCreate) or join code (RoomCode), at most MaxNameLen
	// bytes of valid UTF-8, empty for RoomQuick.
	Kind RoomKind
	Room string
	// Seats, Bots and Private describe the room to create (RoomCreate);
	// zero otherwise. Seats is 2..game.MaxPlayers, or 0 for the server's
	// default; Bots is below Seats (0 with Seats 0).
	Seats, Bots uint8
	Private     bool
	// Redirected says the client was sent here by a Redirect from another
	// server of the fleet: the server places it itself, and never
	// redirects it again. Not with RoomLobby.
	Redirected bool
	// Casual asks for the room to create (RoomCreate) to be casual: its
	// matches are not rated. A room with bots is casual anyway.
	Casual bool
	// DefaultName says Name is the client's default (the login name),
	// not one the player chose: a player whose key holds a name on the
	// server's ladder keeps it, and is not renamed (§4.15).
	DefaultName bool
	// Identity is who the sender says it is, proved over the transcript
	// of the handshake the Request is sealed in; a guest's is
	// IdentityNone. Version 8.
	Identity Identity
}

// Len returns the encoded size of the Request's clear form: 60 bytes plus
// the name, the room and the identity's key and signature (0, 96 or 128
// bytes).
func (p *Request) Len() int {
	return HeaderLen + TokenLen + ProofLen + 2 + len(p.Name) + 4 + len(p.Room) + identityLen(p.Identity.Kind)
}

// Append appends the Request to b. A Name or Room longer than MaxNameLen
// bytes is written as it is and the receiver rejects it.
func (p *Request) Append(b []byte) []byte { return p.AppendBody(p.appendAs(b, TypeRequest)) }

// AppendBody appends the Request's body, what follows its header, to b.
func (p *Request) AppendBody(b []byte) []byte {
	b = append(b, p.Token[:]...)
	b = append(b, p.Proof[:]...)
	var flags byte
	if p.Spectate {
		flags |= requestSpectate
	}
	if p.Private {
		flags |= requestPrivate
	}
	if p.Redirected {
		flags |= requestRedirected
	}
	if p.Casual {
		flags |= requestCasual
	}
	if p.DefaultName {
		flags |= requestDefault
	}
	b = append(b, flags, byte(len(p.Name)))
	b = append(b, p.Name...)
	b = append(b, byte(p.Kind), byte(len(p.Room)))
	b = append(b, p.Room...)
	b = append(b, p.Seats, p.Bots)
	return appendIdentity(b, &p.Identity)
}

// PacketType returns TypeRequest.
func (*Request) PacketType() Type { return TypeRequest }

// ParseRequest decodes a Request. It rejects undefined flag bits
// (ErrFlags), a name or room longer than MaxNameLen bytes or not valid
// UTF-8 (ErrName), an unknown room kind, a room on a quick Request, room
// settings on anything but RoomCreate, and a lobby Request that is not a
// spectator's or is Redirected (ErrRange); it does not sanitise the
// names.
func ParseRequest(b []byte) (Request, error) {
	h, err := ParseHeader(b)
	if err != nil {
		return Request{}, err
	}
	return ParseRequestBody(h, b[HeaderLen:])
}

// ParseRequestBody decodes the body b of a Request, what follows its header h:
// the rest of a clear datagram, or the opened body of a sealed one.
func ParseRequestBody(h Header, b []byte) (Request, error) {
	if err := h.want(TypeRequest); err != nil {
		return Request{}, err
	}
	r := reader{b: b}
	p := Request{Header: h}
	copy(p.Token[:], r.bytes(TokenLen))
	copy(p.Proof[:], r.bytes(ProofLen))
	flags := r.u8()
	name, err := r.name()
	if err != nil {
		return Request{}, err
	}
	p.Kind = RoomKind(r.u8())
	room, err := r.name()
	if err != nil {
		return Request{}, err
	}
	p.Seats, p.Bots = r.u8(), r.u8()
	if p.Identity, err = r.identity(); err != nil {
		return Request{}, err
	}
	if err := r.end(); err != nil {
		return Request{}, err
	}
	if flags&^(requestSpectate|requestPrivate|requestRedirected|requestCasual|requestDefault) != 0 {
		return Request{}, ErrFlags
	}
	p.Spectate, p.Private, p.Redirected = flags&requestSpectate != 0, flags&requestPrivate != 0, flags&requestRedirected != 0
	p.Casual, p.DefaultName = flags&requestCasual != 0, flags&requestDefault != 0
	if err := checkRoomChoice(p.Kind, room, p.Seats, p.Bots, p.Private); err != nil {
		return Request{}, err
	}
	if p.Casual && p.Kind != RoomCreate {
		return Request{}, fmt.Errorf("%w: only a room to create is casual", ErrRange)
	}
	switch {
	case p.Kind == RoomLobby && !p.Spectate:
		return Request{}, fmt.Errorf("%w: the lobby has no seats", ErrRange)
	case p.Kind == RoomLobby && p.Redirected:
		return Request{}, fmt.Errorf("%w: no Redirect sends to the lobby", ErrRange)
	}
	p.Name, p.Room = string(name), string(room)
	return p, nil
}

// checkRoomChoice checks a room kind, its room (a name or a join code)
// and the settings of a room to create, as a Request and a Redirect carry
// them: a known kind, no room with RoomQuick or RoomLobby, and seats,
// bots and privacy only with RoomCreate, there seats 0 or 2..MaxPlayers
// and bots below seats (none with seats 0). It returns ErrRange, wrapped.
func checkRoomChoice(kind RoomKind, room []byte, seats, bots uint8, private bool) error {
	switch {
	case kind > RoomLobby:
		return fmt.Errorf("%w: room kind %d", ErrRange, kind)
	case (kind == RoomQuick || kind == RoomLobby) && len(room) != 0:
		return fmt.Errorf("%w: a quick join or the lobby names no room", ErrRange)
	case kind != RoomCreate && (seats != 0 || bots != 0 || private):
		return fmt.Errorf("%w: room settings outside RoomCreate", ErrRange)
	case kind == RoomCreate && (seats == 1 || seats > game.MaxPlayers || (seats != 0 && bots >= seats) || (seats == 0 && bots != 0)):
		return fmt.Errorf("%w: a room of %d seats with %d bots", ErrRange, seats, bots)
	}
	return nil
}

// PathDataLen is the size of a path challenge's data.
const PathDataLen = 8

// PathLen is the size of a PathChallenge or PathResponse (29 bytes).
const PathLen = HeaderLen + PathDataLen

// PathChallenge (server → client, sealed) is sent to a new address a
// session's datagrams came from: the client echoes Data in a
// PathResponse, which shows that it receives there. Until then the server
// sends no more to the new address than it received from it.
type PathChallenge struct {
	Header
	Data [PathDataLen]byte
}

// Len returns PathLen.
func (p *PathChallenge) Len() int { return PathLen }

// Append appends the PathChallenge to b.
func (p *PathChallenge) Append(b []byte) []byte {
	return p.AppendBody(p.appendAs(b, TypePathChallenge))
}

// AppendBody appends the PathChallenge's body, what follows its header, to b.
func (p *PathChallenge) AppendBody(b []byte) []byte { return append(b, p.Data[:]...) }

// PacketType returns TypePathChallenge.
func (*PathChallenge) PacketType() Type { return TypePathChallenge }

// PathResponse (client → server, sealed) echoes a PathChallenge's Data.
type PathResponse struct {
	Header
	Data [PathDataLen]byte
}

// Len returns PathLen.
func (p *PathResponse) Len() int { return PathLen }

// Append appends the PathResponse to b.
func (p *PathResponse) Append(b []byte) []byte { return p.AppendBody(p.appendAs(b, TypePathResponse)) }

// AppendBody appends the PathResponse's body, what follows its header, to b.
func (p *PathResponse) AppendBody(b []byte) []byte { return append(b, p.Data[:]...) }

// PacketType returns TypePathResponse.
func (*PathResponse) PacketType() Type { return TypePathResponse }

// ParsePathBody decodes the data of a PathChallenge or PathResponse from
// its body b, what follows its header h.
func ParsePathBody(h Header, b []byte) ([PathDataLen]byte, error) {
	var d [PathDataLen]byte
	if h.Type != TypePathChallenge && h.Type != TypePathResponse {
		return d, fmt.Errorf("%w: got %v, want a path packet", ErrWrongType, h.Type)
	}
	r := reader{b: b}
	copy(d[:], r.bytes(PathDataLen))
	return d, r.end()
}

// Seat is one seat of a match as Start shows it.
type Seat struct {
	// Name is the seated player's name in SanitizeName form; "" for an
	// empty seat.
	Name string
	// Score counts the rounds this seat has won.
	Score uint16
	// Connected is true while the seat's player is connected.
	Connected bool
}

// seatConnected is the Seat flag bit for Connected.
const seatConnected = 1 << 0

// Start (server → client) tells a client its seat and the match, enough to
// build the same world as the server: game.NewWorld(game.Config{Slots:
// Slots, Seed: WorldSeed, MazeW: MazeW, MazeH: MazeH, StartTick:
// StartTick}). The server resends Start while Need > 0 and until the
// client's first Input, and whenever the roster changes, so a client must
// treat a repeated Start as idempotent.
type Start struct {
	Header
	// Slot is the addressee's seat, or SpectatorSlot.
	Slot uint8
	// Slots is the number of seats in the match, 1..game.MaxPlayers; the
	// first Slots entries of Roster are used.
	Slots uint8
	// Need is the number of players the server still waits for, 0..Slots;
	// 0 means the match is running.
	Need uint8
	// StartTick is the tick of the world's first Step.
	StartTick game.Tick
	// ServerTick is the server's clock, in ticks, when it sent this Start:
	// StartTick − ServerTick ticks remain before the server steps
	// StartTick (negative once the match runs). A client sets its own
	// clock from it, so its first inputs reach the server in time.
	ServerTick game.Tick
	// WorldSeed seeds the world (game.Config.Seed).
	WorldSeed uint64
	// MazeW and MazeH are the maze size in tiles (game.CheckMazeSize holds,
	// and the maze has a cell for each seat).
	MazeW, MazeH uint8
	// StateEvery is the interval between State packets, in ticks (>= 1).
	StateEvery uint8
	// Rounds is the match's win condition: the first to win that many
	// rounds wins (game.Config.Rounds; 0: rounds go on).
	Rounds uint8
	// Token is the addressee's reconnect token (zero for spectators).
	Token Token
	// Room is the room's name, in SanitizeName form; Code is a private
	// room's join code (empty for a public room), so its players can pass
	// it on.
	Room, Code string
	// Roster describes the seats; entries at and above Slots are zero.
	Roster [game.MaxPlayers]Seat
}

// Len returns the encoded size: 62 bytes, plus the room's name and code,
// plus 4 per seat, plus the seats' names.
func (p *Start) Len() int {
	n := startFixedLen + len(p.Room) + len(p.Code)
	for i := 0; i < int(p.Slots) && i < len(p.Roster); i++ {
		n += seatFixedLen + len(p.Roster[i].Name)
	}
	return n
}

const (
	startFixedLen = HeaderLen + 3 + 4 + 4 + 8 + 4 + TokenLen + 2
	seatFixedLen  = 4 // name length u8, score u16, flags u8
)

// Append appends the Start to b. It writes the first Slots
// roster entries; it panics if Slots > game.MaxPlayers. Names are written as
// they are: ones that are not in SanitizeName form are rejected by the
// receiver.
func (p *Start) Append(b []byte) []byte { return p.AppendBody(p.appendAs(b, TypeStart)) }

// AppendBody appends the Start's body, what follows its header, to b.
func (p *Start) AppendBody(b []byte) []byte {
	b = append(b, p.Slot, p.Slots, p.Need)
	b = binary.BigEndian.AppendUint32(b, uint32(p.StartTick))
	b = binary.BigEndian.AppendUint32(b, uint32(p.ServerTick))
	b = binary.BigEndian.AppendUint64(b, p.WorldSeed)
	b = append(b, p.MazeW, p.MazeH, p.StateEvery, p.Rounds)
	b = append(b, p.Token[:]...)
	b = append(b, byte(len(p.Room)))
	b = append(b, p.Room...)
	b = append(b, byte(len(p.Code)))
	b = append(b, p.Code...)
	for i := 0; i < int(p.Slots); i++ {
		s := &p.Roster[i]
		b = append(b, byte(len(s.Name)))
		b = append(b, s.Name...)
		b = binary.BigEndian.AppendUint16(b, s.Score)
		var flags byte
		if s.Connected {
			flags |= seatConnected
		}
		b = append(b, flags)
	}
	return b
}

// PacketType returns TypeStart.
func (*Start) PacketType() Type { return TypeStart }

// ParseStart decodes a Start. Besides the lengths it checks
// that Slots is 1..game.MaxPlayers, Slot is below Slots or SpectatorSlot, Need
// is at most Slots, the maze size is one the game accepts with a cell per
// seat, and StateEvery >= 1 (ErrRange); that names are in SanitizeName form
// (ErrName); and that seat flags are defined (ErrFlags).
func ParseStart(b []byte) (Start, error) {
	h, err := ParseHeader(b)
	if err != nil {
		return Start{}, err
	}
	return ParseStartBody(h, b[HeaderLen:])
}

// ParseStartBody decodes the body b of a Start, what follows its header h:
// the rest of a clear datagram, or the opened body of a sealed one.
func ParseStartBody(h Header, b []byte) (Start, error) {
	if err := h.want(TypeStart); err != nil {
		return Start{}, err
	}
	r := reader{b: b}
	p := Start{Header: h}
	p.Slot, p.Slots, p.Need = r.u8(), r.u8(), r.u8()
	p.StartTick = game.Tick(r.u32())
	p.ServerTick = game.Tick(r.u32())
	p.WorldSeed = r.u64()
	p.MazeW, p.MazeH, p.StateEvery, p.Rounds = r.u8(), r.u8(), r.u8(), r.u8()
	copy(p.Token[:], r.bytes(TokenLen))
	room, err := r.name()
	if err != nil {
		return Start{}, err
	}
	code, err := r.name()
	if err != nil {
		return Start{}, err
	}
	if err := p.checkRange(); err != nil {
		return Start{}, err
	}
	if !isSanitized(room) || !isSanitized(code) {
		return Start{}, fmt.Errorf("%w: room %q code %q not sanitised", ErrName, room, code)
	}
	p.Room, p.Code = string(room), string(code)
	for i := 0; i < int(p.Slots); i++ {
		s := &p.Roster[i]
		n := int(r.u8())
		if n > MaxNameLen {
			return Start{}, fmt.Errorf("%w: seat %d name of %d bytes, max %d", ErrName, i, n, MaxNameLen)
		}
		name := r.bytes(n)
		s.Score = r.u16()
		flags := r.u8()
		if r.short {
			return Start{}, ErrShort
		}
		if !isSanitized(name) {
			return Start{}, fmt.Errorf("%w: seat %d name %q is not sanitised", ErrName, i, name)
		}
		if flags&^seatConnected != 0 {
			return Start{}, ErrFlags
		}
		s.Name = string(name)
		s.Connected = flags&seatConnected != 0
	}
	if err := r.end(); err != nil {
		return Start{}, err
	}
	return p, nil
}

func (p *Start) checkRange() error {
	switch {
	case p.Slots < 1 || p.Slots > game.MaxPlayers:
		return fmt.Errorf("%w: %d slots, want 1..%d", ErrRange, p.Slots, game.MaxPlayers)
	case p.Slot >= p.Slots && p.Slot != SpectatorSlot:
		return fmt.Errorf("%w: slot %d of %d", ErrRange, p.Slot, p.Slots)
	case p.Need > p.Slots:
		return fmt.Errorf("%w: need %d of %d slots", ErrRange, p.Need, p.Slots)
	case !mazeFits(p.MazeW, p.MazeH, p.Slots):
		return fmt.Errorf("%w: maze %dx%d for %d slots", ErrRange, p.MazeW, p.MazeH, p.Slots)
	case p.StateEvery < 1:
		return fmt.Errorf("%w: state interval 0", ErrRange)
	}
	return nil
}

// Leave (either direction) ends the session; the receiver stops sending.
type Leave struct {
	Header
	Reason LeaveReason
}

// Len returns the encoded size of a Leave (22 bytes).
func (p *Leave) Len() int { return HeaderLen + 1 }

// Append appends the Leave to b.
func (p *Leave) Append(b []byte) []byte { return p.AppendBody(p.appendAs(b, TypeLeave)) }

// AppendBody appends the Leave's body, what follows its header, to b.
func (p *Leave) AppendBody(b []byte) []byte { return append(b, byte(p.Reason)) }

// PacketType returns TypeLeave.
func (*Leave) PacketType() Type { return TypeLeave }

// ParseLeave decodes a Leave; an unknown reason is ErrReason.
func ParseLeave(b []byte) (Leave, error) {
	h, err := ParseHeader(b)
	if err != nil {
		return Leave{}, err
	}
	return ParseLeaveBody(h, b[HeaderLen:])
}

// ParseLeaveBody decodes the body b of a Leave, what follows its header h:
// the rest of a clear datagram, or the opened body of a sealed one.
func ParseLeaveBody(h Header, b []byte) (Leave, error) {
	if err := h.want(TypeLeave); err != nil {
		return Leave{}, err
	}
	r := reader{b: b}
	p := Leave{Header: h, Reason: LeaveReason(r.u8())}
	if err := r.end(); err != nil {
		return Leave{}, err
	}
	if !p.Reason.known() {
		return Leave{}, ErrReason
	}
	return p, nil
}

// Reject (server → client) refuses a Hello or Join. A server answers a
// datagram of another version with a Reject of its own version (when that
// datagram is at least as long), so the client's ParseHeader reports a
// *VersionError naming both versions.
type Reject struct {
	Header
	Reason RejectReason
}

// Len returns the encoded size of a Reject (22 bytes).
func (p *Reject) Len() int { return HeaderLen + 1 }

// Append appends the Reject to b.
func (p *Reject) Append(b []byte) []byte { return p.AppendBody(p.appendAs(b, TypeReject)) }

// AppendBody appends the Reject's body, what follows its header, to b.
func (p *Reject) AppendBody(b []byte) []byte { return append(b, byte(p.Reason)) }

// PacketType returns TypeReject.
func (*Reject) PacketType() Type { return TypeReject }

// ParseReject decodes a Reject; an unknown reason is ErrReason.
func ParseReject(b []byte) (Reject, error) {
	h, err := ParseHeader(b)
	if err != nil {
		return Reject{}, err
	}
	return ParseRejectBody(h, b[HeaderLen:])
}

// ParseRejectBody decodes the body b of a Reject, what follows its header h:
// the rest of a clear datagram, or the opened body of a sealed one.
func ParseRejectBody(h Header, b []byte) (Reject, error) {
	if err := h.want(TypeReject); err != nil {
		return Reject{}, err
	}
	r := reader{b: b}
	p := Reject{Header: h, Reason: RejectReason(r.u8())}
	if err := r.end(); err != nil {
		return Reject{}, err
	}
	if !p.Reason.known() {
		return Reject{}, ErrReason
	}
	return p, nil
}

// mazeFits reports whether game.NewWorld accepts a w×h maze for slots
// seats: a valid size with a spawn cell per seat.
func mazeFits(w, h, slots uint8) bool {
	return game.CheckMazeSize(int(w), int(h)) == nil && int(w/2)*int(h/2) >= int(slots)
}
