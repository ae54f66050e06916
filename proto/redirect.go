package proto

import (
	"encoding/binary"
	"fmt"
	"net/netip"
)

// The address families of a Redirect.
const (
	redirectFamily4 = 4
	redirectFamily6 = 6
)

// Redirect flag bits.
const (
	redirectPrivate = 1 << 0 // Private
	redirectCasual  = 1 << 1 // Casual (version 8)
)

// Redirect (server → client, sealed) answers a Request that a server of a
// fleet places on another server of the fleet, instead of a Start, and
// answers each repeat of it the same way. The client opens a new session
// with a fresh handshake to Addr, takes the target only if the server key
// of its Accept is Key (the server it already trusts vouches for it), and
// sends there a Request for Kind, Room and the settings, with Redirected
// set; that Request is never redirected again (PROTOCOL.md §4.10, §5.20).
type Redirect struct {
	Header
	// Addr is the target server's public UDP address: neither
	// unspecified nor multicast, port not 0. An IPv4-mapped IPv6 address
	// travels as IPv4 (Append unmaps it), and is parsed as IPv4.
	Addr netip.AddrPort
	// Key is the target server's long-term Ed25519 public key, the one
	// that signs its handshake.
	Key [ServerKeyLen]byte
	// Kind, Room, Seats, Bots, Private and Casual are the room to ask
	// the target for, with the rules of a Request's, but for RoomLobby,
	// which no Redirect names, and a Room that is empty only for
	// RoomQuick.
	Kind        RoomKind
	Room        string
	Seats, Bots uint8
	Private     bool
	Casual      bool
}

// redirectAddrLen returns the size on the wire of a's IP: 4 for IPv4 (an
// IPv4-mapped IPv6 address included), else 16.
func redirectAddrLen(a netip.Addr) int {
	if a.Unmap().Is4() {
		return 4
	}
	return 16
}

// Len returns the encoded size of the Redirect's clear form: 61 bytes plus
// the IP (4 or 16 bytes) and the room.
func (p *Redirect) Len() int {
	return HeaderLen + 1 + redirectAddrLen(p.Addr.Addr()) + 2 + ServerKeyLen + 2 + len(p.Room) + 3
}

// Append appends the Redirect to b. An Addr that is not valid is written
// as the IPv6 unspecified address, and a Room longer than MaxNameLen bytes
// as it is: the receiver rejects both.
func (p *Redirect) Append(b []byte) []byte { return p.AppendBody(p.appendAs(b, TypeRedirect)) }

// AppendBody appends the Redirect's body, what follows its header, to b.
func (p *Redirect) AppendBody(b []byte) []byte {
	ip := p.Addr.Addr().Unmap()
	if ip.Is4() {
		a := ip.As4()
		b = append(b, redirectFamily4)
		b = append(b, a[:]...)
	} else {
		a := ip.As16()
		b = append(b, redirectFamily6)
		b = append(b, a[:]...)
	}
	b = binary.BigEndian.AppendUint16(b, p.Addr.Port())
	b = append(b, p.Key[:]...)
	b = append(b, byte(p.Kind), byte(len(p.Room)))
	b = append(b, p.Room...)
	var flags byte
	if p.Private {
		flags |= redirectPrivate
	}
	if p.Casual {
		flags |= redirectCasual
	}
	return append(b, flags, p.Seats, p.Bots)
}

// PacketType returns TypeRedirect.
func (*Redirect) PacketType() Type { return TypeRedirect }

// ParseRedirect decodes a Redirect. It rejects an address family other
// than 4 and 6, an unspecified, multicast or (family 6) IPv4-mapped IP,
// port 0 (ErrRange); undefined flag bits (ErrFlags); a room longer than
// MaxNameLen bytes or not valid UTF-8 (ErrName); and RoomLobby or an
// unknown kind, an empty room with any kind but RoomQuick, a room with
// RoomQuick, and room settings that a Request could not carry (ErrRange).
func ParseRedirect(b []byte) (Redirect, error) {
	h, err := ParseHeader(b)
	if err != nil {
		return Redirect{}, err
	}
	return ParseRedirectBody(h, b[HeaderLen:])
}

// ParseRedirectBody decodes the body b of a Redirect, what follows its header h:
// the rest of a clear datagram, or the opened body of a sealed one.
func ParseRedirectBody(h Header, b []byte) (Redirect, error) {
	if err := h.want(TypeRedirect); err != nil {
		return Redirect{}, err
	}
	r := reader{b: b}
	p := Redirect{Header: h}
	var ip netip.Addr
	switch family := r.u8(); {
	case r.short:
		return Redirect{}, ErrShort
	case family == redirectFamily4:
		if v := r.bytes(4); v != nil {
			ip = netip.AddrFrom4([4]byte(v))
		}
	case family == redirectFamily6:
		if v := r.bytes(16); v != nil {
			ip = netip.AddrFrom16([16]byte(v))
		}
	default:
		return Redirect{}, fmt.Errorf("%w: address family %d", ErrRange, family)
	}
	port := r.u16()
	copy(p.Key[:], r.bytes(ServerKeyLen))
	p.Kind = RoomKind(r.u8())
	room, err := r.name()
	if err != nil {
		return Redirect{}, err
	}
	flags := r.u8()
	p.Seats, p.Bots = r.u8(), r.u8()
	if err := r.end(); err != nil {
		return Redirect{}, err
	}
	if flags&^(redirectPrivate|redirectCasual) != 0 {
		return Redirect{}, ErrFlags
	}
	p.Private, p.Casual = flags&redirectPrivate != 0, flags&redirectCasual != 0
	switch {
	case ip.IsUnspecified() || ip.IsMulticast() || ip.Is4In6():
		return Redirect{}, fmt.Errorf("%w: redirect to %v", ErrRange, ip)
	case port == 0:
		return Redirect{}, fmt.Errorf("%w: redirect to port 0", ErrRange)
	case p.Kind == RoomLobby:
		return Redirect{}, fmt.Errorf("%w: no Redirect sends to the lobby", ErrRange)
	}
	if err := checkRoomChoice(p.Kind, room, p.Seats, p.Bots, p.Private); err != nil {
		return Redirect{}, err
	}
	if p.Casual && p.Kind != RoomCreate {
		return Redirect{}, fmt.Errorf("%w: only a room to create is casual", ErrRange)
	}
	if p.Kind != RoomQuick && len(room) == 0 {
		return Redirect{}, fmt.Errorf("%w: a Redirect of kind %d names its room", ErrRange, p.Kind)
	}
	p.Addr, p.Room = netip.AddrPortFrom(ip, port), string(room)
	return p, nil
}
