package proto

import (
	"encoding/binary"
	"fmt"

	"ttytanks/game"
)

// State (server → client) is sent every StateEvery ticks instead of that
// tick's Ack. It carries the same report as an Ack followed by the
// authoritative snapshot, from which a client can restore its world: the
// whole snapshot (a full State), or the inputs that step an earlier one
// the client holds to it (a delta State: delta.go).
type State struct {
	Header
	AckInfo
	// Snapshot is the server world at AckInfo.ServerTick: the state before
	// consuming that tick's inputs. Snapshot.Tick equals AckInfo.ServerTick;
	// the tick is sent once and the decoder sets both. A delta State's
	// Snapshot holds only Tick and Slots until the client rebuilds it.
	Snapshot game.Snapshot
	// Hash is game.Hash(&Snapshot) as computed by the server. ParseState
	// does not verify it; the client does, after checking identity and
	// freshness (and, for a delta, rebuilding the snapshot).
	Hash uint64
	// Back is 0 for a full State. For a delta State it is 1..MaxBack: the
	// State's baseline is the snapshot at tick Snapshot.Tick − Back, and
	// Steps holds the inputs that step it to Snapshot.Tick.
	Back uint8
	// Steps[i][:Snapshot.Slots] are a delta State's inputs of tick
	// Snapshot.Tick − 1 − i, one per slot, for i < Back: Steps[0] is the
	// newest. StepInputs returns them oldest first. A full State ignores
	// them.
	Steps [MaxBack][game.MaxPlayers]game.Input
}

// Encoded sizes of the parts of a State.
const (
	// stateFixedLen is the header, AckInfo with hash, and the snapshot
	// fields before the tanks: rng u64, slots u8, bullets u8, round 16,
	// rounds to win u8.
	stateFixedLen = HeaderLen + stateBodyLen
	// stateBodyLen is the same without the header: the report, back u8
	// (0), then rng u64, slots u8, bullets u8, round 16, rounds to win u8.
	stateBodyLen = ackInfoLen + 1 + 8 + 1 + 1 + 16 + 1
	// TankLen is the encoded size of one tank in a State, not counting
	// its stats.
	TankLen = 12
	// StatsLen is the encoded size of a seated tank's stats, which follow
	// its TankLen bytes; an unseated tank has none.
	StatsLen = 8
	// BulletLen is the encoded size of one bullet in a State.
	BulletLen = 8
	// MaxStateLen is the size of the largest State: 8 seated tanks and 64
	// bullets.
	MaxStateLen = stateFixedLen + game.MaxPlayers*(TankLen+StatsLen) + game.MaxBullets*BulletLen
)

// StateLen returns the encoded size of a full State with the given
// numbers of slots, seated tanks among them, and bullets: 75 + 12 × slots
// + 8 × seated + 8 × bullets bytes.
func StateLen(slots, seated, bullets int) int {
	return stateFixedLen + slots*TankLen + seated*StatsLen + bullets*BulletLen
}

// Len returns the encoded size of the State: full or delta, as Back says.
func (p *State) Len() int {
	if p.Delta() {
		return p.deltaLen()
	}
	return p.FullLen()
}

// FullLen returns the encoded size of the State as a full one, whatever
// Back says: a server sends a delta only when it is the smaller.
func (p *State) FullLen() int {
	s := &p.Snapshot
	seated := 0
	for i := range s.Tanks[:min(int(s.Slots), game.MaxPlayers)] {
		if s.Tanks[i].Seated {
			seated++
		}
	}
	return StateLen(int(s.Slots), seated, int(s.NumBullets))
}

// Bits of the tank flag byte and the bullet owner byte.
const (
	tankAimX    = 0x03 // two-bit two's complement: 00 = 0, 01 = 1, 11 = -1
	tankAimY    = 0x0c // likewise, shifted left 2
	tankAlive   = 0x10
	tankSeated  = 0x20 // the tank's stats follow its TankLen bytes
	tankRematch = 0x40
	tankFlags   = tankAimX | tankAimY | tankAlive | tankSeated | tankRematch

	bulletOwner   = 0x07
	bulletBounces = 0x38 // shifted left 3
	bulletFlags   = bulletOwner | bulletBounces
)

