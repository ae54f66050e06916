package proto

import (
	"bytes"
	"errors"
	"net/netip"
	"reflect"
	"strings"
	"testing"

	"ttytanks/game"
)

// knownErrors are the errors a decoder may return (possibly wrapped).
var knownErrors = []error{ErrShort, ErrOversize, ErrMagic, ErrVersion, ErrType, ErrWrongType,
	ErrTrailing, ErrPadding, ErrFlags, ErrMove, ErrButtons, ErrTooManyInputs, ErrSnapshot, ErrName,
	ErrRange, ErrReason}

func checkKnownError(t *testing.T, err error) {
	t.Helper()
	for _, k := range knownErrors {
		if errors.Is(err, k) {
			return
		}
	}
	t.Fatalf("decoder returned an error that is none of the sentinels: %v", err)
}

// addSeeds seeds f with every golden packet, so that each target also sees
// the other types, plus extra encodings of its own type, plus one datagram
// a byte longer than MaxDatagram (see oversizeSeed).
func addSeeds(f *testing.F, extra ...packet) {
	for _, c := range codecCases() {
		f.Add(mustHex(f, c.golden))
	}
	for _, p := range extra {
		f.Add(p.Append(nil))
	}
	f.Add(oversizeSeed())
}

// oversizeSeed returns MaxDatagram+1 zero bytes, which every decoder rejects
// with ErrOversize before it reads a field.
//
// It is there for the fuzzer more than for the decoders. Without it the
// ErrOversize branch is missing from the baseline coverage, so the first
// mutant longer than MaxDatagram is "new coverage" and Go's fuzzer minimizes
// it. The minimizer only cuts and removes bytes, and every shorter candidate
// loses the branch: it cuts the input to 1,201 bytes and then tries all
// ~720,000 byte ranges one by one, each a miss, until -fuzzminimizetime
// (60 s by default) runs out. Both workers caught such an input within the
// first second, and a minimization's executions are counted only when it
// ends, so a 20-second run showed no progress after 3 s and was cut off
// before the minimization could finish and record the branch: the next run
// stalled the same way (golang/go#48820 is the same trap with a crash).
// Seeded, the branch is old coverage and oversize mutants are not
// interesting.
func oversizeSeed() []byte {
	return make([]byte, MaxDatagram+1)
}

// fuzzParser is the body of every packet fuzz target: whatever parses must
// re-encode to exactly the same bytes, and Len must agree.
func fuzzParser(f *testing.F, parse func([]byte) (packet, error)) {
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := parse(b)
		if err != nil {
			checkKnownError(t, err)
			return
		}
		again := p.Append(nil)
		if !bytes.Equal(again, b) {
			t.Fatalf("re-encode differs:\n got %x\nwant %x", again, b)
		}
		if p.Len() != len(b) {
			t.Fatalf("Len() = %d for a %d-byte datagram", p.Len(), len(b))
		}
		p2, err := parse(again)
		if err != nil || !reflect.DeepEqual(p, p2) {
			t.Fatalf("second parse: %v, %+v; first %+v", err, p2, p)
		}
	})
}

func FuzzParseHeader(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := ParseHeader(b)
		if err != nil {
			checkKnownError(t, err)
			return
		}
		if again := h.AppendHeader(nil); !bytes.Equal(again, b[:HeaderLen]) {
			t.Fatalf("re-encode differs:\n got %x\nwant %x", again, b[:HeaderLen])
		}
	})
}

func FuzzParseHello(f *testing.F) {
	addSeeds(f, &Hello{})
	fuzzParser(f, parseAs(ParseHello))
}

func FuzzParseChallenge(f *testing.F) {
	addSeeds(f, &Challenge{Cookie: NewCookieJar(nil).Issue(cookieAddr, cookieSession, cookieNow)})
	fuzzParser(f, parseAs(ParseChallenge))
}

func FuzzParseJoin(f *testing.F) {
	issued := testJoin()
	issued.Cookie = NewCookieJar(cookieSecret).Issue(cookieAddr, cookieSession, cookieNow)
	addSeeds(f, &Join{}, issued)
	fuzzParser(f, parseAs(ParseJoin))
}

func FuzzParseAccept(f *testing.F) {
	last := testAccept()
	last.Conn = ^uint32(0)
	addSeeds(f, &Accept{Conn: 1}, last)
	fuzzParser(f, parseAs(ParseAccept))
}

