package proto

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"ttytanks/game"
)

// set returns a mutation that writes v at offset off.
func set(off int, v ...byte) func([]byte) []byte {
	return func(b []byte) []byte {
		copy(b[off:], v)
		return b
	}
}

// Offsets into the golden encodings, from the tables in PROTOCOL.md.
const (
	offJoinPadding = HeaderLen + CookieLen + EphLen

	offAcceptConn = HeaderLen

	offRequestFlags    = HeaderLen + TokenLen + ProofLen
	offRequestNameLen  = offRequestFlags + 1
	offRequestName     = offRequestNameLen + 1
	offRequestKind     = offRequestName + 5 // after "alice"
	offRequestRoomLen  = offRequestKind + 1
	offRequestRoom     = offRequestRoomLen + 1
	offRequestSeats    = offRequestRoom + 3 // after "den"
	offRequestIdentity = offRequestSeats + 2

	offStartSlot       = 21
	offStartSlots      = 22
	offStartNeed       = 23
	offStartMazeW      = 40
	offStartMazeH      = 41
	offStartStateEvery = 42
	offStartRounds     = 43
	offStartRoomLen    = 60                      // "den" follows
	offStartCodeLen    = offStartRoomLen + 1 + 3 // "K7QPM2XD" follows
	offStartSeat0      = offStartCodeLen + 1 + 8 // name length; "alice" follows, then score u16, flags
	offStartSeat0Flags = offStartSeat0 + 1 + 5 + 2

	offRoomList0       = HeaderLen + 9     // the first entry: name length, "a", flags, players, seats, bots, spectators, state
	offRoomList0Server = offRoomList0 + 19 // its server's length: after "a", 9 bytes, "alice" and its score
	offRoomList1       = offRoomList0 + 20 // the second entry, "den"
	offRoomList1Server = offRoomList1 + 16 // its server's length; "[2001:db8::7]:7777" follows, to the end
	offListRoomsOffset = HeaderLen + CookieLen

	offRedirectFamily = HeaderLen
	offRedirectPort   = offRedirectFamily + 1 + 4 // after 192.0.2.20
	offRedirectKind   = offRedirectPort + 2 + ServerKeyLen
	offRedirectRoom   = offRedirectKind + 1 // its length; "den" follows
	offRedirectFlags  = offRedirectRoom + 1 + 3
	offRedirectSeats  = offRedirectFlags + 1

	offInputN     = 23
	offInputBase  = 28
	offInputMoves = 32

	offStateBack    = 47
	offStateSlots   = 56
	offStateBullets = 57
	offStatePhase   = 60
	offStateWinner  = 63
	offStateMaze    = 72
	offStateTank0   = stateFixedLen
	offStateTank1   = stateFixedLen + TankLen + StatsLen
	offStateBullet0 = stateFixedLen + 2*(TankLen+StatsLen)
	offStateRounds  = 74

	offDeltaSlots = 48
	offDeltaRuns  = 49 // slot 0: 01 04, 11 01, 81; slot 1: 8c
)