// Append appends the State to b. It writes Snapshot.Tick as the tick
// (AckInfo.ServerTick is assumed equal and not sent separately). A full
// State assumes the snapshot is valid (game.Snapshot.Validate): it panics
// if Slots > game.MaxPlayers or NumBullets > game.MaxBullets, and writes
// other out-of-range values truncated to their wire widths, which the
// receiver rejects or misreads. A delta State writes Steps[:Back] for
// Snapshot.Slots slots; it panics if Back > MaxBack or Slots >
// game.MaxPlayers. It does not allocate when b has room for Len bytes.
func (p *State) Append(b []byte) []byte { return p.AppendBody(p.appendAs(b, TypeState)) }

// AppendBody appends the State's body, what follows its header, to b.
func (p *State) AppendBody(b []byte) []byte {
	s := &p.Snapshot
	b = appendAckInfo(b, &p.AckInfo, s.Tick, p.Hash)
	b = append(b, p.Back)
	if p.Delta() {
		return p.appendDelta(b)
	}
	b = binary.BigEndian.AppendUint64(b, s.RNG)
	b = append(b, s.Slots, s.NumBullets)
	r := &s.Round
	b = binary.BigEndian.AppendUint16(b, r.Number)
	b = append(b, byte(r.Phase))
	b = binary.BigEndian.AppendUint16(b, r.Timer)
	b = append(b, byte(r.Winner))
	b = binary.BigEndian.AppendUint64(b, r.MazeSeed)
	b = append(b, r.MazeW, r.MazeH, s.RoundsToWin)
	for i := range s.Tanks[:s.Slots] {
		t := &s.Tanks[i]
		flags := byte(t.AimX)&3 | (byte(t.AimY)&3)<<2
		if t.Alive {
			flags |= tankAlive
		}
		if t.Seated {
			flags |= tankSeated
		}
		if t.Rematch {
			flags |= tankRematch
		}
		b = append(b,
			byte(t.X>>8), byte(t.X), byte(t.Y>>8), byte(t.Y),
			byte(t.VX), byte(t.VY), flags,
			byte(t.HP), t.Cooldown, t.Hitstun,
			byte(t.Score>>8), byte(t.Score))
		if t.Seated {
			st := &t.Stats
			b = append(b,
				byte(st.Kills>>8), byte(st.Kills), byte(st.Deaths>>8), byte(st.Deaths),
				byte(st.Shots>>8), byte(st.Shots), byte(st.Hits>>8), byte(st.Hits))
		}
	}
	for i := range s.Bullets[:s.NumBullets] {
		u := &s.Bullets[i]
		b = append(b,
			byte(u.X>>8), byte(u.X), byte(u.Y>>8), byte(u.Y),
			byte(u.VX), byte(u.VY), u.Owner&bulletOwner|(u.Bounces<<3)&bulletBounces, u.Life)
	}
	return b
}

// PacketType returns TypeState.
func (*State) PacketType() Type { return TypeState }

// Errors for counts that would overflow the snapshot's arrays; both fail
// Validate too.
var (
	errSlots   = fmt.Errorf("%w: slot count out of range", ErrSnapshot)
	errBullets = fmt.Errorf("%w: bullet count out of range", ErrSnapshot)
)

// ParseState decodes a State into *dst, overwriting what it uses; on
// error *dst holds garbage. For a full State it checks the exact length
// from the slot and bullet counts and the seated flags (ErrShort,
// ErrTrailing), undefined flag bits (ErrFlags), and runs
// game.Snapshot.Validate on the result (ErrSnapshot, wrapping the game's
// error). For a delta State it checks back and slots, that each slot's
// runs cover exactly Back ticks (ErrSnapshot), every input (ErrMove,
// ErrButtons) and the exact length. It does not verify Hash, nor that the
// client holds the baseline. It does not allocate unless it returns an
// error.
func ParseState(b []byte, dst *State) error {
	h, err := ParseHeader(b)
	if err != nil {
		return err
	}
	return ParseStateBody(h, b[HeaderLen:], dst)
}

