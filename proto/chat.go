package proto

import (
	"encoding/binary"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Chat: a line a player says to the others of its room, relayed by the
// server (PROTOCOL.md §5.17, §5.18). Both packets travel only sealed.
//
// A client sends each line as a Chat numbered by its own count of lines,
// and repeats it until the line comes back to it as a ChatLine marked
// ChatYours (or gives up); the server takes each number once. The server
// sends every line it takes to everyone in the room, the sender included,
// as a ChatLine numbered by the room's count of lines, and repeats it to
// each peer until that peer's ChatAck of the number comes (or a while has
// passed); a receiver acknowledges every copy and shows each number once.

// Limits of a chat line.
const (
	// MaxChatRunes is the most characters a line may hold.
	MaxChatRunes = 120
	// MaxChatBytes is the most bytes of UTF-8 a line may take on the
	// wire: MaxChatRunes of the longest runes.
	MaxChatBytes = MaxChatRunes * utf8.UTFMax
)

// ChatFromServer is a ChatLine's From when the server itself speaks (a
// notice to one peer: slow down, muted, chat off).
const ChatFromServer = 0xFE

// ChatLine flag bits.
const (
	// ChatYours marks the copy of a line sent to its own sender: the
	// receipt that stops the sender's repeats.
	ChatYours = 1 << 0
	// ChatSpectator marks a line said by a spectator.
	ChatSpectator = 1 << 1
	chatFlagMask  = ChatYours | ChatSpectator
)

// Chat (client → server, sealed) is one line the player says.
type Chat struct {
	Header
	// ID is the sender's count of its lines, from 1.
	ID uint32
	// Text is the line: at most MaxChatBytes of valid UTF-8 (the server
	// cleans it with CleanChat before anyone sees it).
	Text string
}

// Len returns the encoded size of the Chat.
func (p *Chat) Len() int { return HeaderLen + 6 + len(p.Text) }

// Append appends the Chat to b.
func (p *Chat) Append(b []byte) []byte { return p.AppendBody(p.appendAs(b, TypeChat)) }

// AppendBody appends the Chat's body: ID, the text's length (u16) and
// the text.
func (p *Chat) AppendBody(b []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, p.ID)
	b = binary.BigEndian.AppendUint16(b, uint16(len(p.Text)))
	return append(b, p.Text...)
}

// PacketType returns TypeChat.
func (*Chat) PacketType() Type { return TypeChat }

// ParseChat decodes a Chat in its clear form (a header and the body).
func ParseChat(b []byte) (Chat, error) {
	h, err := ParseHeader(b)
	if err != nil {
		return Chat{}, err
	}
	return ParseChatBody(h, b[HeaderLen:])
}

// ParseChatBody decodes the body b of a Chat: ErrChat for an empty or
// too long text or one that is not valid UTF-8.
func ParseChatBody(h Header, b []byte) (Chat, error) {
	if err := h.want(TypeChat); err != nil {
		return Chat{}, err
	}
	r := reader{b: b}
	p := Chat{Header: h, ID: r.u32()}
	text, err := r.chatText()
	if err != nil {
		return Chat{}, err
	}
	if err := r.end(); err != nil {
		return Chat{}, err
	}
	p.Text = string(text)
	return p, nil
}

// ChatLine (server → client, sealed) is one line said in the room, or a
// notice from the server.
type ChatLine struct {
	Header
	// Seq is the room's count of the lines it relayed, from 1 (0 for a
	// notice from the server, which is sent once).
	Seq uint32
	// From is the sayer's seat, SpectatorSlot for a spectator, or
	// ChatFromServer.
	From uint8
	// Flags holds ChatYours and ChatSpectator.
	Flags uint8
	// ID is, with ChatYours, the receiver's own number of the line (its
	// Chat.ID); 0 otherwise.
	ID uint32
	// Name is the sayer's name, in SanitizeName's form.
	Name string
	// Text is the line, in CleanChat's form.
	Text string
}

// Len returns the encoded size of the ChatLine.
func (p *ChatLine) Len() int { return HeaderLen + 13 + len(p.Name) + len(p.Text) }

// Append appends the ChatLine to b.
func (p *ChatLine) Append(b []byte) []byte { return p.AppendBody(p.appendAs(b, TypeChatLine)) }

// AppendBody appends the ChatLine's body: Seq, From, Flags, ID, the
// name's length (u8) and name, the text's length (u16) and text.
func (p *ChatLine) AppendBody(b []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, p.Seq)
	b = append(b, p.From, p.Flags)
	b = binary.BigEndian.AppendUint32(b, p.ID)
	b = append(b, byte(len(p.Name)))
	b = append(b, p.Name...)
	b = binary.BigEndian.AppendUint16(b, uint16(len(p.Text)))
	return append(b, p.Text...)
}

// PacketType returns TypeChatLine.
func (*ChatLine) PacketType() Type { return TypeChatLine }

// ParseChatLine decodes a ChatLine in its clear form.
func ParseChatLine(b []byte) (ChatLine, error) {
	h, err := ParseHeader(b)
	if err != nil {
		return ChatLine{}, err
	}
	return ParseChatLineBody(h, b[HeaderLen:])
}

