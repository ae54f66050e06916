package recording

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"unicode/utf8"

	"ttytanks/game"
	"ttytanks/proto"
)

// Magic opens every recording file.
const Magic = "TTRC"

// FormatVersion is the version of the recording format this package reads
// and writes. It changes when the layout of a header or block changes; the
// game's rules have their own version, Header.Rules.
const FormatVersion uint8 = 2

// Limits on what a header may hold, so that a hostile file cannot make a
// reader allocate much.
const (
	// MaxHeaderLen bounds a header's body, in bytes.
	MaxHeaderLen = 1024
	// MaxServerLen bounds Header.Server, in bytes.
	MaxServerLen = 64
)

// castagnoli is the CRC-32C table every checksum of the format uses.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Header is the start of a recording: everything needed to build the
// match's world (game.NewWorld(h.Config())) and to label it.
type Header struct {
	// Rules is the game rules version the match was played under:
	// game.RulesVersion.
	Rules uint8
	// Match is the server's match id.
	Match uint32
	// Seed, Slots, MazeW, MazeH, Start and Rounds are the world's
	// game.Config; the maze size is never zero here (the default is
	// written out). Rounds is the round wins that win the match, 0..255
	// (0: endless).
	Seed         uint64
	Slots        int
	MazeW, MazeH int
	Start        game.Tick
	Rounds       int
	// CheckEvery is the number of ticks between hash checkpoints (a block
	// may also end with one).
	CheckEvery int
	// Started is when the match began, in Unix seconds (0: unknown).
	Started int64
	// Server is the server's version string, at most MaxServerLen bytes.
	Server string
	// Names holds the players seated at the start, one per slot ("" for a
	// free seat); each is a name proto.SanitizeName leaves unchanged.
	Names []string
}

// Config returns the game.Config that builds the match's world.
func (h Header) Config() game.Config {
	return game.Config{Slots: h.Slots, Seed: h.Seed, MazeW: h.MazeW, MazeH: h.MazeH, StartTick: h.Start, Rounds: h.Rounds}
}

// bodyLen returns the length of the header's body in bytes.
func (h *Header) bodyLen() int {
	n := 1 + 4 + 8 + 1 + 1 + 1 + 4 + 1 + uvarintLen(uint64(h.CheckEvery)) + varintLen(h.Started) + 1 + len(h.Server)
	for _, s := range h.Names {
		n += 1 + len(s)
	}
	return n
}

// Len returns the number of bytes Append writes.
func (h *Header) Len() int {
	n := h.bodyLen()
	return len(Magic) + 1 + uvarintLen(uint64(n)) + n + 4
}

// Append appends the encoded header to b. The header must be valid (see
// Check); Append does not check it.
func (h *Header) Append(b []byte) []byte {
	start := len(b)
	b = append(b, Magic...)
	b = append(b, FormatVersion)
	b = binary.AppendUvarint(b, uint64(h.bodyLen()))
	b = append(b, h.Rules)
	b = binary.BigEndian.AppendUint32(b, h.Match)
	b = binary.BigEndian.AppendUint64(b, h.Seed)
	b = append(b, uint8(h.Slots), uint8(h.MazeW), uint8(h.MazeH))
	b = binary.BigEndian.AppendUint32(b, uint32(h.Start))
	b = append(b, uint8(h.Rounds))
	b = binary.AppendUvarint(b, uint64(h.CheckEvery))
	b = binary.AppendVarint(b, h.Started)
	b = appendString(b, h.Server)
	for _, s := range h.Names {
		b = appendString(b, s)
	}
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b[start:], castagnoli))
}

// Check reports whether h can be written and read back: slots in
// 1..game.MaxPlayers with one name each, names and server version within
// their limits, a maze size game.NewWorld accepts, Rounds in 0..255,
// CheckEvery ≥ 1.
func (h *Header) Check() error {
	if h.Slots < 1 || h.Slots > game.MaxPlayers || len(h.Names) != h.Slots {
		return fmt.Errorf("%w: %d slots with %d names", ErrMalformed, h.Slots, len(h.Names))
	}
	if h.MazeW < 1 || h.MazeW > 255 || h.MazeH < 1 || h.MazeH > 255 {
		return fmt.Errorf("%w: maze %dx%d", ErrMalformed, h.MazeW, h.MazeH)
	}
	if h.Rounds < 0 || h.Rounds > 255 {
		return fmt.Errorf("%w: %d rounds to win", ErrMalformed, h.Rounds)
	}
	if h.CheckEvery < 1 || h.CheckEvery > MaxBlockTicks {
		return fmt.Errorf("%w: checkpoint every %d ticks", ErrMalformed, h.CheckEvery)
	}
	if len(h.Server) > MaxServerLen || !utf8.ValidString(h.Server) {
		return fmt.Errorf("%w: server version %q", ErrMalformed, h.Server)
	}
	for i, s := range h.Names {
		if !validName(s) {
			return fmt.Errorf("%w: name %q of slot %d", ErrMalformed, s, i)
		}
	}
	return nil
}

// validName reports whether s is a name a recording may hold.
func validName(s string) bool {
	return len(s) <= proto.MaxNameLen && proto.SanitizeName(s) == s
}

// ParseHeader decodes the header at the start of b and returns it with
// the number of bytes it took. It checks the magic, format version, length
// limits, checksum and every field.
func ParseHeader(b []byte) (Header, int, error) {
	var h Header
	if len(b) < len(Magic)+1 {
		return h, 0, ErrShort
	}
	if string(b[:len(Magic)]) != Magic {
		return h, 0, ErrMagic
	}
	if b[len(Magic)] != FormatVersion {
		return h, 0, fmt.Errorf("%w: %d, this build reads %d", ErrVersion, b[len(Magic)], FormatVersion)
	}
	p := parser{b: b, i: len(Magic) + 1}
	n := p.uvarint()
	if p.err != nil {
		return h, 0, p.err
	}
	if n > MaxHeaderLen {
		return h, 0, fmt.Errorf("%w: header of %d bytes", ErrTooLarge, n)
	}
	end := p.i + int(n)
	if end+4 > len(b) {
		return h, 0, ErrShort
	}
	if crc32.Checksum(b[:end], castagnoli) != binary.BigEndian.Uint32(b[end:]) {
		return h, 0, fmt.Errorf("header: %w", ErrChecksum)
	}
	p.b = b[:end]
	h.Rules = p.byte()
	h.Match = p.uint32()
	h.Seed = p.uint64()
	h.Slots = int(p.byte())
	h.MazeW, h.MazeH = int(p.byte()), int(p.byte())
	h.Start = game.Tick(p.uint32())
	h.Rounds = int(p.byte())
	h.CheckEvery = int(p.uvarintMax(MaxBlockTicks))
	h.Started = p.varint()
	h.Server = p.string(MaxServerLen)
	if p.err == nil && (h.Slots < 1 || h.Slots > game.MaxPlayers) {
		return h, 0, fmt.Errorf("%w: %d slots", ErrMalformed, h.Slots)
	}
	for i := 0; i < h.Slots && p.err == nil; i++ {
		h.Names = append(h.Names, p.string(proto.MaxNameLen))
	}
	if p.err != nil {
		return h, 0, fmt.Errorf("header: %w", p.err)
	}
	if p.i != end {
		return h, 0, fmt.Errorf("header: %w: %d bytes left over", ErrMalformed, end-p.i)
	}
	if err := h.Check(); err != nil {
		return h, 0, fmt.Errorf("header: %w", err)
	}
	return h, end + 4, nil
}