// ParseStateBody decodes the body b of a State, what follows its header h
// (the rest of a clear datagram, or the opened body of a sealed one), like
// ParseState.
func ParseStateBody(h Header, b []byte, dst *State) error {
	if err := h.want(TypeState); err != nil {
		return err
	}
	if len(b) < ackInfoLen+1 {
		return ErrShort
	}
	dst.Header = h
	r := reader{b: b}
	s := &dst.Snapshot
	dst.Hash = readAckInfo(&r, &dst.AckInfo)
	s.Tick = dst.ServerTick
	dst.Back = r.u8()
	if dst.Back > MaxBack {
		return errBack
	}
	if dst.Delta() {
		return parseDelta(&r, dst)
	}
	if len(b) < stateBodyLen {
		return ErrShort
	}
	s.RNG = r.u64()
	s.Slots, s.NumBullets = r.u8(), r.u8()
	if s.Slots > game.MaxPlayers {
		return errSlots
	}
	if s.NumBullets > game.MaxBullets {
		return errBullets
	}
	// The tanks' lengths depend on their seated flags: walk them for the
	// exact length before decoding anything.
	off := stateBodyLen
	for range s.Slots {
		if len(b) < off+TankLen {
			return ErrShort
		}
		off += TankLen
		if b[off-TankLen+6]&tankSeated != 0 {
			off += StatsLen
		}
	}
	if n := off + int(s.NumBullets)*BulletLen; len(b) != n {
		if len(b) < n {
			return ErrShort
		}
		return ErrTrailing
	}
	rd := &s.Round
	rd.Number = r.u16()
	rd.Phase = game.Phase(r.u8())
	rd.Timer = r.u16()
	rd.Winner = int8(r.u8())
	rd.MazeSeed = r.u64()
	rd.MazeW, rd.MazeH = r.u8(), r.u8()
	s.RoundsToWin = r.u8()
	if r.short || r.off != stateBodyLen {
		return ErrShort
	}
	// The length is exact from here on, so the loops index b directly.
	off = stateBodyLen
	for i := range s.Tanks[:s.Slots] {
		t, q := &s.Tanks[i], b[off:off+TankLen:off+TankLen]
		off += TankLen
		flags := q[6]
		if flags&^tankFlags != 0 {
			return ErrFlags
		}
		*t = game.Tank{
			X:        int32(binary.BigEndian.Uint16(q[0:])),
			Y:        int32(binary.BigEndian.Uint16(q[2:])),
			VX:       int32(int8(q[4])),
			VY:       int32(int8(q[5])),
			AimX:     int8(flags<<6) >> 6,
			AimY:     int8(flags<<4) >> 6,
			HP:       int8(q[7]),
			Cooldown: q[8],
			Hitstun:  q[9],
			Alive:    flags&tankAlive != 0,
			Seated:   flags&tankSeated != 0,
			Score:    binary.BigEndian.Uint16(q[10:]),
			Rematch:  flags&tankRematch != 0,
		}
		if t.Seated {
			q := b[off : off+StatsLen : off+StatsLen]
			off += StatsLen
			t.Stats = game.Stats{
				Kills:  binary.BigEndian.Uint16(q[0:]),
				Deaths: binary.BigEndian.Uint16(q[2:]),
				Shots:  binary.BigEndian.Uint16(q[4:]),
				Hits:   binary.BigEndian.Uint16(q[6:]),
			}
		}
	}
	clear(s.Tanks[s.Slots:])
	for i := range s.Bullets[:s.NumBullets] {
		q := b[off : off+BulletLen : off+BulletLen]
		off += BulletLen
		ob := q[6]
		if ob&^bulletFlags != 0 {
			return ErrFlags
		}
		s.Bullets[i] = game.Bullet{
			X:       int32(binary.BigEndian.Uint16(q[0:])),
			Y:       int32(binary.BigEndian.Uint16(q[2:])),
			VX:      int32(int8(q[4])),
			VY:      int32(int8(q[5])),
			Owner:   ob & bulletOwner,
			Bounces: ob >> 3,
			Life:    q[7],
		}
	}
	clear(s.Bullets[s.NumBullets:])
	if err := s.Validate(); err != nil {
		return fmt.Errorf("%w: %w", ErrSnapshot, err)
	}
	return nil
}
