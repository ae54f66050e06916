package proto

import (
	"encoding/binary"
	"fmt"

	"ttytanks/game"
)

// The ladder's packets (version 8): a peer of a server with a ladder asks
// for a page of the leaderboard and its own card, or to be forgotten, with
// a LadderQuery; the server answers with a LadderPage. At a rated match's
// end the server tells its players their rating changes with Rated
// (PROTOCOL.md §4.15).

// MaxLadderPage is the most leaderboard lines a LadderPage carries.
const MaxLadderPage = 20

// LadderQuery flag bits.
const (
	ladderForget = 1 << 0 // delete the sender's record
)

// LadderQueryLen is a LadderQuery's clear size.
const LadderQueryLen = HeaderLen + 6

// LadderQuery (client → server, sealed) asks for Count leaderboard lines
// from the Offset-th best (0 the best; Count 0: none, only the card) and
// the sender's own card. Forget asks the server to delete the sender's
// record first: their key proved it in the Request (§4.15). Header: match
// and player 0.
type LadderQuery struct {
	Header
	Forget bool
	Offset uint32
	Count  uint8 // 0..MaxLadderPage
}

// Len returns LadderQueryLen.
func (p *LadderQuery) Len() int { return LadderQueryLen }

// Append appends the LadderQuery to b.
func (p *LadderQuery) Append(b []byte) []byte { return p.AppendBody(p.appendAs(b, TypeLadderQuery)) }

// AppendBody appends the LadderQuery's body to b.
func (p *LadderQuery) AppendBody(b []byte) []byte {
	var flags byte
	if p.Forget {
		flags |= ladderForget
	}
	b = append(b, flags)
	b = binary.BigEndian.AppendUint32(b, p.Offset)
	return append(b, p.Count)
}

// PacketType returns TypeLadderQuery.
func (*LadderQuery) PacketType() Type { return TypeLadderQuery }

// ParseLadderQuery decodes a LadderQuery: ErrFlags for an undefined flag
// bit, ErrRange for a Count above MaxLadderPage.
func ParseLadderQuery(b []byte) (LadderQuery, error) {
	h, err := ParseHeader(b)
	if err != nil {
		return LadderQuery{}, err
	}
	return ParseLadderQueryBody(h, b[HeaderLen:])
}

// ParseLadderQueryBody decodes the body b of a LadderQuery.
func ParseLadderQueryBody(h Header, b []byte) (LadderQuery, error) {
	if err := h.want(TypeLadderQuery); err != nil {
		return LadderQuery{}, err
	}
	r := reader{b: b}
	p := LadderQuery{Header: h}
	flags := r.u8()
	p.Offset, p.Count = r.u32(), r.u8()
	if err := r.end(); err != nil {
		return LadderQuery{}, err
	}
	if flags&^ladderForget != 0 {
		return LadderQuery{}, ErrFlags
	}
	p.Forget = flags&ladderForget != 0
	if p.Count > MaxLadderPage {
		return LadderQuery{}, fmt.Errorf("%w: %d leaderboard lines", ErrRange, p.Count)
	}
	return p, nil
}

// LadderLine is one player's line of the leaderboard. Ratings are on the
// Glicko-1 scale, rounded to whole points.
type LadderLine struct {
	Rank    uint32 // 1 the best; players of one rating share a rank
	Rating  uint16
	RD      uint16 // the rating deviation: the rating is Rating ± 2·RD
	Matches uint32 // rated matches played
	Wins    uint32 // rated matches won outright
	Name    string
}

// ladderLineLen is a line's size on the wire without its name.
const ladderLineLen = 4 + 2 + 2 + 4 + 4 + 1

// LadderCard is the asker's own record: their line (Rank 0 before a
// rated match) and the sums of their rated matches.
type LadderCard struct {
	LadderLine
	RoundWins, Kills, Deaths, Shots, Hits uint32
	Seconds                               uint32 // time on the field
}

// ladderCardLen is a card's size on the wire without its name.
const ladderCardLen = ladderLineLen + 6*4

// LadderPage flag bits.
const (
	ladderPageCard      = 1 << 0 // a card follows: the asker has a record
	ladderPageForgotten = 1 << 1 // the asker's record was deleted, as asked
	ladderPageOff       = 1 << 2 // the server keeps no ladder
)

