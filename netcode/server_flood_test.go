package netcode

import (
	"net/netip"
	"testing"
	"time"

	"ttytanks/proto"
)

// BenchmarkServerHelloFlood is the server's cost of one Hello of a flood:
// Hellos from 65,536 spoofed sources (each source's rate limit is spent
// by its first few), a millisecond apart, in a server with a running
// match. Run it on two versions of the code to compare what a flood costs
// them per datagram.
func BenchmarkServerHelloFlood(b *testing.B) {
	s, err := NewServer(ServerConfig{Players: 2, Seed: 1, Secret: []byte("0123456789abcdef")})
	if err != nil {
		b.Fatal(err)
	}
	hello := (&proto.Hello{Header: proto.Header{Session: 1}}).Append(nil)
	now := simEpoch
	answered := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		from := netip.AddrPortFrom(netip.AddrFrom4([4]byte{198, 18, byte(i >> 8), byte(i)}), uint16(1024+i%4096))
		now = now.Add(time.Millisecond / 16)
		answered += len(s.Receive(now, from, hello))
	}
	b.StopTimer()
	b.ReportMetric(float64(answered)/float64(b.N), "answered/op")
}

// BenchmarkServerKeyExchange is the server's cost of a valid Join: the
// cookie's check, an X25519 key pair and agreement, the transcript, an
// Ed25519 signature and the key schedule — the public-key work a client
// can make the server do once it has shown, with the cookie, that it
// receives at its address (the handshake rate limit then bounds it).
func BenchmarkServerKeyExchange(b *testing.B) {
	s, err := NewServer(ServerConfig{Players: 2, Seed: 1, Secret: []byte("0123456789abcdef"), MaxSeatsPerAddr: 4})
	if err != nil {
		b.Fatal(err)
	}
	now := simEpoch
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		from := netip.AddrPortFrom(netip.AddrFrom4([4]byte{198, 18, byte(i >> 8), byte(i)}), 1024)
		cookie, err := tryCookie(s, now, from, uint64(i+1))
		if err != nil {
			b.Fatal(err)
		}
		j := proto.Join{Header: proto.Header{Session: uint64(i + 1)}, Cookie: cookie, Eph: [32]byte{9}}
		d := j.Append(nil)
		b.StartTimer()
		out := s.Receive(now, from, d)
		b.StopTimer()
		if len(out) != 1 {
			b.Fatalf("%d answers to a Join", len(out))
		}
		if i%1000 == 999 {
			now = now.Add(connUnplacedFor + time.Second)
			s.conns.sweep(now, s.rooms.holds) // forget the unplaced connections, as the server's tick does
		}
		b.StartTimer()
	}
}
