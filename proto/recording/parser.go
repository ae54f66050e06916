package recording

import (
	"encoding/binary"
	"fmt"
)

// parser reads fields from b at i. The first failure sticks in err and
// every later read returns zero, so a decoder checks err once per group of
// fields. It never reads beyond b.
type parser struct {
	b   []byte
	i   int
	err error
}

func (p *parser) need(n int) bool {
	if p.err != nil {
		return false
	}
	if n > len(p.b)-p.i {
		p.err = ErrShort
		return false
	}
	return true
}

func (p *parser) byte() uint8 {
	if !p.need(1) {
		return 0
	}
	p.i++
	return p.b[p.i-1]
}

func (p *parser) uint32() uint32 {
	if !p.need(4) {
		return 0
	}
	p.i += 4
	return binary.BigEndian.Uint32(p.b[p.i-4:])
}

func (p *parser) uint64() uint64 {
	if !p.need(8) {
		return 0
	}
	p.i += 8
	return binary.BigEndian.Uint64(p.b[p.i-8:])
}

func (p *parser) uvarint() uint64 {
	if p.err != nil {
		return 0
	}
	v, n := binary.Uvarint(p.b[p.i:])
	switch {
	case n == 0:
		p.err = ErrShort
		return 0
	case n < 0 || n != uvarintLen(v):
		p.err = fmt.Errorf("%w: varint overflows or is not minimal", ErrMalformed)
		return 0
	}
	p.i += n
	return v
}

// uvarintMax reads a uvarint and fails with ErrTooLarge above max.
func (p *parser) uvarintMax(max int) int {
	v := p.uvarint()
	if p.err == nil && v > uint64(max) {
		p.err = fmt.Errorf("%w: %d > %d", ErrTooLarge, v, max)
		return 0
	}
	return int(v)
}

func (p *parser) varint() int64 {
	u := p.uvarint()
	return int64(u>>1) ^ -int64(u&1)
}

// string reads a length byte and that many bytes, at most max.
func (p *parser) string(max int) string {
	n := int(p.byte())
	if p.err == nil && n > max {
		p.err = fmt.Errorf("%w: string of %d bytes > %d", ErrTooLarge, n, max)
	}
	if !p.need(n) {
		return ""
	}
	p.i += n
	return string(p.b[p.i-n : p.i])
}

func appendString(b []byte, s string) []byte {
	return append(append(b, uint8(len(s))), s...)
}

func uvarintLen(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

func varintLen(v int64) int {
	u := uint64(v) << 1
	if v < 0 {
		u = ^u
	}
	return uvarintLen(u)
}