func FuzzParseRequest(f *testing.F) {
	addSeeds(f, &Request{Spectate: true}, &Request{Name: "éééééééé"},
		&Request{Name: "0123456789abcdef", Token: testToken(), Proof: testProof()},
		&Request{Name: "bob", Kind: RoomCreate, Room: "den", Seats: 4, Bots: 1, Private: true},
		&Request{Kind: RoomCode, Room: "K7QPM2XD"}, &Request{Spectate: true, Kind: RoomLobby},
		&Request{Kind: RoomNamed, Room: "den", Redirected: true})
	fuzzParser(f, parseAs(ParseRequest))
}

// FuzzParsePath fuzzes ParsePathBody, which both path packets share.
func FuzzParsePath(f *testing.F) {
	addSeeds(f, &PathChallenge{}, &PathResponse{Data: [PathDataLen]byte{0xff, 0, 0xff, 0, 0xff, 0, 0xff, 0}})
	fuzzParser(f, parsePath)
}

func FuzzParseStart(f *testing.F) {
	full := Start{Slots: 8, Need: 3, Slot: SpectatorSlot, MazeW: 63, MazeH: 31, StateEvery: 1, Rounds: 5, Room: "den", Code: "K7QPM2XD"}
	for i := range full.Roster {
		full.Roster[i] = Seat{Name: "player é " + string(rune('0'+i)), Score: uint16(i), Connected: i%2 == 0}
	}
	addSeeds(f, &full)
	fuzzParser(f, parseAs(ParseStart))
}

func FuzzParseInput(f *testing.F) {
	one := Input{N: 1, Inputs: [MaxInputs]game.Input{{Tick: 0xffffffff, MoveX: -1, Buttons: game.ButtonFire}}}
	eight := Input{N: 8}
	for i := range eight.Inputs {
		eight.Inputs[i] = game.Input{Tick: game.Tick(i), MoveX: int8(i%3 - 1), MoveY: int8(i%3 - 1)}
	}
	addSeeds(f, &one, &eight)
	fuzzParser(f, parseAs(ParseInput))
}

func FuzzParseAck(f *testing.F) {
	addSeeds(f, &Ack{AckInfo: AckInfo{MarginMs: -32768, EchoDelay: 0xffff}, Hash: ^uint64(0)})
	fuzzParser(f, parseAs(ParseAck))
}

// FuzzParseState's inputs are exact-length and up to MaxStateLen bytes, so
// no shorter input keeps what a mutant finds in the tanks or bullets, and
// Go's minimizer spends ~230,000 runs (17-20 s on 2 cores) on each such
// input before giving up. Fuzz it with -fuzzminimizetime 10000x, as
// .ci/fuzz does, or most of a short run is spent waiting.
func FuzzParseState(f *testing.F) {
	big := State{Snapshot: largestSnapshot()}
	one := State{Snapshot: game.Snapshot{Slots: 1, Round: game.Round{Winner: -1, MazeW: 3, MazeH: 3}}}
	w, err := game.NewWorld(game.Config{Slots: 4, Seed: 3})
	if err != nil {
		f.Fatal(err)
	}
	in := make([]game.Input, 4)
	for k := 0; k < game.CountdownTicks+200; k++ {
		for i := range in {
			in[i] = game.Input{Tick: w.Tick(), MoveX: 1, MoveY: int8(k/50%3 - 1), Buttons: game.ButtonFire}
		}
		w.Step(in)
	}
	world := State{Snapshot: *w.State()}
	over := State{Snapshot: testSnapshot()}
	over.Snapshot.Round.Phase, over.Snapshot.Round.Timer = game.PhaseMatchOver, 0
	over.Snapshot.NumBullets, over.Snapshot.Bullets = 0, [game.MaxBullets]game.Bullet{}
	over.Snapshot.Tanks[0].Rematch = true
	over.Snapshot.Tanks[1] = game.Tank{} // a free seat: no stats
	if err := over.Snapshot.Validate(); err != nil {
		f.Fatal(err)
	}
	// Deltas: the longest (every slot's input changes every tick of
	// MaxBack), and a duel's at rest.
	long := State{Back: MaxBack}
	long.Snapshot.Slots = game.MaxPlayers
	for i := range long.Steps {
		for slot := range long.Steps[i] {
			long.Steps[i][slot] = game.Input{MoveX: int8((i+slot)%3 - 1), Buttons: game.Buttons(i % 2)}
		}
	}
	rest := State{Back: 8}
	rest.Snapshot.Slots = 2
	addSeeds(f, &big, &one, &world, &over, &rest)
	f.Add(long.Append(nil)[:MaxDatagram]) // more than a datagram holds: cut
	dirty := dirtyState()
	f.Fuzz(func(t *testing.T, b []byte) {
		var p State
		err := ParseState(b, &p)
		if err != nil {
			checkKnownError(t, err)
			return
		}
		if again := p.Append(nil); !bytes.Equal(again, b) {
			t.Fatalf("re-encode differs:\n got %x\nwant %x", again, b)
		}
		if p.Len() != len(b) {
			t.Fatalf("Len() = %d for a %d-byte datagram", p.Len(), len(b))
		}
		if err := ParseState(b, &dirty); err != nil || !sameState(&dirty, &p) {
			t.Fatalf("decoding into a used State gave %v, %+v; into a fresh one %+v", err, dirty, p)
		}
		if p.Delta() {
			// Every input of the delta is one a world takes.
			for k := 0; k < int(p.Back); k++ {
				for i, in := range p.StepInputs(k) {
					if in.Tick != p.Base().Add(int32(k)) || !in.Valid() {
						t.Fatalf("delta input %d of slot %d: %+v", k, i, in)
					}
				}
			}
			return
		}
		// The decoded snapshot is safe to restore.
		w, _ := game.NewWorld(game.Config{Slots: 1, Seed: 1})
		w.Restore(&p.Snapshot)
	})
}

