package proto

import (
	"bufio"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"ttytanks/game"
)

// This file implements the state hash from PROTOCOL.md §9 alone, reading
// the fields of a State datagram at the offsets of §5.7. It must not call
// game.Hash or any hashing helper of package game except to cross-check:
// the point is that a reader of the document computes the same hash as
// the code, so a drift of either the document or game.Hash fails here.

// docStateHashWords returns the words of §9.2 for the State datagram b,
// decoded from its bytes.
func docStateHashWords(t testing.TB, b []byte) []uint64 {
	t.Helper()
	const fixed = 75 // §5.7: the tanks start at offset 75
	if len(b) < fixed {
		t.Fatalf("State of %d bytes, want at least %d", len(b), fixed)
	}
	if b[47] != 0 {
		t.Fatalf("a delta State (back %d): the hash words need a full one", b[47])
	}
	slots, bullets := int(b[56]), int(b[57])
	u16 := func(o int) uint64 { return uint64(binary.BigEndian.Uint16(b[o:])) }
	// A signed i8 sign-extended to 32 bits, as those 32 bits.
	vel := func(o int) uint64 { return uint64(uint32(int32(int8(b[o])))) }
	// A two-bit two's-complement aim, as an 8-bit two's complement.
	aim := func(v byte) uint64 {
		switch v & 3 {
		case 0:
			return 0x00
		case 1:
			return 0x01
		case 3:
			return 0xff
		}
		t.Fatalf("aim bits 10 in a State")
		return 0
	}
	bit := func(v byte, mask byte) uint64 {
		if v&mask != 0 {
			return 1
		}
		return 0
	}

	w := []uint64{
		uint64(binary.BigEndian.Uint32(b[21:])), // tick
		binary.BigEndian.Uint64(b[48:]),         // rng
		uint64(b[56]) | uint64(b[74])<<8,        // slots, rounds to win
		u16(58) | uint64(b[60])<<16 | u16(61)<<24 | uint64(b[63])<<40 | // round
			uint64(b[72])<<48 | uint64(b[73])<<56,
		binary.BigEndian.Uint64(b[64:]), // maze seed
	}
	// Tank i starts where tank i-1 ended: 12 bytes, and 8 more of stats
	// when it is seated (flags bit 5).
	o := fixed
	for i := 0; i < slots; i++ {
		if len(b) < o+12 {
			t.Fatalf("State of %d bytes ends inside tank %d", len(b), i)
		}
		f := b[o+6]
		w = append(w,
			u16(o)|u16(o+2)<<32,
			vel(o+4)|vel(o+5)<<32,
			aim(f)|aim(f>>2)<<8|uint64(b[o+7])<<16|uint64(b[o+8])<<24|uint64(b[o+9])<<32|
				bit(f, 0x10)<<40|bit(f, 0x20)<<41|bit(f, 0x40)<<42|u16(o+10)<<48)
		o += 12
		stats := uint64(0) // an unseated tank has none: zero
		if f&0x20 != 0 {
			if len(b) < o+8 {
				t.Fatalf("State of %d bytes ends inside tank %d's stats", len(b), i)
			}
			stats = u16(o) | u16(o+2)<<16 | u16(o+4)<<32 | u16(o+6)<<48
			o += 8
		}
		w = append(w, stats)
	}
	if want := o + 8*bullets; len(b) != want {
		t.Fatalf("State of %d bytes, want %d for %d slots and %d bullets", len(b), want, slots, bullets)
	}
	w = append(w, uint64(b[57])) // bullets
	for k := 0; k < bullets; k++ {
		ob := b[o+6]
		w = append(w,
			u16(o)|u16(o+2)<<32,
			vel(o+4)|vel(o+5)<<32,
			uint64(ob&7)|uint64(ob>>3&7)<<8|uint64(b[o+7])<<16)
		o += 8
	}
	return w
}

// docFold folds words as §9.1 says, returning h after each word and the
// hash (fmix64 of the last h).
func docFold(words []uint64) (steps []uint64, hash uint64) {
	h := uint64(0xcbf29ce484222325)
	for _, w := range words {
		h = (h ^ w) * 0x00000100000001b3
		steps = append(steps, h)
	}
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return steps, h
}

// docStateHash is the hash of the State datagram b by §9.
func docStateHash(t testing.TB, b []byte) uint64 {
	_, h := docFold(docStateHashWords(t, b))
	return h
}

// docHashTable is the worked example of §9.3: the words with h after each,
// and the hash.
type docHashTable struct {
	line         int // of the marker
	words, steps []uint64
	hash         uint64
}