func TestFieldErrors(t *testing.T) {
	tests := []struct {
		name   string
		golden string
		parse  func([]byte) (packet, error)
		mutate func([]byte) []byte
		want   error
	}{
		{"hello padding", goldenHello, parseAs(ParseHello), set(HelloLen-1, 1), ErrPadding},
		{"hello first padding byte", goldenHello, parseAs(ParseHello), set(HeaderLen, 0x80), ErrPadding},
		{"hello not padded", goldenHello, parseAs(ParseHello), func(b []byte) []byte { return b[:HeaderLen] }, ErrShort},

		{"join last padding byte", goldenJoin, parseAs(ParseJoin), set(JoinLen-1, 1), ErrPadding},
		{"join first padding byte", goldenJoin, parseAs(ParseJoin), set(offJoinPadding, 0x80), ErrPadding},
		{"join not padded", goldenJoin, parseAs(ParseJoin), func(b []byte) []byte { return b[:offJoinPadding] }, ErrShort},

		{"accept conn 0", goldenAccept, parseAs(ParseAccept), set(offAcceptConn, 0, 0, 0, 0), ErrRange},
		{"accept without its signature", goldenAccept, parseAs(ParseAccept), func(b []byte) []byte { return b[:AcceptLen-SigLen] }, ErrShort},

		{"path challenge without data", goldenPathChallenge, parsePath, func(b []byte) []byte { return b[:HeaderLen] }, ErrShort},
		{"path response, 9 bytes of data", goldenPathResponse, parsePath, func(b []byte) []byte { return append(b, 0x98) }, ErrTrailing},

		{"request flags bit 5", goldenRequest, parseAs(ParseRequest), set(offRequestFlags, 32), ErrFlags},
		{"request casual outside create", goldenRequest, parseAs(ParseRequest), set(offRequestFlags, 8), ErrRange},
		{"request identity kind 3", goldenRequest, parseAs(ParseRequest), set(offRequestIdentity, 3), ErrRange},
		{"request identity without its signature", goldenRequest, parseAs(ParseRequest), func(b []byte) []byte { return b[:len(b)-1] }, ErrShort},
		{"request identity of a zero key", goldenRequest, parseAs(ParseRequest), func(b []byte) []byte {
			clear(b[offRequestIdentity+1 : offRequestIdentity+1+IDLen])
			return b
		}, ErrRange},
		{"request guest with a key", goldenRequest, parseAs(ParseRequest), set(offRequestIdentity, 0), ErrTrailing},
		{"request redirected to the lobby", goldenRequest, parseAs(ParseRequest), func(b []byte) []byte {
			b[offRequestFlags], b[offRequestKind], b[offRequestRoomLen] = requestSpectate|requestRedirected, byte(RoomLobby), 0
			return append(b[:offRequestRoom], 0, 0, 0)
		}, ErrRange},
		{"request private outside create", goldenRequest, parseAs(ParseRequest), set(offRequestFlags, 2), ErrRange},
		{"request seats outside create", goldenRequest, parseAs(ParseRequest), set(offRequestSeats, 4), ErrRange},
		{"request room kind 4", goldenRequest, parseAs(ParseRequest), set(offRequestKind, 4), ErrRange},
		{"request quick with a room", goldenRequest, parseAs(ParseRequest), set(offRequestKind, byte(RoomQuick)), ErrRange},
		{"request create 9 seats", goldenRequest, parseAs(ParseRequest), func(b []byte) []byte {
			b[offRequestKind], b[offRequestSeats] = byte(RoomCreate), 9
			return b
		}, ErrRange},
		{"request create 1 seat", goldenRequest, parseAs(ParseRequest), func(b []byte) []byte {
			b[offRequestKind], b[offRequestSeats] = byte(RoomCreate), 1
			return b
		}, ErrRange},
		{"request create 2 seats 2 bots", goldenRequest, parseAs(ParseRequest), func(b []byte) []byte {
			b[offRequestKind] = byte(RoomCreate)
			b[offRequestSeats], b[offRequestSeats+1] = 2, 2
			return b
		}, ErrRange},
		{"request room 17 bytes", goldenRequest, parseAs(ParseRequest), set(offRequestRoomLen, 17), ErrName},
		{"request room not UTF-8", goldenRequest, parseAs(ParseRequest), set(offRequestRoom, 0xff), ErrName},
		{"request room length short", goldenRequest, parseAs(ParseRequest), set(offRequestRoomLen, 5), ErrRange}, // reads the key as the identity's kind
		{"request room length long", goldenRequest, parseAs(ParseRequest), set(offRequestRoomLen, 1), ErrTrailing},
		{"request flags 0xff", goldenRequest, parseAs(ParseRequest), set(offRequestFlags, 0xff), ErrFlags},
		{"request name 17 bytes", goldenRequest, parseAs(ParseRequest), func(b []byte) []byte {
			b[offRequestNameLen] = 17
			return append(b[:offRequestName], strings.Repeat("x", 17)...)
		}, ErrName},
		{"request name length 255", goldenRequest, parseAs(ParseRequest), set(offRequestNameLen, 255), ErrName},
		{"request name not UTF-8", goldenRequest, parseAs(ParseRequest), set(offRequestName, 0xff), ErrName},
		{"request name length short", goldenRequest, parseAs(ParseRequest), func(b []byte) []byte { return b[:offRequestName+4] }, ErrShort},

		{"start slots 0", goldenStart, parseAs(ParseStart), set(offStartSlots, 0), ErrRange},
		{"start slots 9", goldenStart, parseAs(ParseStart), set(offStartSlots, 9), ErrRange},
		{"start slot 2 of 2", goldenStart, parseAs(ParseStart), set(offStartSlot, 2), ErrRange},
		{"start slot 0xfe", goldenStart, parseAs(ParseStart), set(offStartSlot, 0xfe), ErrRange},
		{"start need 3 of 2", goldenStart, parseAs(ParseStart), set(offStartNeed, 3), ErrRange},
		{"start maze even width", goldenStart, parseAs(ParseStart), set(offStartMazeW, 24), ErrRange},
		{"start maze too wide", goldenStart, parseAs(ParseStart), set(offStartMazeW, 65), ErrRange},
		{"start maze 0x0", goldenStart, parseAs(ParseStart), set(offStartMazeW, 0, 0), ErrRange},
		{"start maze tall", goldenStart, parseAs(ParseStart), set(offStartMazeH, 33), ErrRange},
		{"start maze 3x3 for 2", goldenStart, parseAs(ParseStart), set(offStartMazeW, 3, 3), ErrRange},
		{"start state every 0", goldenStart, parseAs(ParseStart), set(offStartStateEvery, 0), ErrRange},
		{"start seat flags", goldenStart, parseAs(ParseStart), set(offStartSeat0Flags, 3), ErrFlags},
		{"start room 17", goldenStart, parseAs(ParseStart), set(offStartRoomLen, 17), ErrName},
		{"start code escape", goldenStart, parseAs(ParseStart), set(offStartCodeLen+1, 0x1b), ErrName},
		{"start room trailing space", goldenStart, parseAs(ParseStart), set(offStartRoomLen+3, ' '), ErrName},
		{"start name 17", goldenStart, parseAs(ParseStart), set(offStartSeat0, 17), ErrName},
		{"start name escape", goldenStart, parseAs(ParseStart), set(offStartSeat0+1, 0x1b), ErrName},
		{"start name leading space", goldenStart, parseAs(ParseStart), set(offStartSeat0+1, ' '), ErrName},
		{"start name trailing space", goldenStart, parseAs(ParseStart), set(offStartSeat0+5, ' '), ErrName},
		{"start name not UTF-8", goldenStart, parseAs(ParseStart), set(offStartSeat0+3, 0xc3), ErrName},
		{"start more slots than seats", goldenStart, parseAs(ParseStart), set(offStartSlots, 3), ErrShort},

		{"input n 0", goldenInput, parseAs(ParseInput), set(offInputN, 0), ErrTooManyInputs},
		{"input n 9", goldenInput, parseAs(ParseInput), set(offInputN, 9), ErrTooManyInputs},
		{"input n 255", goldenInput, parseAs(ParseInput), set(offInputN, 255), ErrFlags},
		{"input n 0x8f", goldenInput, parseAs(ParseInput), set(offInputN, 0x8f), ErrTooManyInputs},
		{"input n bit 6", goldenInput, parseAs(ParseInput), set(offInputN, 0x44), ErrFlags},
		{"input n 3 of 4 sent", goldenInput, parseAs(ParseInput), set(offInputN, 0x83), ErrTrailing},
		{"input n 5 of 4 sent", goldenInput, parseAs(ParseInput), set(offInputN, 0x85), ErrShort},
		{"input base without its flag", goldenInput, parseAs(ParseInput), set(offInputN, 4), ErrFlags},
		{"input moveX bits 10", goldenInput, parseAs(ParseInput), set(offInputMoves, 0x02), ErrMove},
		{"input moveY bits 10", goldenInput, parseAs(ParseInput), set(offInputMoves+1, 0x09), ErrMove},
		{"input last moveX bits 10", goldenInput, parseAs(ParseInput), set(offInputMoves+3, 0x12), ErrMove},
		{"input bit 6", goldenInput, parseAs(ParseInput), set(offInputMoves+2, 0x40), ErrButtons},
		{"input bit 7 in last", goldenInput, parseAs(ParseInput), set(offInputMoves+3, 0x97), ErrButtons},

		{"state slots 9", goldenState, parseState, set(offStateSlots, 9), ErrSnapshot},
		{"state bullets 65", goldenState, parseState, set(offStateBullets, 65), ErrSnapshot},
		{"state slots 3", goldenState, parseState, set(offStateSlots, 3), ErrShort},
		{"state bullets 1", goldenState, parseState, set(offStateBullets, 1), ErrTrailing},
		{"state tank flags bit 7", goldenState, parseState, set(offStateTank0+6, 0xbd), ErrFlags},
		{"state tank rematch while playing", goldenState, parseState, set(offStateTank0+6, 0x7d), ErrSnapshot},
		{"state tank 1 unseated: no stats", goldenState, parseState, set(offStateTank1+6, 0x13), ErrTrailing},
		{"state score above rounds to win", goldenState, parseState, set(offStateRounds, 4), ErrSnapshot},
		{"state match over while playing a round", goldenState, parseState, set(offStatePhase, 3), ErrSnapshot},
		{"state tank aim -2", goldenState, parseState, set(offStateTank0+6, 0x32), ErrSnapshot},
		{"state tank aim 0,0", goldenState, parseState, set(offStateTank0+6, 0x30), ErrSnapshot},
		{"state tank hp 255", goldenState, parseState, set(offStateTank0+7, 0xff), ErrSnapshot},
		{"state tank vx -128", goldenState, parseState, set(offStateTank0+4, 0x80), ErrSnapshot},
		{"state tank x beyond maze", goldenState, parseState, set(offStateTank0, 0xff, 0xff), ErrSnapshot},
		{"state tank unseated", goldenState, parseState, func(b []byte) []byte {
			b[offStateTank0+6] = 0x1d // alive, aim: not empty
			return append(b[:offStateTank1-StatsLen], b[offStateTank1:]...)
		}, ErrSnapshot},
		{"state bullet flags bit 7", goldenState, parseState, set(offStateBullet0+6, 0x80), ErrFlags},
		{"state bullet owner 2 of 2", goldenState, parseState, set(offStateBullet0+6, 0x02), ErrSnapshot},
		{"state bullet bounces 6", goldenState, parseState, set(offStateBullet0+6, 0x30), ErrSnapshot},
		{"state bullet life 241", goldenState, parseState, set(offStateBullet0+7, 241), ErrSnapshot},
		{"state bullet vy 121", goldenState, parseState, set(offStateBullet0+5, 121), ErrSnapshot},
		{"state round phase 4", goldenState, parseState, set(offStatePhase, 4), ErrSnapshot},
		{"state countdown of 5000 ticks", goldenState, parseState, set(offStatePhase, 2), ErrSnapshot},
		{"state round winner 2", goldenState, parseState, set(offStateWinner, 2), ErrSnapshot},
		{"state round winner -2", goldenState, parseState, set(offStateWinner, 0xfe), ErrSnapshot},
		{"state maze 63x33", goldenState, parseState, set(offStateMaze, 63, 33), ErrSnapshot},
		{"state back 121", goldenState, parseState, set(offStateBack, MaxBack+1), ErrSnapshot},
		{"state back 255", goldenState, parseState, set(offStateBack, 255), ErrSnapshot},
		{"delta back 1: runs too long", goldenStateDelta, parseState, set(offStateBack, 1), ErrSnapshot},
		{"delta back 5: slot 0's first runs fill it", goldenStateDelta, parseState, set(offStateBack, 5), ErrSnapshot},
		{"delta slots 0", goldenStateDelta, parseState, set(offDeltaSlots, 0), ErrSnapshot},
		{"delta slots 9", goldenStateDelta, parseState, set(offDeltaSlots, 9), ErrSnapshot},
		{"delta slots 3", goldenStateDelta, parseState, set(offDeltaSlots, 3), ErrShort},
		{"delta slots 1", goldenStateDelta, parseState, set(offDeltaSlots, 1), ErrTrailing},
		{"delta run of 0 ticks", goldenStateDelta, parseState, set(offDeltaRuns+1, 0), ErrSnapshot},
		{"delta run to the end without bit 7", goldenStateDelta, parseState, set(offDeltaRuns+1, 6), ErrSnapshot},
		{"delta runs past the end", goldenStateDelta, parseState, set(offDeltaRuns+3, 2), ErrSnapshot},
		{"delta run move bits 10", goldenStateDelta, parseState, set(offDeltaRuns, 0x02), ErrMove},
		{"delta run bit 6", goldenStateDelta, parseState, set(offDeltaRuns+4, 0xc1), ErrButtons},
		{"delta run like the one before", goldenStateDelta, parseState, set(offDeltaRuns+2, 0x01), ErrSnapshot},
		{"delta last run twice", goldenStateDelta, parseState, func(b []byte) []byte { return append(b, 0x80) }, ErrTrailing},

		{"leave reason 0", goldenLeave, parseAs(ParseLeave), set(HeaderLen, 0), ErrReason},
		{"leave reason 8", goldenLeave, parseAs(ParseLeave), set(HeaderLen, 8), ErrReason},
		{"reject reason 0", goldenReject, parseAs(ParseReject), set(HeaderLen, 0), ErrReason},
		{"reject reason 16", goldenReject, parseAs(ParseReject), set(HeaderLen, 16), ErrReason},

		{"room list flags bit 3", goldenRoomList, parseAs(ParseRoomList), set(offRoomList0+2, 8), ErrFlags},
		{"room list 5 of 4", goldenRoomList, parseAs(ParseRoomList), set(offRoomList0+3, 5), ErrRange},
		{"room list 9 seats", goldenRoomList, parseAs(ParseRoomList), set(offRoomList0+3, 9, 9), ErrRange},
		{"room list bots > players", goldenRoomList, parseAs(ParseRoomList), set(offRoomList0+5, 5), ErrRange},
		{"room list state 4", goldenRoomList, parseAs(ParseRoomList), set(offRoomList0+7, 4), ErrRange},
		{"room list name escape", goldenRoomList, parseAs(ParseRoomList), set(offRoomList0+1, 0x1b), ErrName},
		{"room list count 3 of 2", goldenRoomList, parseAs(ParseRoomList), set(offRoomList0-1, 3), ErrShort},
		{"room list count 1 of 2", goldenRoomList, parseAs(ParseRoomList), set(offRoomList0-1, 1), ErrTrailing},
		{"list rooms short", goldenListRooms, parseAs(ParseListRooms), func(b []byte) []byte { return b[:len(b)-1] }, ErrShort},
		{"list rooms one-byte offset", goldenListRooms, parseAs(ParseListRooms), func(b []byte) []byte {
			return append(b[:offListRoomsOffset], b[offListRoomsOffset+1:]...) // version 6's layout
		}, ErrShort},
		{"room list server 65 bytes", goldenRoomList, parseAs(ParseRoomList), func(b []byte) []byte {
			b[offRoomList1Server] = MaxServerLen + 1
			return append(b[:offRoomList1Server+1], strings.Repeat("x", MaxServerLen+1)...)
		}, ErrName},
		{"room list server length 255", goldenRoomList, parseAs(ParseRoomList), set(offRoomList1Server, 255), ErrName},
		{"room list server with a space", goldenRoomList, parseAs(ParseRoomList), set(offRoomList1Server+1+5, ' '), ErrName},
		{"room list server with a tab", goldenRoomList, parseAs(ParseRoomList), set(offRoomList1Server+1, '\t'), ErrName},
		{"room list server with DEL", goldenRoomList, parseAs(ParseRoomList), set(offRoomList1Server+1, 0x7f), ErrName},
		{"room list server with an escape", goldenRoomList, parseAs(ParseRoomList), set(offRoomList1Server+1, 0x1b), ErrName},
		{"room list server not ASCII", goldenRoomList, parseAs(ParseRoomList), func(b []byte) []byte {
			return append(b[:len(b)-2], "é"...) // valid UTF-8 all the same
		}, ErrName},
		{"room list server zero byte", goldenRoomList, parseAs(ParseRoomList), set(len(mustHex(t, goldenRoomList))-1, 0), ErrName},
		{"room list server length long", goldenRoomList, parseAs(ParseRoomList), set(offRoomList1Server, 19), ErrShort},
		{"room list server length short", goldenRoomList, parseAs(ParseRoomList), set(offRoomList1Server, 17), ErrTrailing},
		{"room list first server length long", goldenRoomList, parseAs(ParseRoomList), set(offRoomList0Server, 1), ErrName}, // eats the next entry's name length, 3

		{"redirect family 0", goldenRedirect, parseAs(ParseRedirect), set(offRedirectFamily, 0), ErrRange},
		{"redirect family 5", goldenRedirect, parseAs(ParseRedirect), set(offRedirectFamily, 5), ErrRange},
		{"redirect family 41", goldenRedirect, parseAs(ParseRedirect), set(offRedirectFamily, 41), ErrRange},
		{"redirect family 6 of 4 bytes", goldenRedirect, parseAs(ParseRedirect), set(offRedirectFamily, redirectFamily6), ErrShort},
		{"redirect port 0", goldenRedirect, parseAs(ParseRedirect), set(offRedirectPort, 0, 0), ErrRange},
		{"redirect to 0.0.0.0", goldenRedirect, parseAs(ParseRedirect), set(offRedirectFamily+1, 0, 0, 0, 0), ErrRange},
		{"redirect to 224.0.0.1", goldenRedirect, parseAs(ParseRedirect), set(offRedirectFamily+1, 224, 0, 0, 1), ErrRange},
		{"redirect to 239.255.255.250", goldenRedirect, parseAs(ParseRedirect), set(offRedirectFamily+1, 239, 255, 255, 250), ErrRange},
		{"redirect flags bit 2", goldenRedirect, parseAs(ParseRedirect), set(offRedirectFlags, 5), ErrFlags},
		{"redirect casual outside create", goldenRedirect, parseAs(ParseRedirect), func(b []byte) []byte {
			b[offRedirectKind], b[offRedirectFlags], b[offRedirectSeats], b[offRedirectSeats+1] = byte(RoomNamed), redirectCasual, 0, 0
			return b
		}, ErrRange},
		{"redirect flags 0x80", goldenRedirect, parseAs(ParseRedirect), set(offRedirectFlags, 0x81), ErrFlags},
		{"redirect private outside create", goldenRedirect, parseAs(ParseRedirect), func(b []byte) []byte {
			b[offRedirectKind], b[offRedirectSeats], b[offRedirectSeats+1] = byte(RoomNamed), 0, 0
			return b
		}, ErrRange},
		{"redirect seats outside create", goldenRedirect, parseAs(ParseRedirect), func(b []byte) []byte {
			b[offRedirectKind], b[offRedirectFlags] = byte(RoomCode), 0
			return b
		}, ErrRange},
		{"redirect bots outside create", goldenRedirect, parseAs(ParseRedirect), func(b []byte) []byte {
			b[offRedirectKind], b[offRedirectFlags], b[offRedirectSeats] = byte(RoomNamed), 0, 0
			return b
		}, ErrRange},
		{"redirect room kind 4", goldenRedirect, parseAs(ParseRedirect), func(b []byte) []byte {
			b[offRedirectKind], b[offRedirectRoom] = byte(RoomLobby), 0
			return append(b[:offRedirectRoom+1], 0, 0, 0) // no room, no flags, no settings
		}, ErrRange},
		{"redirect room kind 5", goldenRedirect, parseAs(ParseRedirect), set(offRedirectKind, 5), ErrRange},
		{"redirect quick with a room", goldenRedirect, parseAs(ParseRedirect), func(b []byte) []byte {
			b[offRedirectKind] = byte(RoomQuick)
			return append(b[:offRedirectFlags], 0, 0, 0)
		}, ErrRange},
		{"redirect create without a room", goldenRedirect, parseAs(ParseRedirect), func(b []byte) []byte {
			b[offRedirectRoom] = 0
			return append(b[:offRedirectRoom+1], b[offRedirectFlags:]...)
		}, ErrRange},
		{"redirect named without a room", goldenRedirect, parseAs(ParseRedirect), func(b []byte) []byte {
			b[offRedirectKind], b[offRedirectRoom] = byte(RoomNamed), 0
			return append(b[:offRedirectRoom+1], 0, 0, 0)
		}, ErrRange},
		{"redirect create 1 seat", goldenRedirect, parseAs(ParseRedirect), set(offRedirectSeats, 1, 0), ErrRange},
		{"redirect create 9 seats", goldenRedirect, parseAs(ParseRedirect), set(offRedirectSeats, 9), ErrRange},
		{"redirect create 2 seats 2 bots", goldenRedirect, parseAs(ParseRedirect), set(offRedirectSeats, 2, 2), ErrRange},
		{"redirect create default seats 1 bot", goldenRedirect, parseAs(ParseRedirect), set(offRedirectSeats, 0, 1), ErrRange},
		{"redirect room 17 bytes", goldenRedirect, parseAs(ParseRedirect), func(b []byte) []byte {
			b[offRedirectRoom] = 17
			return append(append(b[:offRedirectRoom+1], strings.Repeat("x", 17)...), b[offRedirectFlags:]...)
		}, ErrName},
		{"redirect room not UTF-8", goldenRedirect, parseAs(ParseRedirect), set(offRedirectRoom+1, 0xff), ErrName},
		{"redirect room length long", goldenRedirect, parseAs(ParseRedirect), set(offRedirectRoom, 4), ErrShort},
		{"redirect room length short", goldenRedirect, parseAs(ParseRedirect), set(offRedirectRoom, 2), ErrTrailing},
		{"redirect without its key", goldenRedirect, parseAs(ParseRedirect), func(b []byte) []byte { return b[:offRedirectPort+2] }, ErrShort},
	}
	for _, tt := range tests {
		b := tt.mutate(mustHex(t, tt.golden))
		_, err := tt.parse(b)
		if !errors.Is(err, tt.want) {
			t.Errorf("%s: got error %v, want %v", tt.name, err, tt.want)
		}
	}
}

