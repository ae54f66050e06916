package proto

import (
	"encoding/binary"
	"fmt"

	"ttytanks/game"
)

// Input (client → server) carries the client's newest N inputs, for
// consecutive ticks, so that one lost datagram loses no input; inputs the
// server already has are ignored, so duplicates are harmless. It also
// names the newest State the client holds, which the server may send its
// next States as a delta against (State.Back).
type Input struct {
	Header
	// ClientTime is the client's clock in milliseconds (wrapping) when it
	// sent the packet; the server echoes the newest one in Ack.EchoTime so
	// the client can measure the RTT.
	ClientTime uint16
	// N is the number of inputs in use, 1..MaxInputs (normally
	// DefaultRedundancy).
	N uint8
	// HasBase says Base is set: the client holds the snapshot of the State
	// of tick Base, exactly as the server sent it (or as its delta
	// rebuilt it), and the server may send a State as a delta against it.
	HasBase bool
	// Base is the tick of that State; zero when HasBase is false.
	Base game.Tick
	// Inputs[:N] are for consecutive ascending ticks (wrapping);
	// Inputs[N-1] is the newest. Entries at and above N are zero.
	Inputs [MaxInputs]game.Input
}

// inputFixedLen is the header, client time u16, n u8, first tick u32 and
// base u32.
const inputFixedLen = HeaderLen + 2 + 1 + 4 + 4

// inputHasBase is the bit of the n byte that says the base field is set.
const inputHasBase = 0x80

// Len returns the encoded size: 32 bytes plus 1 per input.
func (p *Input) Len() int { return inputFixedLen + int(p.N) }

// Append appends the Input to b. It writes Inputs[0].Tick as the first
// tick; the ticks of the others are implied (see Validate). It panics if N
// > MaxInputs. Invalid moves or buttons are written as they are packed
// (PackInput) and the receiver rejects them.
func (p *Input) Append(b []byte) []byte { return p.AppendBody(p.appendAs(b, TypeInput)) }

// AppendBody appends the Input's body, what follows its header, to b.
func (p *Input) AppendBody(b []byte) []byte {
	b = binary.BigEndian.AppendUint16(b, p.ClientTime)
	n := p.N
	var base game.Tick
	if p.HasBase {
		n |= inputHasBase
		base = p.Base
	}
	b = append(b, n)
	b = binary.BigEndian.AppendUint32(b, uint32(p.Inputs[0].Tick))
	b = binary.BigEndian.AppendUint32(b, uint32(base))
	for _, in := range p.Inputs[:p.N] {
		b = append(b, PackInput(in))
	}
	return b
}

// PacketType returns TypeInput.
func (*Input) PacketType() Type { return TypeInput }

// Validate reports whether p can be sent as it is: N in 1..MaxInputs
// (ErrTooManyInputs), Inputs[:N] for consecutive ascending ticks
// (ErrInputTicks), valid moves (ErrMove) and buttons (ErrButtons), and no
// Base without HasBase (ErrFlags). Entries at and above N are not sent;
// ParseInput leaves them zero. ParseInput's results always pass Validate.
func (p *Input) Validate() error {
	if p.N < 1 || p.N > MaxInputs {
		return ErrTooManyInputs
	}
	if !p.HasBase && p.Base != 0 {
		return ErrFlags
	}
	first := p.Inputs[0].Tick
	for i, in := range p.Inputs[:p.N] {
		if in.Tick != first.Add(int32(i)) {
			return fmt.Errorf("%w: input %d is for tick %d, want %d", ErrInputTicks, i, in.Tick, first.Add(int32(i)))
		}
		if err := checkInput(in); err != nil {
			return err
		}
	}
	return nil
}

func checkInput(in game.Input) error {
	if in.MoveX < -1 || in.MoveX > 1 || in.MoveY < -1 || in.MoveY > 1 {
		return ErrMove
	}
	if in.Buttons&^game.ButtonMask != 0 {
		return ErrButtons
	}
	return nil
}

// An input travels as one byte, in Input packets and in a delta State's
// runs: bits 0–1 move x and bits 2–3 move y, each a two-bit two's
// complement (00 0, 01 +1, 11 −1; 10 is invalid), bits 4–5 the buttons
// (bit 4 fire, bit 5 rematch). Bits 6 and 7 are not the input's: an Input
// packet requires them zero, a run uses bit 7 (runLast).
const (
	packedMoveX   = 0x03
	packedMoveY   = 0x0c
	packedButtons = 0x30
	packedInput   = packedMoveX | packedMoveY | packedButtons
)

// PackInput returns in's byte. Moves outside {−1, 0, 1} and buttons
// outside game.ButtonMask are truncated to their bits; UnpackInput
// rejects what they become or reads another input, so validate first.
func PackInput(in game.Input) byte {
	return byte(in.MoveX)&3 | (byte(in.MoveY)&3)<<2 | (byte(in.Buttons)&3)<<4
}

// UnpackInput decodes an input byte for tick t. It rejects a move of bits
// 10 (ErrMove) and bits 6–7 set (ErrButtons).
func UnpackInput(b byte, t game.Tick) (game.Input, error) {
	if b&^packedInput != 0 {
		return game.Input{}, ErrButtons
	}
	if b&packedMoveX == 2 || b&packedMoveY == 8 {
		return game.Input{}, ErrMove
	}
	return game.Input{Tick: t, MoveX: int8(b<<6) >> 6, MoveY: int8(b<<4) >> 6, Buttons: game.Buttons(b >> 4)}, nil
}

// ParseInput decodes an Input. It checks N (ErrTooManyInputs), the flag
// bits of the n byte (ErrFlags), the length, and every input's moves
// (ErrMove) and buttons (ErrButtons). It does not allocate.
func ParseInput(b []byte) (Input, error) {
	h, err := ParseHeader(b)
	if err != nil {
		return Input{}, err
	}
	return ParseInputBody(h, b[HeaderLen:])
}

// ParseInputBody decodes the body b of an Input, what follows its header h:
// the rest of a clear datagram, or the opened body of a sealed one.
func ParseInputBody(h Header, b []byte) (Input, error) {
	if err := h.want(TypeInput); err != nil {
		return Input{}, err
	}
	r := reader{b: b}
	p := Input{Header: h}
	p.ClientTime = r.u16()
	n := r.u8()
	if r.short {
		return Input{}, ErrShort
	}
	if n&^(inputHasBase|0x0f) != 0 {
		return Input{}, ErrFlags
	}
	p.N, p.HasBase = n&0x0f, n&inputHasBase != 0
	if p.N < 1 || p.N > MaxInputs {
		return Input{}, ErrTooManyInputs
	}
	tick := game.Tick(r.u32())
	base := game.Tick(r.u32())
	raw := r.bytes(int(p.N))
	if err := r.end(); err != nil {
		return Input{}, err
	}
	if p.HasBase {
		p.Base = base
	} else if base != 0 {
		return Input{}, ErrFlags
	}
	for i := range p.Inputs[:p.N] {
		in, err := UnpackInput(raw[i], tick.Add(int32(i)))
		if err != nil {
			return Input{}, err
		}
		p.Inputs[i] = in
	}
	return p, nil
}