// LadderPage (server → client, sealed) answers a LadderQuery: how many
// players are ranked, the asker's card if they have a record, and the
// lines asked for. Header: match and player 0.
type LadderPage struct {
	Header
	// Off says the server keeps no ladder: nothing else is set.
	Off bool
	// Forgotten says the asker's record was deleted, as its query asked.
	Forgotten bool
	// Ranked is how many players have played a rated match.
	Ranked uint32
	// HasCard says Card is the asker's record; a guest, and a key
	// without a record, have none.
	HasCard bool
	Card    LadderCard
	// Offset is the index of Lines[0] in the leaderboard.
	Offset uint32
	Lines  []LadderLine // at most MaxLadderPage
}

// Len returns the LadderPage's clear size.
func (p *LadderPage) Len() int {
	n := HeaderLen + 1 + 4 + 4 + 1
	if p.HasCard {
		n += ladderCardLen + len(p.Card.Name)
	}
	for i := range p.Lines {
		n += ladderLineLen + len(p.Lines[i].Name)
	}
	return n
}

// Append appends the LadderPage to b. Names longer than MaxNameLen bytes
// are written as they are and the receiver rejects them.
func (p *LadderPage) Append(b []byte) []byte { return p.AppendBody(p.appendAs(b, TypeLadderPage)) }

// AppendBody appends the LadderPage's body to b.
func (p *LadderPage) AppendBody(b []byte) []byte {
	var flags byte
	if p.HasCard {
		flags |= ladderPageCard
	}
	if p.Forgotten {
		flags |= ladderPageForgotten
	}
	if p.Off {
		flags |= ladderPageOff
	}
	b = append(b, flags)
	b = binary.BigEndian.AppendUint32(b, p.Ranked)
	if p.HasCard {
		c := &p.Card
		b = appendLadderLine(b, &c.LadderLine)
		for _, v := range [...]uint32{c.RoundWins, c.Kills, c.Deaths, c.Shots, c.Hits, c.Seconds} {
			b = binary.BigEndian.AppendUint32(b, v)
		}
	}
	b = binary.BigEndian.AppendUint32(b, p.Offset)
	b = append(b, byte(len(p.Lines)))
	for i := range p.Lines {
		b = appendLadderLine(b, &p.Lines[i])
	}
	return b
}

func appendLadderLine(b []byte, l *LadderLine) []byte {
	b = binary.BigEndian.AppendUint32(b, l.Rank)
	b = binary.BigEndian.AppendUint16(b, l.Rating)
	b = binary.BigEndian.AppendUint16(b, l.RD)
	b = binary.BigEndian.AppendUint32(b, l.Matches)
	b = binary.BigEndian.AppendUint32(b, l.Wins)
	b = append(b, byte(len(l.Name)))
	return append(b, l.Name...)
}

func (r *reader) ladderLine() (LadderLine, error) {
	l := LadderLine{Rank: r.u32(), Rating: r.u16(), RD: r.u16(), Matches: r.u32(), Wins: r.u32()}
	name, err := r.name()
	if err != nil {
		return LadderLine{}, err
	}
	if string(name) != SanitizeName(string(name)) {
		return LadderLine{}, fmt.Errorf("%w: a leaderboard name as sanitising would not leave it", ErrName)
	}
	l.Name = string(name)
	return l, nil
}

// PacketType returns TypeLadderPage.
func (*LadderPage) PacketType() Type { return TypeLadderPage }

// ParseLadderPage decodes a LadderPage. It rejects undefined flag bits
// and Off with anything else set (ErrFlags), more than MaxLadderPage
// lines (ErrRange), and a name longer than MaxNameLen, not valid UTF-8 or
// not as SanitizeName leaves it (ErrName).
func ParseLadderPage(b []byte) (LadderPage, error) {
	h, err := ParseHeader(b)
	if err != nil {
		return LadderPage{}, err
	}
	return ParseLadderPageBody(h, b[HeaderLen:])
}