// TestValidValuesAccepted is the other side of TestFieldErrors: the edges
// of each range parse.
func TestValidValuesAccepted(t *testing.T) {
	tests := []struct {
		name   string
		golden string
		parse  func([]byte) (packet, error)
		mutate func([]byte) []byte
	}{
		{"join zero cookie and key", goldenJoin, parseAs(ParseJoin), func(b []byte) []byte {
			clear(b[HeaderLen:offJoinPadding])
			return b
		}},
		{"accept conn 1", goldenAccept, parseAs(ParseAccept), set(offAcceptConn, 0, 0, 0, 1)},
		{"accept conn 0xffffffff", goldenAccept, parseAs(ParseAccept), set(offAcceptConn, 0xff, 0xff, 0xff, 0xff)},
		{"request token and proof zero", goldenRequest, parseAs(ParseRequest), func(b []byte) []byte {
			clear(b[HeaderLen:offRequestFlags])
			return b
		}},
		{"request spectate by code", goldenRequest, parseAs(ParseRequest), func(b []byte) []byte {
			b[offRequestFlags], b[offRequestKind] = 1, byte(RoomCode)
			return b
		}},
		{"request spectate", goldenRequest, parseAs(ParseRequest), set(offRequestFlags, 1)},
		{"request empty name", goldenRequest, parseAs(ParseRequest), func(b []byte) []byte {
			b[offRequestNameLen] = 0
			return append(b[:offRequestName:offRequestName], b[offRequestKind:]...)
		}},
		{"request 16-byte name", goldenRequest, parseAs(ParseRequest), func(b []byte) []byte {
			b[offRequestNameLen] = 16
			return append(append(b[:offRequestName:offRequestName], "ééééééééé"[:16]...), b[offRequestKind:]...)
		}},
		{"request create private 8 seats 7 bots", goldenRequest, parseAs(ParseRequest), func(b []byte) []byte {
			b[offRequestFlags], b[offRequestKind] = 2, byte(RoomCreate)
			b[offRequestSeats], b[offRequestSeats+1] = 8, 7
			return b
		}},
		{"request create default seats", goldenRequest, parseAs(ParseRequest), set(offRequestKind, byte(RoomCreate))},
		{"request not redirected", goldenRequest, parseAs(ParseRequest), set(offRequestFlags, 0)},
		{"request redirected spectator", goldenRequest, parseAs(ParseRequest), set(offRequestFlags, requestSpectate|requestRedirected)},
		{"request redirected create private", goldenRequest, parseAs(ParseRequest), func(b []byte) []byte {
			b[offRequestFlags], b[offRequestKind] = requestPrivate|requestRedirected, byte(RoomCreate)
			return b
		}},
		{"request redirected quick", goldenRequest, parseAs(ParseRequest), func(b []byte) []byte {
			b[offRequestKind], b[offRequestRoomLen] = byte(RoomQuick), 0
			return append(b[:offRequestRoom], 0, 0, 0)
		}},
		{"request lobby, not redirected", goldenRequest, parseAs(ParseRequest), func(b []byte) []byte {
			b[offRequestFlags], b[offRequestKind], b[offRequestRoomLen] = requestSpectate, byte(RoomLobby), 0
			return append(b[:offRequestRoom], 0, 0, 0)
		}},
		{"list rooms offset 0", goldenListRooms, parseAs(ParseListRooms), set(offListRoomsOffset, 0, 0)},
		{"list rooms offset 65535", goldenListRooms, parseAs(ParseListRooms), set(offListRoomsOffset, 0xff, 0xff)},
		{"room list offset 65535", goldenRoomList, parseAs(ParseRoomList), set(HeaderLen+6, 0xff, 0xff)},
		{"room list server 64 bytes", goldenRoomList, parseAs(ParseRoomList), func(b []byte) []byte {
			b[offRoomList1Server] = MaxServerLen
			return append(b[:offRoomList1Server+1], strings.Repeat("x", MaxServerLen)...)
		}},
		{"room list server ! and ~", goldenRoomList, parseAs(ParseRoomList), func(b []byte) []byte {
			b[offRoomList1Server+1], b[len(b)-1] = 0x21, 0x7e
			return b
		}},
		{"room list server a host name", goldenRoomList, parseAs(ParseRoomList), func(b []byte) []byte {
			b[offRoomList1Server] = 19
			return append(b[:offRoomList1Server+1], "eu-2.example.net:77"...)
		}},
		{"redirect port 1", goldenRedirect, parseAs(ParseRedirect), set(offRedirectPort, 0, 1)},
		{"redirect port 65535", goldenRedirect, parseAs(ParseRedirect), set(offRedirectPort, 0xff, 0xff)},
		{"redirect to 127.0.0.1", goldenRedirect, parseAs(ParseRedirect), set(offRedirectFamily+1, 127, 0, 0, 1)},
		{"redirect to 255.255.255.255", goldenRedirect, parseAs(ParseRedirect), set(offRedirectFamily+1, 255, 255, 255, 255)},
		{"redirect zero key", goldenRedirect, parseAs(ParseRedirect), func(b []byte) []byte {
			clear(b[offRedirectPort+2 : offRedirectKind])
			return b
		}},
		{"redirect create public", goldenRedirect, parseAs(ParseRedirect), set(offRedirectFlags, 0)},
		{"redirect create default seats", goldenRedirect, parseAs(ParseRedirect), set(offRedirectSeats, 0, 0)},
		{"redirect create 8 seats 7 bots", goldenRedirect, parseAs(ParseRedirect), set(offRedirectSeats, 8, 7)},
		{"redirect create 2 seats", goldenRedirect, parseAs(ParseRedirect), set(offRedirectSeats, 2, 0)},
		{"redirect named", goldenRedirect, parseAs(ParseRedirect), func(b []byte) []byte {
			b[offRedirectKind] = byte(RoomNamed)
			return append(b[:offRedirectFlags], 0, 0, 0)
		}},
		{"redirect by code", goldenRedirect, parseAs(ParseRedirect), func(b []byte) []byte {
			b[offRedirectKind] = byte(RoomCode)
			return append(b[:offRedirectRoom], 8, 'K', '7', 'Q', 'P', 'M', '2', 'X', 'D', 0, 0, 0)
		}},
		{"redirect quick", goldenRedirect, parseAs(ParseRedirect), func(b []byte) []byte {
			b[offRedirectKind] = byte(RoomQuick)
			return append(b[:offRedirectRoom], 0, 0, 0, 0)
		}},
		{"redirect 16-byte room", goldenRedirect, parseAs(ParseRedirect), func(b []byte) []byte {
			b[offRedirectRoom] = 16
			return append(append(b[:offRedirectRoom+1], "ééééééééé"[:16]...), b[offRedirectFlags:]...)
		}},
		{"request by code", goldenRequest, parseAs(ParseRequest), set(offRequestKind, byte(RoomCode))},
		{"start rounds 255", goldenStart, parseAs(ParseStart), set(offStartRounds, 255)},
		{"room list 8 of 8", goldenRoomList, parseAs(ParseRoomList), set(offRoomList0+3, 8, 8)},
		{"reject slow down", goldenReject, parseAs(ParseReject), set(HeaderLen, byte(RejectSlowDown))},
		{"start spectator", goldenStart, parseAs(ParseStart), set(offStartSlot, SpectatorSlot)},
		{"start need 2 of 2", goldenStart, parseAs(ParseStart), set(offStartNeed, 2)},
		{"start maze 63x31", goldenStart, parseAs(ParseStart), set(offStartMazeW, 63, 31)},
		{"start maze 3x5 for 2", goldenStart, parseAs(ParseStart), set(offStartMazeW, 3, 5)},
		{"start state every 255", goldenStart, parseAs(ParseStart), set(offStartStateEvery, 255)},
		{"input n 1", goldenInput, parseAs(ParseInput), func(b []byte) []byte { b[offInputN] = 0x81; return b[:offInputMoves+1] }},
		{"input without a base", goldenInput, parseAs(ParseInput), set(offInputN, 4, 0, 0, 3, 0xe8, 0, 0, 0, 0)},
		{"input first tick wraps", goldenInput, parseAs(ParseInput), set(offInputN+1, 0xff, 0xff, 0xff, 0xfe)},
		{"input base 0", goldenInput, parseAs(ParseInput), set(offInputBase, 0, 0, 0, 0)},
		{"delta back 7: the last runs take the tick more", goldenStateDelta, parseState, set(offStateBack, 7)},
		{"delta back 120", goldenStateDelta, parseState, set(offStateBack, MaxBack)},
		{"delta back 120: a run of 119 ticks, then the last", goldenStateDelta, parseState, func(b []byte) []byte {
			b[offStateBack] = MaxBack
			return append(b[:offDeltaRuns], 0x01, 119, 0x80, 0x8c)
		}},
		{"state tank flags all", goldenState, parseState, set(offStateTank0+6, 0x3f)},
		{"state bullet owner 1 bounces 5", goldenState, parseState, set(offStateBullet0+6, 0x29)},
		{"leave match over", goldenLeave, parseAs(ParseLeave), set(HeaderLen, byte(LeaveMatchOver))},
		{"leave idle", goldenLeave, parseAs(ParseLeave), set(HeaderLen, byte(LeaveIdle))},
		{"reject busy", goldenReject, parseAs(ParseReject), set(HeaderLen, byte(RejectBusy))},
		{"reject no match", goldenReject, parseAs(ParseReject), set(HeaderLen, byte(RejectNoMatch))},
		{"reject draining", goldenReject, parseAs(ParseReject), set(HeaderLen, byte(RejectDraining))},
		{"room list closing", goldenRoomList, parseAs(ParseRoomList), set(offRoomList0+2, 2)},
		{"room list private closing", goldenRoomList, parseAs(ParseRoomList), set(offRoomList0+2, 3)},
		{"room list ranked", goldenRoomList, parseAs(ParseRoomList), set(offRoomList0+2, 4)},
		{"request vouched", goldenRequest, parseAs(ParseRequest), func(b []byte) []byte {
			b[offRequestIdentity] = byte(IdentityVouched)
			return append(b, make([]byte, ServerKeyLen)...)
		}},
		{"request guest", goldenRequest, parseAs(ParseRequest), func(b []byte) []byte { b[offRequestIdentity] = 0; return b[:offRequestIdentity+1] }},
		{"request create casual", goldenRequest, parseAs(ParseRequest), func(b []byte) []byte {
			b[offRequestFlags], b[offRequestKind] = requestCasual, byte(RoomCreate)
			return b
		}},
		{"request default name", goldenRequest, parseAs(ParseRequest), set(offRequestFlags, requestDefault)},
		{"redirect create casual", goldenRedirect, parseAs(ParseRedirect), set(offRedirectFlags, redirectPrivate|redirectCasual)},
	}
	for _, tt := range tests {
		b := tt.mutate(mustHex(t, tt.golden))
		p, err := tt.parse(b)
		if err != nil {
			t.Errorf("%s: %v, want no error", tt.name, err)
			continue
		}
		if again := p.Append(nil); !bytes.Equal(again, b) {
			t.Errorf("%s: re-encode\n got %x\nwant %x", tt.name, again, b)
		}
	}
}

