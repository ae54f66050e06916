package recording

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"

	"ttytanks/game"
)

// BlockTag opens every block.
const BlockTag = 'B'

// Limits on what a block may hold, so that a hostile file cannot make a
// reader allocate much: at most MaxBlockLen bytes are read for one block,
// and it decodes to at most MaxBlockTicks×game.MaxPlayers inputs.
const (
	// MaxBlockLen bounds a block's body, in bytes.
	MaxBlockLen = 1 << 16
	// MaxBlockTicks bounds the ticks one block covers.
	MaxBlockTicks = 3600
	// MaxEvents bounds the events in one block.
	MaxEvents = 256
)

// Block is a run of consecutive ticks of a match: the inputs of every seat
// for each tick, the events between them and the hash checkpoints. A file
// is a Header followed by blocks, each starting at the tick the previous
// one ended.
type Block struct {
	// First is the block's first tick; Count the number of ticks (0 for a
	// block of events only).
	First game.Tick
	Count int
	// Slots is the number of seats (the header's); it is not encoded.
	Slots int
	// Inputs holds Count×Slots inputs, tick by tick, seat by seat; each
	// input's Tick is its tick and its fields are clamped
	// (game.Input.Clamped).
	Inputs []game.Input
	// Events are in tick order; several may share a tick.
	Events []Event
	// Checkpoints are in ascending tick order, each within
	// First+1..First+Count.
	Checkpoints []Checkpoint
}

// Input returns the inputs of tick First+i, one per seat. It shares
// memory with k.Inputs.
func (k *Block) Input(i int) []game.Input {
	return k.Inputs[i*k.Slots : (i+1)*k.Slots]
}

// Checkpoint is the hash chain value of the world as it is at Tick, after
// stepping Tick−1: Chain(previous checkpoint's Chain, Tick, world hash).
type Checkpoint struct {
	Tick  game.Tick
	Chain uint64
}

// Chain folds a world hash at tick t into the chain value prev of the
// previous checkpoint (0 for a recording's first): FNV-1a over prev, t and
// hash, each big-endian. Dropping, reordering or altering any checkpoint
// changes every later value.
func Chain(prev uint64, t game.Tick, hash uint64) uint64 {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	var buf [20]byte
	binary.BigEndian.PutUint64(buf[0:], prev)
	binary.BigEndian.PutUint32(buf[8:], uint32(t))
	binary.BigEndian.PutUint64(buf[12:], hash)
	for _, c := range buf {
		h = (h ^ uint64(c)) * prime
	}
	return h
}

// bodyLen returns the length of the block's body in bytes.
func (k *Block) bodyLen() int {
	ib := (inputBits(k.Inputs, k.Slots) + 7) / 8
	n := 4 + uvarintLen(uint64(k.Count)) + uvarintLen(uint64(ib)) + ib
	n += uvarintLen(uint64(len(k.Events)))
	for i := range k.Events {
		n += k.Events[i].len(k.First)
	}
	n += uvarintLen(uint64(len(k.Checkpoints)))
	for _, c := range k.Checkpoints {
		n += uvarintLen(uint64(c.Tick.Diff(k.First))) + 8
	}
	return n
}

// Len returns the number of bytes Append writes.
func (k *Block) Len() int {
	n := k.bodyLen()
	return 1 + uvarintLen(uint64(n)) + n + 4
}

// Append appends the encoded block to b: BlockTag, the body's length, the
// body and a CRC-32C of everything before it. The block must be valid
// (what ParseBlock accepts); Append does not check it.
func (k *Block) Append(b []byte) []byte {
	start := len(b)
	b = append(b, BlockTag)
	b = binary.AppendUvarint(b, uint64(k.bodyLen()))
	b = binary.BigEndian.AppendUint32(b, uint32(k.First))
	b = binary.AppendUvarint(b, uint64(k.Count))
	b = binary.AppendUvarint(b, uint64((inputBits(k.Inputs, k.Slots)+7)/8))
	b = appendInputs(b, k.Inputs, k.Slots)
	b = binary.AppendUvarint(b, uint64(len(k.Events)))
	for i := range k.Events {
		b = k.Events[i].append(b, k.First)
	}
	b = binary.AppendUvarint(b, uint64(len(k.Checkpoints)))
	for _, c := range k.Checkpoints {
		b = binary.AppendUvarint(b, uint64(c.Tick.Diff(k.First)))
		b = binary.BigEndian.AppendUint64(b, c.Chain)
	}
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b[start:], castagnoli))
}