// ParseLadderPageBody decodes the body b of a LadderPage.
func ParseLadderPageBody(h Header, b []byte) (LadderPage, error) {
	if err := h.want(TypeLadderPage); err != nil {
		return LadderPage{}, err
	}
	r := reader{b: b}
	p := LadderPage{Header: h}
	flags := r.u8()
	if flags&^(ladderPageCard|ladderPageForgotten|ladderPageOff) != 0 || (flags&ladderPageOff != 0 && flags != ladderPageOff) {
		return LadderPage{}, ErrFlags
	}
	p.HasCard, p.Forgotten, p.Off = flags&ladderPageCard != 0, flags&ladderPageForgotten != 0, flags&ladderPageOff != 0
	p.Ranked = r.u32()
	if p.HasCard {
		l, err := r.ladderLine()
		if err != nil {
			return LadderPage{}, err
		}
		c := LadderCard{LadderLine: l}
		c.RoundWins, c.Kills, c.Deaths, c.Shots, c.Hits, c.Seconds = r.u32(), r.u32(), r.u32(), r.u32(), r.u32(), r.u32()
		p.Card = c
	}
	p.Offset = r.u32()
	n := int(r.u8())
	if n > MaxLadderPage {
		return LadderPage{}, fmt.Errorf("%w: %d leaderboard lines", ErrRange, n)
	}
	if n > 0 {
		p.Lines = make([]LadderLine, 0, n)
	}
	for range n {
		l, err := r.ladderLine()
		if err != nil {
			return LadderPage{}, err
		}
		p.Lines = append(p.Lines, l)
	}
	if err := r.end(); err != nil {
		return LadderPage{}, err
	}
	return p, nil
}

// RatingChange is one rated player's change of rating in a match.
type RatingChange struct {
	Slot          uint8  // their seat
	Before, After uint16 // R either side of the match, rounded
	RD            uint16 // RD after it, rounded
}

// ratingChangeLen is one change's size on the wire.
const ratingChangeLen = 7

// Rated (server → client, sealed) tells a finished match's players and
// spectators how its rated players' ratings changed. The server repeats
// it every half second while the match's results show; a client takes
// the first of each match. Header: match, the rated match's id; player,
// the addressee's seat.
type Rated struct {
	Header
	Changes []RatingChange // at most one per seat, by slot
}

// Len returns the Rated's clear size: 22 bytes and 7 per change.
func (p *Rated) Len() int { return HeaderLen + 1 + ratingChangeLen*len(p.Changes) }

// Append appends the Rated to b.
func (p *Rated) Append(b []byte) []byte { return p.AppendBody(p.appendAs(b, TypeRated)) }

// AppendBody appends the Rated's body to b.
func (p *Rated) AppendBody(b []byte) []byte {
	b = append(b, byte(len(p.Changes)))
	for _, c := range p.Changes {
		b = append(b, c.Slot)
		b = binary.BigEndian.AppendUint16(b, c.Before)
		b = binary.BigEndian.AppendUint16(b, c.After)
		b = binary.BigEndian.AppendUint16(b, c.RD)
	}
	return b
}

// PacketType returns TypeRated.
func (*Rated) PacketType() Type { return TypeRated }

// ParseRated decodes a Rated: ErrRange for more changes than seats, a
// slot of no seat or slots out of order.
func ParseRated(b []byte) (Rated, error) {
	h, err := ParseHeader(b)
	if err != nil {
		return Rated{}, err
	}
	return ParseRatedBody(h, b[HeaderLen:])
}

// ParseRatedBody decodes the body b of a Rated.
func ParseRatedBody(h Header, b []byte) (Rated, error) {
	if err := h.want(TypeRated); err != nil {
		return Rated{}, err
	}
	r := reader{b: b}
	p := Rated{Header: h}
	n := int(r.u8())
	if n > game.MaxPlayers {
		return Rated{}, fmt.Errorf("%w: %d rating changes", ErrRange, n)
	}
	if n > 0 {
		p.Changes = make([]RatingChange, 0, n)
	}
	for i := range n {
		c := RatingChange{Slot: r.u8(), Before: r.u16(), After: r.u16(), RD: r.u16()}
		if r.short {
			return Rated{}, ErrShort
		}
		if int(c.Slot) >= game.MaxPlayers || (i > 0 && c.Slot <= p.Changes[i-1].Slot) {
			return Rated{}, fmt.Errorf("%w: rating change of slot %d", ErrRange, c.Slot)
		}
		p.Changes = append(p.Changes, c)
	}
	if err := r.end(); err != nil {
		return Rated{}, err
	}
	return p, nil
}
