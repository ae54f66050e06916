package proto

import (
	"encoding/binary"
	"fmt"

	"ttytanks/game"
)

// Input (client → server) carries the client's newest N inputs, for
// consecutive ticks, so that one lost datagram loses no input; inputs the
// server already has are ignored, so duplicates are harmless.
type Input struct {
	Header
	// ClientTime is the client's clock in milliseconds (wrapping) when it
	// sent the packet; the server echoes the newest one in Ack.EchoTime so
	// the client can measure the RTT.
	ClientTime uint16
	// N is the number of inputs in use, 1..MaxInputs (normally
	// DefaultRedundancy).
	N uint8
	// Inputs[:N] are for consecutive ascending ticks (wrapping);
	// Inputs[N-1] is the newest. Entries at and above N are zero.
	Inputs [MaxInputs]game.Input
}

const inputFixedLen = HeaderLen + 2 + 1 + 4

// Len returns the encoded size: 28 bytes plus 3 per input.
func (p *Input) Len() int { return inputFixedLen + 3*int(p.N) }

// Append appends the Input to b. It writes Inputs[0].Tick as the first
// tick; the ticks of the others are implied (see Validate). It panics if N
// > MaxInputs. Invalid moves or buttons are written as they are and the
// receiver rejects them.
func (p *Input) Append(b []byte) []byte { return p.AppendBody(p.appendAs(b, TypeInput)) }

// AppendBody appends the Input's body, what follows its header, to b.
func (p *Input) AppendBody(b []byte) []byte {
	b = binary.BigEndian.AppendUint16(b, p.ClientTime)
	b = append(b, p.N)
	b = binary.BigEndian.AppendUint32(b, uint32(p.Inputs[0].Tick))
	for _, in := range p.Inputs[:p.N] {
		b = append(b, byte(in.MoveX), byte(in.MoveY), byte(in.Buttons))
	}
	return b
}

// PacketType returns TypeInput.
func (*Input) PacketType() Type { return TypeInput }

// Validate reports whether p can be sent as it is: N in 1..MaxInputs
// (ErrTooManyInputs), Inputs[:N] for consecutive ascending ticks
// (ErrInputTicks), and valid moves (ErrMove) and buttons (ErrButtons).
// Entries at and above N are not sent; ParseInput leaves them zero.
// ParseInput's results always pass Validate.
func (p *Input) Validate() error {
	if p.N < 1 || p.N > MaxInputs {
		return ErrTooManyInputs
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

// ParseInput decodes an Input. It checks N (ErrTooManyInputs), the length,
// and every input's moves (ErrMove) and buttons (ErrButtons). It does not
// allocate.
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
	p.N = r.u8()
	if r.short {
		return Input{}, ErrShort
	}
	if p.N < 1 || p.N > MaxInputs {
		return Input{}, ErrTooManyInputs
	}
	tick := game.Tick(r.u32())
	raw := r.bytes(3 * int(p.N))
	if err := r.end(); err != nil {
		return Input{}, err
	}
	for i := range p.Inputs[:p.N] {
		in := game.Input{
			Tick:    tick.Add(int32(i)),
			MoveX:   int8(raw[3*i]),
			MoveY:   int8(raw[3*i+1]),
			Buttons: game.Buttons(raw[3*i+2]),
		}
		if err := checkInput(in); err != nil {
			return Input{}, err
		}
		p.Inputs[i] = in
	}
	return p, nil
}
