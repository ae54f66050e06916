package proto

import (
	"net/netip"

	"ttytanks/game"
)

// packet is what every packet type implements.
type packet interface {
	Packet
	Append([]byte) []byte
	Len() int
}

// testHeader returns the header the fixtures use, with type t.
func testHeader(t Type) Header {
	return Header{Type: t, Session: 0x0123456789abcdef, Match: 0xa1b2c3d4, Player: 1, Seq: 0x00000102}
}

func testCookie() Cookie {
	var c Cookie
	for i := range c {
		c[i] = byte(0xc0 + i)
	}
	return c
}

func testToken() Token {
	var t Token
	for i := range t {
		t[i] = byte(0x70 + i)
	}
	return t
}

// testBytes returns n bytes counting up from first, the fixtures' keys,
// proofs and signatures.
func testBytes(first byte, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = first + byte(i)
	}
	return b
}

func testProof() (p Proof) {
	copy(p[:], testBytes(0x80, ProofLen))
	return p
}

func testPathData() (d [PathDataLen]byte) {
	copy(d[:], testBytes(0x90, PathDataLen))
	return d
}

func testJoin() *Join {
	p := &Join{Header: testHeader(TypeJoin), Cookie: testCookie()}
	copy(p.Eph[:], testBytes(0xe0, EphLen))
	return p
}

func testAccept() *Accept {
	p := &Accept{Header: testHeader(TypeAccept), Conn: 0x00c0ffee}
	copy(p.Eph[:], testBytes(0xa0, EphLen))
	copy(p.ServerKey[:], testBytes(0x20, ServerKeyLen))
	copy(p.Sig[:], testBytes(0x40, SigLen))
	return p
}

func testRequest() *Request {
	p := &Request{Header: testHeader(TypeRequest), Token: testToken(), Proof: testProof(), Name: "alice",
		Kind: RoomNamed, Room: "den", Redirected: true, Identity: Identity{Kind: IdentityKey}}
	copy(p.Identity.ID[:], testBytes(0xa0, IDLen))
	copy(p.Identity.Sig[:], testBytes(0xc0, SigLen))
	return p
}

func testRedirect() *Redirect {
	p := &Redirect{Header: testHeader(TypeRedirect), Addr: netip.MustParseAddrPort("192.0.2.20:7777"),
		Kind: RoomCreate, Room: "den", Seats: 4, Bots: 1, Private: true}
	copy(p.Key[:], testBytes(0xb0, ServerKeyLen))
	return p
}

// testSnapshot returns a valid 2-tank snapshot with two bullets, written
// out field by field so that the golden bytes do not depend on the game's
// rules.
func testSnapshot() game.Snapshot {
	s := game.Snapshot{
		Tick:        1000,
		RNG:         0x0123456789abcdef,
		Slots:       2,
		RoundsToWin: 7,
		Round: game.Round{Number: 3, Phase: game.PhasePlaying, Timer: 5000, Winner: 1,
			MazeSeed: 0xfeedfacecafebeef, MazeW: 25, MazeH: 21},
		NumBullets: 2,
	}
	s.Tanks[0] = game.Tank{X: 1536, Y: 1536, VX: 45, VY: -45, AimX: 1, AimY: -1, HP: 3,
		Cooldown: 7, Alive: true, Seated: true, Score: 2,
		Stats: game.Stats{Kills: 4, Deaths: 1, Shots: 300, Hits: 13}}
	s.Tanks[1] = game.Tank{X: 23000, Y: 20000, VX: -96, AimX: -1, HP: 1, Hitstun: 18,
		Alive: true, Seated: true, Score: 5,
		Stats: game.Stats{Kills: 6, Deaths: 2, Shots: 1000, Hits: 258}}
	s.Bullets[0] = game.Bullet{X: 2048, Y: 1600, VX: 120, Life: 239}
	s.Bullets[1] = game.Bullet{X: 10000, Y: 15000, VX: -85, VY: 85, Owner: 1, Bounces: 5, Life: 12}
	return s
}