func TestVersionError(t *testing.T) {
	b := mustHex(t, goldenHello)
	b[2] = 3
	for _, c := range codecCases() {
		_, err := c.parse(b)
		if !errors.Is(err, ErrVersion) {
			t.Errorf("%s parser: got %v, want ErrVersion", c.name, err)
		}
	}
	_, err := ParseHeader(b)
	var ve *VersionError
	if !errors.As(err, &ve) {
		t.Fatalf("ParseHeader error %T %v is not a *VersionError", err, err)
	}
	if ve.Got != 3 || ve.Want != Version {
		t.Errorf("VersionError{Got: %d, Want: %d}, want {3, %d}", ve.Got, ve.Want, Version)
	}
	if got, want := err.Error(), "proto: peer speaks protocol v3, this build speaks v10"; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
	if errors.Is(err, ErrMagic) {
		t.Errorf("VersionError matches ErrMagic")
	}
}

func TestInputValidate(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(p *Input)
		want   error
	}{
		{"ok", func(p *Input) {}, nil},
		{"n 0", func(p *Input) { p.N = 0 }, ErrTooManyInputs},
		{"n 9", func(p *Input) { p.N = 9 }, ErrTooManyInputs},
		{"gap", func(p *Input) { p.Inputs[2].Tick++ }, ErrInputTicks},
		{"descending", func(p *Input) {
			p.Inputs[0].Tick, p.Inputs[1].Tick, p.Inputs[2].Tick, p.Inputs[3].Tick = 4, 3, 2, 1
		}, ErrInputTicks},
		{"duplicate tick", func(p *Input) { p.Inputs[1].Tick = p.Inputs[0].Tick }, ErrInputTicks},
		{"across wrap", func(p *Input) {
			for i := range p.Inputs[:p.N] {
				p.Inputs[i].Tick = game.Tick(0xfffffffe).Add(int32(i))
			}
		}, nil},
		{"move", func(p *Input) { p.Inputs[3].MoveY = 2 }, ErrMove},
		{"buttons", func(p *Input) { p.Inputs[0].Buttons = 0x40 }, ErrButtons},
		{"beyond N ignored", func(p *Input) { p.N = 2 }, nil},
	}
	for _, tt := range tests {
		p := testInput()
		tt.mutate(p)
		if err := p.Validate(); !errors.Is(err, tt.want) || (tt.want == nil && err != nil) {
			t.Errorf("%s: Validate() = %v, want %v", tt.name, err, tt.want)
		}
	}
}

