package recording

import (
	"bufio"

	"errors"
	"fmt"
	"io"

	"ttytanks/game"
)

// Reader reads a recording block by block from an io.Reader. It reads at
// most MaxBlockLen bytes for one block whatever the input claims, and it
// never panics. A Reader is not safe for concurrent use.
type Reader struct {
	r     *bufio.Reader
	h     Header
	off   int64     // offset of the next block
	next  game.Tick // first tick of the next block
	ended bool      // an EventEnd was read
	buf   []byte
	err   error // sticky
}

// NewReader reads the header of a recording from r.
func NewReader(r io.Reader) (*Reader, error) {
	rd := &Reader{r: bufio.NewReader(r)}
	b, err := rd.frame(len(Magic)+1, MaxHeaderLen)
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			err = ErrShort
		}
		if len(b) >= len(Magic) && string(b[:len(Magic)]) != Magic {
			err = ErrMagic
		}
		return nil, fmt.Errorf("recording: header: %w", err)
	}
	h, n, err := ParseHeader(b)
	if err != nil {
		return nil, fmt.Errorf("recording: %w", err)
	}
	rd.h, rd.off, rd.next = h, int64(n), h.Start
	return rd, nil
}

// frame reads prefix bytes, a uvarint length of at most max, that many
// bytes and a 4-byte checksum, and returns them all (in rd.buf). It stops
// early on the first read error, returning what it read.
func (rd *Reader) frame(prefix, max int) ([]byte, error) {
	b := rd.buf[:0]
	for len(b) < prefix {
		c, err := rd.r.ReadByte()
		if err != nil {
			return b, err
		}
		b = append(b, c)
		if len(b) == len(Magic) && prefix > len(Magic) && string(b) != Magic {
			return b, ErrMagic
		}
	}
	var n uint64
	for shift := 0; ; shift += 7 {
		c, err := rd.r.ReadByte()
		if err != nil {
			return b, err
		}
		b = append(b, c)
		if shift > 56 {
			return b, ErrTooLarge
		}
		n |= uint64(c&0x7f) << shift
		if c < 0x80 {
			break
		}
	}
	if n > uint64(max) {
		return b, fmt.Errorf("%w: %d bytes", ErrTooLarge, n)
	}
	at := len(b)
	b = append(b, make([]byte, int(n)+4)...)
	rd.buf = b
	m, err := io.ReadFull(rd.r, b[at:])
	return b[:at+m], err
}

// Header returns the recording's header.
func (rd *Reader) Header() Header { return rd.h }

// Offset returns the byte offset in the file of the next block.
func (rd *Reader) Offset() int64 { return rd.off }

// Next reads the next block. It returns io.EOF at the end of the file
// when the file ends exactly after a block. Otherwise every error is a
// *BlockError naming the block's offset: wrapping ErrShort for a block
// cut off by the end of the file (as a server that stopped mid-write
// leaves it), ErrChecksum for corrupted bytes, ErrSequence for a block
// that does not start at the tick the previous one ended, or after the
// match's end, and ErrTag, ErrTooLarge or ErrMalformed otherwise. Errors
// stick. The block's Inputs, Events and Checkpoints are its own.
func (rd *Reader) Next() (Block, error) {
	if rd.err != nil {
		return Block{}, rd.err
	}
	k, err := rd.next1()
	if err != nil {
		if err != io.EOF {
			be := &BlockError{Offset: rd.off, Err: err}
			if errors.As(err, &be) {
				be.Offset = rd.off
			}
			err = be
		}
		rd.err = err
	}
	return k, err
}

func (rd *Reader) next1() (Block, error) {
	if _, err := rd.r.Peek(1); err == io.EOF {
		return Block{}, io.EOF
	}
	b, err := rd.frame(1, MaxBlockLen)
	switch {
	case len(b) > 0 && b[0] != BlockTag:
		return Block{}, ErrTag
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return Block{}, fmt.Errorf("%w: the file ends %d bytes into the block", ErrShort, len(b))
	case err != nil:
		return Block{}, err
	}
	k, n, err := ParseBlock(b, rd.h.Slots)
	if err != nil {
		return k, err
	}
	if rd.ended || k.First != rd.next {
		return k, &BlockError{First: k.First, Count: k.Count, Ticks: true,
			Err: fmt.Errorf("%w: block starts at tick %d, expected %d", ErrSequence, k.First, rd.next)}
	}
	for i := range k.Events {
		if k.Events[i].Kind == EventEnd && i != len(k.Events)-1 {
			return k, &BlockError{First: k.First, Count: k.Count, Ticks: true,
				Err: fmt.Errorf("%w: events after the match's end", ErrSequence)}
		}
		if k.Events[i].Kind == EventEnd {
			rd.ended = true
		}
	}
	rd.off += int64(n)
	rd.next = k.First.Add(int32(k.Count))
	return k, nil
}
