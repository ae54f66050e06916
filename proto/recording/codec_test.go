package recording

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"

	"ttytanks/game"
)

// sampleHeader and sampleBlock are small values with every kind of field.
func sampleHeader() Header {
	return Header{Rules: 2, Match: 7, Seed: 0x0102030405060708, Slots: 2, MazeW: 21, MazeH: 11,
		Start: 1000, Rounds: 5, CheckEvery: 60, Started: 1767225600, Server: "0.1.0", Names: []string{"ann", "bob"}}
}

func sampleBlock() Block {
	in := func(t game.Tick, mx, my int8, fire bool) game.Input {
		i := game.Input{Tick: t, MoveX: mx, MoveY: my}
		if fire {
			i.Buttons = game.ButtonFire
		}
		return i
	}
	return Block{First: 1000, Count: 3, Slots: 2,
		Inputs: []game.Input{
			in(1000, 1, 0, false), in(1000, 0, 0, false),
			in(1001, 1, 0, false), in(1001, -1, 1, true),
			in(1002, 1, 0, true), in(1002, -1, 1, true),
		},
		Events: []Event{
			{Kind: EventJoin, Tick: 1000, Slot: 1, Name: "bob"},
			{Kind: EventRound, Tick: 1003, Round: 1, Winner: 0, Scores: []uint16{1, 0}},
		},
		Checkpoints: []Checkpoint{{Tick: 1003, Chain: 0x1122334455667788}},
	}
}

// TestGoldenBytes pins the encoding of the sample header and block.
func TestGoldenBytes(t *testing.T) {
	h := sampleHeader()
	k := sampleBlock()
	for _, c := range []struct {
		name string
		got  []byte
		want string
	}{
		{"header", h.Append(nil), "5454524302" + "29" + "02" + "00000007" + "0102030405060708" + "02" + "15" + "0b" +
			"000003e8" + "05" + "3c" + "80e4ad950d" + "05302e312e30" + "03616e6e" + "03626f62" + "876abeb5"},
		{"block", k.Append(nil), "42" + "21" + "000003e8" + "03" + "03" + "0d622d" + "02" + "01000103626f62" + "040301000100" +
			"01" + "031122334455667788" + "b4d93858"},
	} {
		if hex.EncodeToString(c.got) != c.want {
			t.Errorf("%s:\n got %x\nwant %s", c.name, c.got, c.want)
		}
	}
}

// TestRoundTrip: Parse(Append(x)) == x, and Len() == len(Append(x)).
func TestRoundTrip(t *testing.T) {
	h := sampleHeader()
	b := h.Append(nil)
	if len(b) != h.Len() {
		t.Errorf("header Len %d, Append wrote %d", h.Len(), len(b))
	}
	h2, n, err := ParseHeader(b)
	if err != nil || n != len(b) || !reflect.DeepEqual(h, h2) {
		t.Errorf("header: parsed %+v, %d, %v; want %+v, %d", h2, n, err, h, len(b))
	}
	k := sampleBlock()
	b = k.Append(nil)
	if len(b) != k.Len() {
		t.Errorf("block Len %d, Append wrote %d", k.Len(), len(b))
	}
	k2, n, err := ParseBlock(b, 2)
	if err != nil || n != len(b) || !reflect.DeepEqual(k, k2) {
		t.Errorf("block: parsed %+v, %d, %v; want %+v, %d", k2, n, err, k, len(b))
	}
}

// TestTruncatedPrefixes: every strict prefix of a header or block fails
// with ErrShort, and never panics.
func TestTruncatedPrefixes(t *testing.T) {
	h := sampleHeader()
	b := h.Append(nil)
	for i := 0; i < len(b); i++ {
		if _, _, err := ParseHeader(b[:i]); !errors.Is(err, ErrShort) {
			t.Errorf("header prefix of %d bytes: %v, want ErrShort", i, err)
		}
	}
	k := sampleBlock()
	b = k.Append(nil)
	for i := 0; i < len(b); i++ {
		if _, _, err := ParseBlock(b[:i], 2); !errors.Is(err, ErrShort) {
			t.Errorf("block prefix of %d bytes: %v, want ErrShort", i, err)
		}
	}
}