// TestEverySentinelDistinct guards against two sentinels sharing a
// message, which would make logs ambiguous.
func TestEverySentinelDistinct(t *testing.T) {
	all := []error{ErrShort, ErrOversize, ErrMagic, ErrVersion, ErrType, ErrWrongType, ErrTrailing,
		ErrPadding, ErrFlags, ErrMove, ErrButtons, ErrTooManyInputs, ErrInputTicks, ErrSnapshot,
		ErrName, ErrRange, ErrReason, ErrCookieExpired, ErrCookieInvalid}
	seen := map[string]bool{}
	for _, e := range all {
		if !strings.HasPrefix(e.Error(), "proto: ") {
			t.Errorf("%q does not start with \"proto: \"", e)
		}
		if seen[e.Error()] {
			t.Errorf("two sentinels say %q", e)
		}
		seen[e.Error()] = true
	}
}

// TestDrainingOnTheWire: version 5's draining signs decode to what they
// mean: Reject reason 12 is RejectDraining, and a room's flag bit 1 is
// Closing (beside bit 0, Private).
func TestDrainingOnTheWire(t *testing.T) {
	b := mustHex(t, goldenReject)
	b[HeaderLen] = 12
	rj, err := ParseReject(b)
	if err != nil || rj.Reason != RejectDraining {
		t.Fatalf("reject reason 12: %v, %v; want RejectDraining", rj.Reason, err)
	}
	if got := rj.Reason.String(); got != "the server is restarting" {
		t.Errorf("RejectDraining says %q", got)
	}
	b = mustHex(t, goldenRoomList)
	b[offRoomList0+2] = 3
	rl, err := ParseRoomList(b)
	if err != nil {
		t.Fatal(err)
	}
	if e := rl.Rooms[0]; !e.Closing || !e.Private {
		t.Errorf("flags 3 decode as private %v closing %v, want both", e.Private, e.Closing)
	}
	e := RoomEntry{Name: "a", Closing: true}
	l := RoomList{Header: Header{Session: 1}, Total: 1, Rooms: []RoomEntry{e}}
	if got := l.Append(nil)[roomListFixedLen+2]; got != 2 {
		t.Errorf("a closing public room's flags encode as %#x, want 0x02", got)
	}
}
