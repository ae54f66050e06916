package recording

import (
	"fmt"

	"ttytanks/game"
)

// The inputs of a block are a bit stream, least significant bit first in
// each byte. For each tick, for each seat: one bit, set when the seat's
// input differs from its input of the previous tick (the neutral input
// before a block's first tick); when set, the new input follows in
// inputWidth bits: MoveX+1 (2 bits), MoveY+1 (2 bits), fire (1 bit),
// rematch (1 bit). The last byte is padded with zero bits.
const inputWidth = 6

// inputCode returns the 6-bit code of a clamped input.
func inputCode(in game.Input) uint8 {
	c := uint8(in.MoveX+1) | uint8(in.MoveY+1)<<2
	if in.Fire() {
		c |= 1 << 4
	}
	if in.Rematch() {
		c |= 1 << 5
	}
	return c
}

// sameInput reports whether a and b are equal apart from their ticks.
func sameInput(a, b game.Input) bool {
	return a.MoveX == b.MoveX && a.MoveY == b.MoveY && a.Buttons == b.Buttons
}

// inputBits returns the number of bits appendInputs writes.
func inputBits(in []game.Input, slots int) int {
	n := len(in)
	for i := range in {
		prev := game.Input{}
		if i >= slots {
			prev = in[i-slots]
		}
		if !sameInput(in[i], prev) {
			n += inputWidth
		}
	}
	return n
}

// appendInputs appends the bit stream of in (tick-major, slots per tick).
func appendInputs(b []byte, in []game.Input, slots int) []byte {
	w := bitWriter{b: b}
	for i := range in {
		prev := game.Input{}
		if i >= slots {
			prev = in[i-slots]
		}
		if sameInput(in[i], prev) {
			w.write(0, 1)
			continue
		}
		w.write(1, 1)
		w.write(inputCode(in[i]), inputWidth)
	}
	return w.b
}

// parseInputs decodes count ticks of slots inputs from b, which must be
// exactly the bit stream with zero padding. Each decoded input is valid.
func parseInputs(b []byte, first game.Tick, count, slots int) ([]game.Input, error) {
	if len(b) > (count*slots*(1+inputWidth)+7)/8 {
		return nil, fmt.Errorf("%w: %d bytes of inputs for %d ticks", ErrTooLarge, len(b), count)
	}
	// Every tick costs at least slots bits, so count is bounded by the
	// bytes present before anything is allocated.
	if count*slots > len(b)*8 {
		return nil, fmt.Errorf("%w: %d bytes of inputs for %d ticks", ErrShort, len(b), count)
	}
	if count == 0 {
		return nil, nil
	}
	out := make([]game.Input, count*slots)
	r := bitReader{b: b}
	for i := range out {
		var prev game.Input
		if i >= slots {
			prev = out[i-slots]
		}
		in := prev
		in.Tick = first.Add(int32(i / slots))
		if r.read(1) == 1 {
			c := r.read(inputWidth)
			mx, my := c&3, c>>2&3
			if mx == 3 || my == 3 {
				return nil, fmt.Errorf("%w: input code %#x", ErrMalformed, c)
			}
			in.MoveX, in.MoveY, in.Buttons = int8(mx)-1, int8(my)-1, game.Buttons(c>>4) // fire, rematch
			if sameInput(in, prev) && !r.over {
				return nil, fmt.Errorf("%w: input marked changed but equal", ErrMalformed)
			}
		}
		if r.over {
			return nil, fmt.Errorf("inputs: %w", ErrShort)
		}
		out[i] = in
	}
	if !r.paddingClean() {
		return nil, fmt.Errorf("%w: input padding", ErrMalformed)
	}
	return out, nil
}