// readDocHashTable reads the block after the "<!-- hash words: ... -->"
// marker of PROTOCOL.md: lines "word h" of 16 hex digits each, then one
// line with the hash alone; "#" starts a comment.
func readDocHashTable(t *testing.T) docHashTable {
	t.Helper()
	f, err := os.Open("../PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	var tab docHashTable
	for sc.Scan() {
		n++
		if strings.HasPrefix(sc.Text(), "<!-- hash words:") {
			tab.line = n
			break
		}
	}
	if tab.line == 0 {
		t.Fatal("PROTOCOL.md has no <!-- hash words: ... --> block")
	}
	hex64 := func(s string) uint64 {
		v, err := strconv.ParseUint(s, 16, 64)
		if len(s) != 16 || err != nil {
			t.Fatalf("PROTOCOL.md:%d: %q is not 16 hex digits", n, s)
		}
		return v
	}
	if !sc.Scan() || sc.Text() != "```text" {
		t.Fatalf("PROTOCOL.md:%d: the hash words marker is not followed by a ```text block", tab.line)
	}
	n++
	haveHash := false
	for {
		if !sc.Scan() {
			t.Fatalf("PROTOCOL.md:%d: unterminated hash words block", tab.line)
		}
		n++
		l := sc.Text()
		if l == "```" {
			break
		}
		if i := strings.IndexByte(l, '#'); i >= 0 {
			l = l[:i]
		}
		fs := strings.Fields(l)
		switch {
		case len(fs) == 0:
		case haveHash:
			t.Fatalf("PROTOCOL.md:%d: a line after the hash", n)
		case len(fs) == 2:
			tab.words = append(tab.words, hex64(fs[0]))
			tab.steps = append(tab.steps, hex64(fs[1]))
		case len(fs) == 1:
			tab.hash, haveHash = hex64(fs[0]), true
		default:
			t.Fatalf("PROTOCOL.md:%d: want \"word h\" or the hash alone, got %q", n, l)
		}
	}
	if !haveHash {
		t.Fatalf("PROTOCOL.md:%d: the hash words block ends without the hash", tab.line)
	}
	return tab
}

// TestDocStateHashExample checks the worked example of PROTOCOL.md §9.3
// against the State example of §5.7: the words computed from its bytes,
// h after each, the hash, and the State's hash field all agree.
func TestDocStateHashExample(t *testing.T) {
	var state []byte
	for _, ex := range readDocExamples(t) {
		if ex.name == "State" {
			state = ex.data
		}
	}
	if state == nil {
		t.Fatal("PROTOCOL.md has no State example")
	}
	tab := readDocHashTable(t)
	words := docStateHashWords(t, state)
	if len(words) != len(tab.words) {
		t.Fatalf("PROTOCOL.md:%d: the table has %d words, the State example gives %d", tab.line, len(tab.words), len(words))
	}
	for i := range words {
		if words[i] != tab.words[i] {
			t.Errorf("PROTOCOL.md:%d: word %d is %016x in the table, %016x from the State example", tab.line, i+1, tab.words[i], words[i])
		}
	}
	steps, hash := docFold(tab.words)
	for i := range steps {
		if steps[i] != tab.steps[i] {
			t.Errorf("PROTOCOL.md:%d: h after word %d is %016x in the table, folding gives %016x", tab.line, i+1, tab.steps[i], steps[i])
		}
	}
	if hash != tab.hash {
		t.Errorf("PROTOCOL.md:%d: the table's hash is %016x, fmix64 of its last h gives %016x", tab.line, tab.hash, hash)
	}
	if field := binary.BigEndian.Uint64(state[37:]); field != tab.hash {
		t.Errorf("PROTOCOL.md:%d: the table's hash is %016x, the State example's hash field %016x", tab.line, tab.hash, field)
	}
}

// TestDocStateHashMatchesGame computes the hash of §9 from the encoded
// State of many snapshots, random ones at the edges of every range and
// those of real matches (with seats freed and retaken), and requires
// game.Hash of each.
func TestDocStateHashMatchesGame(t *testing.T) {
	check := func(what string, s *game.Snapshot) {
		t.Helper()
		if err := s.Validate(); err != nil {
			t.Fatalf("%s: the test built an invalid snapshot: %v", what, err)
		}
		p := State{Header: testHeader(TypeState), AckInfo: testAckInfo(), Snapshot: *s}
		b := p.Append(nil)
		if got, want := docStateHash(t, b), game.Hash(s); got != want {
			t.Fatalf("%s: PROTOCOL.md §9 gives %016x, game.Hash %016x, for\n%+v", what, got, want, *s)
		}
	}
	r := rand.New(rand.NewPCG(10, 9))
	for i := 0; i < 20000; i++ {
		s := randomSnapshot(r)
		check("random snapshot", &s)
	}
	for _, slots := range []int{1, 2, 3, 8} {
		w, err := game.NewWorld(game.Config{Slots: slots, Seed: uint64(slots) * 77, MazeW: 11, MazeH: 9, StartTick: 0xfffff000, Rounds: 2})
		if err != nil {
			t.Fatal(err)
		}
		in := make([]game.Input, slots)
		bullets := 0
		for k := 0; k < 6000; k++ {
			if k%700 == 350 {
				i := r.IntN(slots)
				w.Seat(i, !w.State().Tanks[i].Seated) // a seat freed, or taken mid-round
			}
			for i := range in {
				in[i] = game.Input{Tick: w.Tick(), MoveX: int8(r.IntN(3) - 1), MoveY: int8(r.IntN(3) - 1)}
				if r.IntN(3) == 0 {
					in[i].Buttons = game.ButtonFire
				}
				if r.IntN(50) == 0 {
					in[i].Buttons |= game.ButtonRematch
				}
			}
			w.Step(in)
			check("world", w.State())
			bullets = max(bullets, int(w.State().NumBullets))
		}
		if bullets == 0 {
			t.Errorf("%d slots: no bullet was ever in flight; the test covers too little", slots)
		}
	}
}
