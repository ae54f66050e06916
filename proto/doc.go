// Package proto is the ttytanks wire format: versioned UDP datagrams,
// big-endian with explicit field widths, never larger than MaxDatagram
// bytes. PROTOCOL.md at the repository root documents every byte; a test
// decodes its examples so the document cannot drift from this code.
//
// Every packet type X has the same codec shape: (*X).Append(b) appends the
// whole datagram, header included, and does not allocate when b has room;
// (*X).Len() is the number of bytes Append writes; ParseX(b) decodes a
// whole datagram and returns an error (never a panic) for anything
// truncated, oversized, foreign, of another version or type, with trailing
// bytes or with a field out of range. The errors are the exported
// sentinels (ErrShort, ErrVersion, ...), possibly wrapped: test them with
// errors.Is. State, the one large packet, decodes in place with
// ParseState(b, &dst) and allocates nothing; so do ParseInput and ParseAck.
//
// A receive loop parses the header first, then the packet its type names:
//
//	buf := make([]byte, proto.MaxDatagram+1) // one spare byte exposes oversize datagrams
//	var st proto.State                       // reused: ParseState decodes in place
//	for {
//		n, from, err := conn.ReadFromUDPAddrPort(buf)
//		if err != nil {
//			return err
//		}
//		b := buf[:n]
//		h, err := proto.ParseHeader(b) // size, magic, version, type
//		if err != nil {
//			var ve *proto.VersionError
//			if errors.As(err, &ve) {
//				log.Print(ve) // "proto: peer speaks protocol v2, this build speaks v1"
//			}
//			continue // drop anything that is not ours
//		}
//		switch h.Type {
//		case proto.TypeAck:
//			ack, err := proto.ParseAck(b)
//			if err != nil {
//				continue
//			}
//			handleAck(from, &ack)
//		case proto.TypeState:
//			if err := proto.ParseState(b, &st); err != nil {
//				continue
//			}
//			// identity (session, match, player) → freshness (wrap-safe
//			// tick compare) → game.Hash(&st.Snapshot) == st.Hash → apply
//			handleState(from, &st)
//		case proto.TypeStart:
//			start, err := proto.ParseStart(b)
//			if err != nil {
//				continue
//			}
//			handleStart(from, &start)
//		case proto.TypeReject:
//			rej, err := proto.ParseReject(b)
//			if err != nil {
//				continue
//			}
//			return fmt.Errorf("server refused: %v", rej.Reason)
//		}
//	}
//
// The handshake is Hello (padded to HelloLen) → Challenge (a stateless
// cookie from a CookieJar) → Join (the cookie, a name, maybe a reconnect
// Token) → Start; then Input upstream and Ack or State downstream every
// tick, and Leave or Reject to end (a Leave from the client is answered
// with a Leave, so the client knows its seat is free).
//
// Names that cross the wire pass through SanitizeName, so no peer can put
// terminal escapes on another's screen.
package proto