func testAckInfo() AckInfo {
	return AckInfo{ServerTick: 1000, NewestInput: 1003, MarginMs: -12, EchoTime: 0xbeef,
		EchoDelay: 150, Received: 977, Guessed: 0x102}
}

func testState() *State {
	s := testSnapshot()
	return &State{Header: testHeader(TypeState), AckInfo: testAckInfo(), Snapshot: s, Hash: game.Hash(&s)}
}

func testStart(t Type) *Start {
	p := &Start{Header: testHeader(t), Slot: 1, Slots: 2, Need: 0, StartTick: 600, ServerTick: 540,
		WorldSeed: 0x5eed5eed5eed5eed, MazeW: 25, MazeH: 21, StateEvery: 2, Rounds: 5, Token: testToken(), Room: "den", Code: "K7QPM2XD"}
	p.Roster[0] = Seat{Name: "alice", Score: 3, Connected: true}
	p.Roster[1] = Seat{Name: "bob", Score: 0, Connected: true}
	return p
}

// testStateDelta is testState as a delta against the State of tick 994:
// slot 0 moves right and fires once, slot 1 moves up.
func testStateDelta() *State {
	p := &State{Header: testHeader(TypeState), AckInfo: testAckInfo(), Hash: 0x2a25556dffcc3499, Back: 6}
	p.Snapshot.Tick, p.Snapshot.Slots = 1000, 2
	for k := 0; k < 6; k++ {
		t := game.Tick(994 + k)
		in := game.Input{Tick: t, MoveX: 1}
		if k == 4 {
			in.Buttons = game.ButtonFire
		}
		p.Steps[5-k][0] = in
		p.Steps[5-k][1] = game.Input{Tick: t, MoveY: -1}
	}
	return p
}

func testInput() *Input {
	p := &Input{Header: testHeader(TypeInput), ClientTime: 0x1234, N: 4, HasBase: true, Base: 990}
	p.Inputs[0] = game.Input{Tick: 1000, MoveX: 1}
	p.Inputs[1] = game.Input{Tick: 1001, MoveX: 1, MoveY: -1}
	p.Inputs[2] = game.Input{Tick: 1002, MoveY: -1, Buttons: game.ButtonFire}
	p.Inputs[3] = game.Input{Tick: 1003, MoveX: -1, MoveY: 1, Buttons: game.ButtonFire}
	return p
}

// codecCase is one packet type with its fixture, golden encoding and
// parser.
type codecCase struct {
	name   string // also the marker of its example in PROTOCOL.md
	pkt    packet
	golden string // hex
	parse  func([]byte) (packet, error)
}

func parseAs[T any, P interface {
	*T
	packet
}](f func([]byte) (T, error)) func([]byte) (packet, error) {
	return func(b []byte) (packet, error) {
		v, err := f(b)
		if err != nil {
			return nil, err
		}
		return P(&v), nil
	}
}