// ParseChatLineBody decodes the body b of a ChatLine. Its name must be in
// SanitizeName's form (ErrName) and its text in CleanChat's (ErrChat), so
// a receiver can show both as they are.
func ParseChatLineBody(h Header, b []byte) (ChatLine, error) {
	if err := h.want(TypeChatLine); err != nil {
		return ChatLine{}, err
	}
	r := reader{b: b}
	p := ChatLine{Header: h, Seq: r.u32(), From: r.u8(), Flags: r.u8(), ID: r.u32()}
	name, err := r.name()
	if err != nil {
		return ChatLine{}, err
	}
	text, err := r.chatText()
	if err != nil {
		return ChatLine{}, err
	}
	if err := r.end(); err != nil {
		return ChatLine{}, err
	}
	if p.Flags&^chatFlagMask != 0 {
		return ChatLine{}, ErrFlags
	}
	if !isSanitized(name) {
		return ChatLine{}, fmt.Errorf("%w: not in SanitizeName's form", ErrName)
	}
	p.Name, p.Text = string(name), string(text)
	if c, err := CleanChat(p.Text); err != nil || c != p.Text {
		return ChatLine{}, fmt.Errorf("%w: not in CleanChat's form", ErrChat)
	}
	return p, nil
}

// chatText reads a length-prefixed (u16) chat text: 1 to MaxChatBytes
// bytes of valid UTF-8 (ErrChat), ErrShort if the datagram ends first.
// It aliases b.
func (r *reader) chatText() ([]byte, error) {
	n := int(r.u16())
	if r.short {
		return nil, ErrShort
	}
	if n == 0 || n > MaxChatBytes {
		return nil, fmt.Errorf("%w: %d bytes, want 1..%d", ErrChat, n, MaxChatBytes)
	}
	v := r.bytes(n)
	if r.short {
		return nil, ErrShort
	}
	if !utf8.Valid(v) {
		return nil, fmt.Errorf("%w: not valid UTF-8", ErrChat)
	}
	return v, nil
}

// maxChatMarks is how many combining marks a character of a chat line may
// carry; more (the stacked marks that draw over the lines around) are
// dropped.
const maxChatMarks = 2

// CleanChat returns s made safe to show in a terminal, or ErrChat:
// escape sequences, control characters, format characters (the bidi
// overrides and isolates, zero-width spaces and joiners, the BOM) and
// every other rune a name may not hold (see SanitizeName) are removed;
// any other space becomes one space, runs of spaces one space, with none
// at either end; combining marks on nothing are removed, and a character
// keeps at most two. A line empty after that is ErrChat, and so is one
// longer than MaxChatRunes characters or MaxChatBytes bytes, before or
// after cleaning: a line is refused, never cut. CleanChat is idempotent.
func CleanChat(s string) (string, error) {
	if len(s) > MaxChatBytes || utf8.RuneCountInString(s) > MaxChatRunes {
		return "", fmt.Errorf("%w: longer than %d characters", ErrChat, MaxChatRunes)
	}
	var b strings.Builder
	b.Grow(len(s))
	space, base, marks := false, false, 0
	for i := 0; i < len(s); {
		if s[i] == 0x1b {
			i = skipEscape(s, i+1)
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			continue
		case unicode.IsSpace(r) || r == '\u2800' || r == '\u3164' || r == '\uffa0':
			space = b.Len() > 0
			base = false
			continue
		case !shown(r):
			continue
		}
		if unicode.Is(unicode.M, r) {
			if !base || marks >= maxChatMarks {
				continue
			}
			marks++
		} else {
			if space {
				b.WriteByte(' ')
				space = false
			}
			base, marks = true, 0
		}
		b.WriteRune(r)
	}
	if b.Len() == 0 {
		return "", fmt.Errorf("%w: nothing to show", ErrChat)
	}
	return b.String(), nil
}

// ChatAck (client → server, sealed) acknowledges a room line: the server
// sends it to this peer no more.
type ChatAck struct {
	Header
	// Seq is the room's number of the line (ChatLine.Seq).
	Seq uint32
}

// Len returns the encoded size of a ChatAck (25 bytes).
func (p *ChatAck) Len() int { return HeaderLen + 4 }

// Append appends the ChatAck to b.
func (p *ChatAck) Append(b []byte) []byte { return p.AppendBody(p.appendAs(b, TypeChatAck)) }

// AppendBody appends the ChatAck's body: Seq.
func (p *ChatAck) AppendBody(b []byte) []byte { return binary.BigEndian.AppendUint32(b, p.Seq) }

// PacketType returns TypeChatAck.
func (*ChatAck) PacketType() Type { return TypeChatAck }

// ParseChatAck decodes a ChatAck in its clear form.
func ParseChatAck(b []byte) (ChatAck, error) {
	h, err := ParseHeader(b)
	if err != nil {
		return ChatAck{}, err
	}
	return ParseChatAckBody(h, b[HeaderLen:])
}

// ParseChatAckBody decodes the body b of a ChatAck.
func ParseChatAckBody(h Header, b []byte) (ChatAck, error) {
	if err := h.want(TypeChatAck); err != nil {
		return ChatAck{}, err
	}
	r := reader{b: b}
	p := ChatAck{Header: h, Seq: r.u32()}
	if err := r.end(); err != nil {
		return ChatAck{}, err
	}
	return p, nil
}
