package netcode

import (
	"net/netip"
	"testing"
	"time"

	"ttytanks/proto"
)

// FuzzServerSealed drives a server that holds one real connection (a
// seated player) with a script of hostile datagrams: raw bytes from a
// stranger, bodies of any type sealed under the player's own keys (what
// a client with a bug, or a compromised one, can send), damaged copies of
// the player's sealed datagrams, and time passing. Whatever the script,
// the server never panics (no fault is counted), never answers a stranger
// with more bytes than it sent, and the player's connection stays good:
// its next Request is answered with a Start.
func FuzzServerSealed(f *testing.F) {
	f.Add([]byte{0, 3, 0x54, 0x54, 4})
	f.Add([]byte{1, 5, byte(proto.TypeInput), 0, 0, 1, 1})
	f.Add([]byte{1, 2, byte(proto.TypeLeave), 1, 2, 1, 30})
	f.Add([]byte{1, 1, byte(proto.TypeRequest), 3, 0, 200})
	f.Add([]byte{1, 9, byte(proto.TypePathResponse), 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add([]byte{0, 28, 0x54, 0x54, 4, 0x85, 0, 0, 0, 1, 0, 0, 0, 9, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18})
	f.Fuzz(func(t *testing.T, script []byte) {
		s := newRoomServer(t, ServerConfig{Players: 2, Bots: 1, NewBot: func(int, uint64) InputSource { return walker{} }})
		now := simEpoch
		player := netip.MustParseAddrPort("192.0.2.1:4000")
		stranger := netip.MustParseAddrPort("198.51.100.9:5000")
		p := rawSeated(t, s, now, player, 0x77, "p")
		for len(script) >= 2 {
			op, n := script[0]%4, int(script[1])
			script = script[2:]
			n = min(n, len(script))
			data := script[:n]
			script = script[n:]
			switch op {
			case 0: // raw bytes from a stranger
				sent := 0
				for _, d := range s.Receive(now, stranger, append([]byte(nil), data...)) {
					sent += len(d.Data)
				}
				if sent > len(data) {
					t.Fatalf("%d bytes from a stranger got %d back", len(data), sent)
				}
			case 1: // any body, of any type, sealed under the player's keys
				if len(data) == 0 {
					continue
				}
				pkt := &handmade{h: proto.Header{Type: proto.Type(data[0] % 20), Match: p.match, Player: p.slot}, body: data[1:]}
				sealed, err := p.seal.AppendPacket(nil, pkt, p.epochs.of(p.match, p.slot))
				if err != nil {
					continue
				}
				s.Receive(now, player, sealed)
			case 2: // a sealed Input of the player, damaged at a byte
				in := proto.Input{Header: proto.Header{Match: p.match, Player: p.slot}, N: 1}
				b := p.sealed(&in)
				if len(data) > 0 {
					b[int(data[0])%len(b)] ^= 1 | data[len(data)-1]
				}
				s.Receive(now, player, b)
			case 3: // time passes: ticks run
				for k := 0; k < len(data) && k < 8; k++ {
					now = now.Add(time.Duration(data[k]) * time.Millisecond)
					s.Tick(now)
				}
			}
			if s.drops[DropFault] != 0 || s.tl.faults != 0 {
				t.Fatalf("a fault: %d drops, %d faults", s.drops[DropFault], s.tl.faults)
			}
		}
		if now.Sub(simEpoch) >= FreeAfter {
			return // the place may have been freed for silence, and the connection forgotten with it
		}
		st, why, err := p.tryRequest(s, now, proto.Request{Name: "p"})
		if err != nil || (st == nil && why == 0) {
			t.Fatalf("the player's connection is gone: %v", err)
		}
	})
}