func parseState(b []byte) (packet, error) {
	var s State
	if err := ParseState(b, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// parsePath decodes a PathChallenge or a PathResponse, whichever the
// header says: the two share ParsePathBody.
func parsePath(b []byte) (packet, error) {
	h, err := ParseHeader(b)
	if err != nil {
		return nil, err
	}
	d, err := ParsePathBody(h, b[HeaderLen:])
	if err != nil {
		return nil, err
	}
	if h.Type == TypePathChallenge {
		return &PathChallenge{h, d}, nil
	}
	return &PathResponse{h, d}, nil
}

// sameLayout reports whether the fixtures named a and b share a parser:
// the two path packets do.
func sameLayout(a, b string) bool {
	path := func(n string) bool { return n == "PathChallenge" || n == "PathResponse" }
	state := func(n string) bool { return n == "State" || n == "StateDelta" }
	return a == b || path(a) && path(b) || state(a) && state(b)
}

// codecCases returns the fixture of every packet type, in Type order.
func codecCases() []codecCase {
	return []codecCase{
		{"Hello", &Hello{testHeader(TypeHello)}, goldenHello, parseAs(ParseHello)},
		{"Challenge", &Challenge{testHeader(TypeChallenge), testCookie()}, goldenChallenge, parseAs(ParseChallenge)},
		{"Join", testJoin(), goldenJoin, parseAs(ParseJoin)},
		{"Start", testStart(TypeStart), goldenStart, parseAs(ParseStart)},
		{"Input", testInput(), goldenInput, parseAs(ParseInput)},
		{"Ack", &Ack{Header: testHeader(TypeAck), AckInfo: testAckInfo(), Hash: 0x1122334455667788}, goldenAck, parseAs(ParseAck)},
		{"State", testState(), goldenState, parseState},
		{"StateDelta", testStateDelta(), goldenStateDelta, parseState},
		{"Leave", &Leave{testHeader(TypeLeave), LeaveQuit}, goldenLeave, parseAs(ParseLeave)},
		{"Reject", &Reject{testHeader(TypeReject), RejectFull}, goldenReject, parseAs(ParseReject)},
		{"ListRooms", &ListRooms{Header: testHeader(TypeListRooms), Cookie: testCookie(), Offset: 300, ClientTime: 0x12345}, goldenListRooms, parseAs(ParseListRooms)},
		{"RoomList", testRoomList(), goldenRoomList, parseAs(ParseRoomList)},
		{"Accept", testAccept(), goldenAccept, parseAs(ParseAccept)},
		{"Request", testRequest(), goldenRequest, parseAs(ParseRequest)},
		{"PathChallenge", &PathChallenge{testHeader(TypePathChallenge), testPathData()}, goldenPathChallenge, parsePath},
		{"PathResponse", &PathResponse{testHeader(TypePathResponse), testPathData()}, goldenPathResponse, parsePath},
		{"Chat", &Chat{Header: testHeader(TypeChat), ID: 7, Text: "gg ✓"}, goldenChat, parseAs(ParseChat)},
		{"ChatLine", &ChatLine{Header: testHeader(TypeChatLine), Seq: 12, From: 1, Flags: ChatYours, ID: 7, Name: "bob", Text: "gg ✓"},
			goldenChatLine, parseAs(ParseChatLine)},
		{"ChatAck", &ChatAck{Header: testHeader(TypeChatAck), Seq: 12}, goldenChatAck, parseAs(ParseChatAck)},
		{"Redirect", testRedirect(), goldenRedirect, parseAs(ParseRedirect)},
		{"LadderQuery", &LadderQuery{Header: testHeader(TypeLadderQuery), Offset: 20, Count: 20}, goldenLadderQuery, parseAs(ParseLadderQuery)},
		{"LadderPage", testLadderPage(), goldenLadderPage, parseAs(ParseLadderPage)},
		{"Rated", testRated(), goldenRated, parseAs(ParseRated)},
	}
}

func testLadderPage() *LadderPage {
	return &LadderPage{Header: testHeader(TypeLadderPage), Ranked: 1234, HasCard: true,
		Card: LadderCard{LadderLine: LadderLine{Rank: 7, Rating: 1612, RD: 74, Matches: 31, Wins: 12, Name: "alice"},
			RoundWins: 70, Kills: 95, Deaths: 61, Shots: 880, Hits: 301, Seconds: 5400},
		Offset: 0, Lines: []LadderLine{
			{Rank: 1, Rating: 2011, RD: 45, Matches: 120, Wins: 80, Name: "zoë"},
			{Rank: 2, Rating: 1890, RD: 60, Matches: 64, Wins: 30, Name: "bob"},
		}}
}

func testRated() *Rated {
	return &Rated{Header: testHeader(TypeRated), Changes: []RatingChange{
		{Slot: 0, Before: 1500, After: 1662, RD: 290},
		{Slot: 2, Before: 1500, After: 1338, RD: 290},
	}}
}

func testRoomList() *RoomList {
	return &RoomList{Header: testHeader(TypeRoomList), ClientTime: 0x12345, Total: 302, Offset: 300, Rooms: []RoomEntry{
		{Name: "a", Players: 4, Seats: 4, Bots: 1, Spectators: 1, State: 2, Round: 3, RoundsToWin: 5, Leader: "alice", LeaderScore: 2},
		{Name: "den", Private: true, Players: 1, Seats: 2, RoundsToWin: 5, Server: "[2001:db8::7]:7777"},
	}}
}
