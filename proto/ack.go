package proto

import (
	"encoding/binary"

	"ttytanks/game"
)

// AckInfo is what the server reports to one player every tick, in an Ack
// or in the State that replaces it.
type AckInfo struct {
	// ServerTick is the server world's tick after its step (World.Tick()):
	// the tick whose inputs the server consumes next.
	ServerTick game.Tick
	// NewestInput is the newest input tick received from this player.
	NewestInput game.Tick
	// MarginMs is how many milliseconds before (positive) or after
	// (negative) the server needed it that input arrived.
	MarginMs int16
	// EchoTime is the ClientTime of the newest Input datagram received
	// from this player.
	EchoTime uint16
	// EchoDelay is the time between receiving that datagram and sending
	// this one, in units of 10 µs, saturating at 0xFFFF.
	EchoDelay uint16
	// Received counts the Input datagrams received from this player so far
	// (wrapping).
	Received uint16
	// Guessed counts the ticks the server has stepped with a guess for
	// this player's input (its last one held, or neutral) since the player
	// took the seat, wrapping; zero for spectators.
	Guessed uint16
}

// ackInfoLen is the encoded size of AckInfo with the hash it carries
// between Received and Guessed, in both Ack and State.
const ackInfoLen = 4 + 4 + 2 + 2 + 2 + 2 + 8 + 2

// AckLen is the size of an Ack: 47 bytes.
const AckLen = HeaderLen + ackInfoLen

func appendAckInfo(b []byte, a *AckInfo, tick game.Tick, hash uint64) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(tick))
	b = binary.BigEndian.AppendUint32(b, uint32(a.NewestInput))
	b = binary.BigEndian.AppendUint16(b, uint16(a.MarginMs))
	b = binary.BigEndian.AppendUint16(b, a.EchoTime)
	b = binary.BigEndian.AppendUint16(b, a.EchoDelay)
	b = binary.BigEndian.AppendUint16(b, a.Received)
	b = binary.BigEndian.AppendUint64(b, hash)
	return binary.BigEndian.AppendUint16(b, a.Guessed)
}

func readAckInfo(r *reader, a *AckInfo) (hash uint64) {
	a.ServerTick = game.Tick(r.u32())
	a.NewestInput = game.Tick(r.u32())
	a.MarginMs = int16(r.u16())
	a.EchoTime = r.u16()
	a.EchoDelay = r.u16()
	a.Received = r.u16()
	hash = r.u64()
	a.Guessed = r.u16()
	return hash
}

// Ack (server → client) is sent between States, every second tick (none
// at a State every 2 ticks), and to a peer gone quiet instead of States.
type Ack struct {
	Header
	AckInfo
	// Hash is game.Hash of the server world at AckInfo.ServerTick.
	Hash uint64
}

// Len returns AckLen.
func (p *Ack) Len() int { return AckLen }

// Append appends the Ack to b.
func (p *Ack) Append(b []byte) []byte { return p.AppendBody(p.appendAs(b, TypeAck)) }

// AppendBody appends the Ack's body, what follows its header, to b.
func (p *Ack) AppendBody(b []byte) []byte {
	return appendAckInfo(b, &p.AckInfo, p.ServerTick, p.Hash)
}

// PacketType returns TypeAck.
func (*Ack) PacketType() Type { return TypeAck }

// ParseAck decodes an Ack. It does not allocate.
func ParseAck(b []byte) (Ack, error) {
	h, err := ParseHeader(b)
	if err != nil {
		return Ack{}, err
	}
	return ParseAckBody(h, b[HeaderLen:])
}

// ParseAckBody decodes the body b of an Ack, what follows its header h:
// the rest of a clear datagram, or the opened body of a sealed one.
func ParseAckBody(h Header, b []byte) (Ack, error) {
	if err := h.want(TypeAck); err != nil {
		return Ack{}, err
	}
	r := reader{b: b}
	p := Ack{Header: h}
	p.Hash = readAckInfo(&r, &p.AckInfo)
	if err := r.end(); err != nil {
		return Ack{}, err
	}
	return p, nil
}