func FuzzParseLeave(f *testing.F) {
	addSeeds(f, &Leave{Reason: LeaveMatchOver})
	fuzzParser(f, parseAs(ParseLeave))
}

func FuzzParseReject(f *testing.F) {
	addSeeds(f, &Reject{Reason: RejectVersion})
	fuzzParser(f, parseAs(ParseReject))
}

func FuzzParseListRooms(f *testing.F) {
	addSeeds(f, &ListRooms{Offset: 25, ClientTime: 1234}, &ListRooms{Offset: 0xffff})
	fuzzParser(f, parseAs(ParseListRooms))
}

func FuzzParseRoomList(f *testing.F) {
	long := RoomEntry{Name: "0123456789abcdef", Seats: 8, Players: 8, Leader: "ééééééééé"[:16], Server: strings.Repeat("~", MaxServerLen)}
	addSeeds(f, testRoomList(), &RoomList{Total: 0}, &RoomList{Total: 0xffff, Offset: 0xfffe, Rooms: []RoomEntry{long}})
	fuzzParser(f, parseAs(ParseRoomList))
}

func FuzzParseRedirect(f *testing.F) {
	v6 := testRedirect()
	v6.Addr = netip.MustParseAddrPort("[2001:db8::20]:65535")
	addSeeds(f, v6,
		&Redirect{Addr: netip.MustParseAddrPort("203.0.113.5:1"), Kind: RoomQuick},
		&Redirect{Addr: netip.MustParseAddrPort("[::1]:7777"), Kind: RoomCode, Room: "K7QPM2XD"},
		&Redirect{Addr: netip.MustParseAddrPort("198.51.100.1:7777"), Kind: RoomNamed, Room: "ééééééééé"[:16]})
	fuzzParser(f, parseAs(ParseRedirect))
}

func FuzzParseLadderQuery(f *testing.F) {
	addSeeds(f, &LadderQuery{Offset: 40, Count: MaxLadderPage}, &LadderQuery{Forget: true})
	fuzzParser(f, parseAs(ParseLadderQuery))
}

func FuzzParseLadderPage(f *testing.F) {
	full := &LadderPage{Ranked: 100000, Offset: 99980}
	for i := range MaxLadderPage {
		full.Lines = append(full.Lines, LadderLine{Rank: uint32(99981 + i), Rating: 900, RD: 350, Matches: 1, Name: "ééééééééé"[:16]})
	}
	addSeeds(f, testLadderPage(), &LadderPage{Off: true}, &LadderPage{Forgotten: true}, full)
	fuzzParser(f, parseAs(ParseLadderPage))
}

func FuzzParseRated(f *testing.F) {
	all := &Rated{}
	for i := range 8 {
		all.Changes = append(all.Changes, RatingChange{Slot: uint8(i), Before: 1500, After: uint16(1400 + 30*i), RD: 200})
	}
	addSeeds(f, testRated(), &Rated{}, all)
	fuzzParser(f, parseAs(ParseRated))
}
