// Package proto is the ttytanks wire format: versioned UDP datagrams,
// big-endian with explicit field widths, never larger than MaxDatagram
// bytes. PROTOCOL.md at the repository root documents every byte; a test
// decodes its examples, recomputes its handshake vector and seals its
// sealed examples, so the document cannot drift from this code.
//
// Every packet type X has the same codec shape, for its clear form (the
// 21-byte Header, then its body): (*X).Append(b) appends the whole clear
// datagram, header included, and does not allocate when b has room;
// (*X).Len() is the number of bytes Append writes; (*X).AppendBody(b)
// appends the body alone and (*X).PacketType() names the type, which is
// what the sealed layer needs (X is a Packet); ParseX(b) decodes a whole
// clear datagram, ParseXBody(h, body) the body alone once the header is
// known, and both return an error (never a panic) for anything
// truncated, oversized, foreign, of another version or type, with
// trailing bytes or with a field out of range. The errors are the
// exported sentinels (ErrShort, ErrVersion, ...), possibly wrapped: test
// them with errors.Is. State, the one large packet, decodes in place with
// ParseState(b, &dst) and allocates nothing; so do ParseInput and
// ParseAck.
//
// Only the handshake (Hello, Challenge, Join, Accept, a Reject that
// answers one of them) and the room list (ListRooms, RoomList) travel in
// the clear. A session's packets after its handshake travel sealed
// (Type.Sealed): the sender seals the packet with Sealer.AppendPacket,
// which writes the sealed header, the epoch that stands for its match and
// player, and the packet's body, and seals them in place under the
// connection's key; the receiver opens it with Opener.Open (connection
// id, replay window, authentication), reads the epoch with
// SplitSealedBody and decodes the rest with the packet's ParseXBody. No
// clear datagram is built on either side.
//
// A client's receive loop, once its handshake is done: opener is its
// connection's Opener, session its session id, and epochs a
// map[uint8]place of the (match, player) each epoch stands for, which
// Starts fill in:
//
//	buf := make([]byte, proto.MaxDatagram+1) // one spare byte exposes oversize datagrams
//	opened := make([]byte, 0, proto.MaxDatagram)
//	var st proto.State // reused: ParseStateBody decodes in place
//	for {
//		n, from, err := conn.ReadFromUDPAddrPort(buf)
//		if err != nil {
//			return err
//		}
//		b := buf[:n]
//		if from != server || len(b) > proto.MaxDatagram {
//			continue
//		}
//		sh, ok := proto.ParseSealedHeader(b) // magic, version, sealed type; no crypto
//		if !ok {
//			_, err := proto.ParseHeader(b) // a clear datagram: after the handshake, never ours
//			var ve *proto.VersionError
//			if errors.As(err, &ve) {
//				log.Print(ve) // "proto: peer speaks protocol v3, this build speaks v4"
//			}
//			continue
//		}
//		_, body, err := opener.Open(opened[:0], b) // connection, replay window, tag
//		if err != nil {
//			dropped++ // ErrOpen, ErrReplay, ErrTooOld, ...: count it, never answer
//			continue
//		}
//		epoch, match, rest, err := proto.SplitSealedBody(sh.Type, body)
//		if err != nil {
//			continue
//		}
//		if sh.Type == proto.TypeStart && len(rest) > 0 {
//			epochs[epoch] = place{match, rest[0]} // a Start's first byte is the addressee's slot
//		}
//		p := epochs[epoch] // epoch 0, or one not known: match 0, player 0
//		h := proto.Header{Type: sh.Type, Session: session, Match: p.match, Player: p.player, Seq: sh.PN}
//		switch sh.Type {
//		case proto.TypeAck:
//			ack, err := proto.ParseAckBody(h, rest)
//			if err != nil {
//				continue
//			}
//			handleAck(&ack)
//		case proto.TypeState:
//			if err := proto.ParseStateBody(h, rest, &st); err != nil {
//				continue
//			}
//			// identity (match, player) → freshness (wrap-safe tick
//			// compare) → game.Hash(&st.Snapshot) == st.Hash → apply
//			handleState(&st)
//		case proto.TypeStart:
//			start, err := proto.ParseStartBody(h, rest)
//			if err != nil {
//				continue
//			}
//			handleStart(&start)
//		case proto.TypeReject:
//			rej, err := proto.ParseRejectBody(h, rest)
//			if err != nil {
//				continue
//			}
//			return fmt.Errorf("server refused: %v", rej.Reason)
//		}
//	}
//
// The handshake is Hello (padded to HelloLen) → Challenge (a stateless
// cookie from a CookieJar) → Join (the cookie and the client's ephemeral
// X25519 key, padded to JoinLen) → Accept (the connection id, the
// server's ephemeral key, its long-term Ed25519 key and its signature:
// the client checks it with VerifyTranscript over Transcript and derives
// the keys with DeriveKeys) → a sealed Request (name, room, maybe a
// reconnect Token with its ResumeProof) → a sealed Start; then sealed
// Input upstream and sealed Ack or State downstream every tick, and
// Leave or Reject to end (a Leave from the client is answered with a
// Leave, so the client knows its seat is free). PathChallenge and
// PathResponse check a client's new address after its connection moved.
// A server of a fleet may answer a Request with a Redirect instead of a
// Start: the client makes a new handshake with the server it names,
// takes only the key it gives, and sends there a Request with Redirected
// set, which is never redirected again.
//
// Names that cross the wire pass through SanitizeName, so no peer can put
// terminal escapes on another's screen.
package proto