// blockFrame returns the length of the body of the block at the start of
// b and the offset of the body, checking only the tag and length.
func blockFrame(b []byte) (body, at int, err error) {
	p := parser{b: b}
	if p.byte() != BlockTag && p.err == nil {
		return 0, 0, ErrTag
	}
	n := p.uvarintMax(MaxBlockLen)
	return n, p.i, p.err
}

// ParseBlock decodes the block at the start of b for a match of slots
// seats and returns it with the number of bytes it took. A block whose
// checksum fails is still decoded as far as possible, so the error can name
// its ticks; the error is then a *BlockError (Offset 0) wrapping
// ErrChecksum. Other failures wrap ErrShort, ErrTag, ErrTooLarge or
// ErrMalformed.
func ParseBlock(b []byte, slots int) (Block, int, error) {
	k := Block{Slots: slots}
	if slots < 1 || slots > game.MaxPlayers {
		return k, 0, fmt.Errorf("%w: %d slots", ErrMalformed, slots)
	}
	n, at, err := blockFrame(b)
	if err != nil {
		return k, 0, err
	}
	end := at + n
	if end+4 > len(b) {
		return k, 0, ErrShort
	}
	crcOK := crc32.Checksum(b[:end], castagnoli) == binary.BigEndian.Uint32(b[end:])
	err = k.parseBody(b[at:end])
	if !crcOK {
		e := &BlockError{Err: ErrChecksum}
		if err == nil || k.Count > 0 {
			e.First, e.Count, e.Ticks = k.First, k.Count, true
		}
		return k, 0, e
	}
	if err != nil {
		return k, 0, err
	}
	return k, end + 4, nil
}

// parseBody decodes a block's body. It sets First and Count as soon as
// they are read, even if a later field fails.
func (k *Block) parseBody(b []byte) error {
	p := parser{b: b}
	first := game.Tick(p.uint32())
	count := p.uvarintMax(MaxBlockTicks)
	if p.err != nil {
		return p.err
	}
	k.First, k.Count = first, count
	nb := p.uvarintMax(len(b))
	if !p.need(nb) {
		return p.err
	}
	in, err := parseInputs(b[p.i:p.i+nb], first, count, k.Slots)
	if err != nil {
		return err
	}
	k.Inputs = in
	p.i += nb
	ne := p.uvarintMax(MaxEvents)
	if ne > 0 {
		k.Events = make([]Event, 0, min(ne, len(b)))
	}
	last := 0
	for i := 0; i < ne && p.err == nil; i++ {
		e, off := parseEvent(&p, first, count, k.Slots)
		if p.err == nil && off < last {
			p.err = fmt.Errorf("%w: events out of tick order", ErrMalformed)
		}
		last = off
		k.Events = append(k.Events, e)
	}
	nc := p.uvarintMax(count)
	if nc > 0 {
		k.Checkpoints = make([]Checkpoint, 0, nc)
	}
	last = 0
	for i := 0; i < nc && p.err == nil; i++ {
		off := p.uvarintMax(count)
		chain := p.uint64()
		if p.err == nil && off <= last {
			p.err = fmt.Errorf("%w: checkpoint at offset %d after %d", ErrMalformed, off, last)
		}
		last = off
		k.Checkpoints = append(k.Checkpoints, Checkpoint{Tick: first.Add(int32(off)), Chain: chain})
	}
	if p.err != nil {
		return p.err
	}
	if p.i != len(b) {
		return fmt.Errorf("%w: %d bytes left over in a block", ErrMalformed, len(b)-p.i)
	}
	return nil
}

// checkName fails p unless s is a name a recording may hold.
func checkName(p *parser, s string) {
	if p.err == nil && !validName(s) {
		p.err = fmt.Errorf("%w: name %q", ErrMalformed, s)
	}
}