// TestEveryBitFlipIsCaught: flipping any single bit of an encoded header
// or block makes it fail to parse (the checksum or the framing catches it).
func TestEveryBitFlipIsCaught(t *testing.T) {
	h := sampleHeader()
	k := sampleBlock()
	for _, c := range []struct {
		name  string
		b     []byte
		parse func([]byte) error
	}{
		{"header", h.Append(nil), func(b []byte) error { _, _, err := ParseHeader(b); return err }},
		{"block", k.Append(nil), func(b []byte) error { _, _, err := ParseBlock(b, 2); return err }},
	} {
		for bit := 0; bit < 8*len(c.b); bit++ {
			b := bytes.Clone(c.b)
			b[bit/8] ^= 1 << (bit % 8)
			if err := c.parse(b); err == nil {
				t.Errorf("%s with bit %d flipped parsed without error", c.name, bit)
			}
		}
	}
}

// TestChecksumErrorNamesTicks: a block whose body is intact but whose
// checksum fails reports its tick range.
func TestChecksumErrorNamesTicks(t *testing.T) {
	k := sampleBlock()
	b := k.Append(nil)
	b[len(b)-1] ^= 1
	_, _, err := ParseBlock(b, 2)
	var be *BlockError
	if !errors.As(err, &be) || !errors.Is(err, ErrChecksum) || !be.Ticks || be.First != 1000 || be.Count != 3 {
		t.Fatalf("got %v, want a checksum BlockError for ticks 1000..1002", err)
	}
}

var (
	matchOnce sync.Once
	matchFile []byte
)

// sharedMatch returns a recording of 3600 ticks of 4 seats with random
// inputs and seat changes, made once per test binary.
func sharedMatch(t testing.TB) []byte {
	matchOnce.Do(func() { matchFile = randomMatch(t, 4, 3600, true) })
	return matchFile
}

// TestEveryPrefixReadsBack cuts a recording at every block boundary, one
// byte either side of it, and at random offsets: the reader returns
// exactly the blocks that are complete in the prefix, then io.EOF at a
// boundary or a BlockError wrapping ErrShort at the offset of the cut
// block; a prefix shorter than the header fails with ErrShort.
func TestEveryPrefixReadsBack(t *testing.T) {
	file := sharedMatch(t)
	_, all, offs, err := readAll(file)
	if err != io.EOF {
		t.Fatal(err)
	}
	ends := append(offs[1:], int64(len(file)))
	cuts := []int{}
	for _, e := range append([]int64{offs[0]}, ends...) {
		cuts = append(cuts, int(e)-1, int(e), int(e)+1)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 300; i++ {
		cuts = append(cuts, rng.IntN(len(file)+1))
	}
	for _, cut := range cuts {
		if cut < 0 || cut > len(file) {
			continue
		}
		_, ks, _, err := readAll(file[:cut])
		if int64(cut) < offs[0] {
			if !errors.Is(err, ErrShort) {
				t.Errorf("cut at %d in the header: %v, want ErrShort", cut, err)
			}
			continue
		}
		complete := 0
		for complete < len(ends) && ends[complete] <= int64(cut) {
			complete++
		}
		if len(ks) != complete || (complete > 0 && !reflect.DeepEqual(ks[complete-1], all[complete-1])) {
			t.Errorf("cut at %d: read %d blocks, want the %d complete ones", cut, len(ks), complete)
			continue
		}
		atBoundary := complete == len(ends) || offs[complete] == int64(cut)
		var be *BlockError
		switch {
		case atBoundary && err != io.EOF:
			t.Errorf("cut at block boundary %d: %v, want io.EOF", cut, err)
		case !atBoundary && (!errors.As(err, &be) || !errors.Is(err, ErrShort) || be.Offset != offs[complete]):
			t.Errorf("cut at %d: %v, want ErrShort for the block at byte %d", cut, err, offs[complete])
		}
	}
	t.Logf("%d cuts of a %d-byte file of %d blocks", len(cuts), len(file), len(all))
}

// TestCorruptBlockIsNamed: a flipped bit inside a block's inputs makes
// the reader stop at that block with ErrChecksum, naming its offset and
// ticks, after returning every block before it.
func TestCorruptBlockIsNamed(t *testing.T) {
	file := bytes.Clone(sharedMatch(t))
	_, all, offs, _ := readAll(file)
	victim := len(all) / 2
	// The first input byte follows tag, length (1-2 bytes), first tick (4),
	// count (1) and input length (1-2): 12 bytes in is inside the inputs.
	file[offs[victim]+12] ^= 0x10
	_, ks, _, err := readAll(file)
	var be *BlockError
	if !errors.As(err, &be) || !errors.Is(err, ErrChecksum) || be.Offset != offs[victim] ||
		!be.Ticks || be.First != all[victim].First || be.Count != all[victim].Count || len(ks) != victim {
		t.Fatalf("got %d blocks and %v; want %d blocks and a checksum error for the block at byte %d (ticks %d..)",
			len(ks), err, victim, offs[victim], all[victim].First)
	}
	t.Log(err)
}
