//go:build linux

package transport

import (
	"bytes"
	"fmt"
	"net/netip"
	"testing"
	"time"
)

// batchPair opens a sender on sendOn and a receiver on 127.0.0.1, and
// returns the receiver's address as the sender must name it.
func batchPair(t testing.TB, sendOn string) (snd, rcv *UDP, to netip.AddrPort) {
	t.Helper()
	snd, err := ListenUDP(sendOn)
	if err != nil {
		t.Fatal(err)
	}
	rcv, err = ListenUDP("127.0.0.1:0")
	if err != nil {
		snd.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { snd.Close(); rcv.Close() })
	// A receive that waits too long fails the test instead of hanging it.
	_ = rcv.conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	return snd, rcv, netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), rcv.LocalAddr().Port())
}

func newMessages(n int) []Message {
	ms := make([]Message, n)
	for i := range ms {
		ms[i].Buf = make([]byte, RecvBufSize)
	}
	return ms
}

// A batch sent in one call arrives whole, in order, each datagram with
// its bytes and its sender's address: from an IPv4 socket and from a
// dual-stack one (whose IPv4 peers are v4-mapped on the socket).
func TestUDPBatchRoundTrip(t *testing.T) {
	for _, on := range []string{"127.0.0.1:0", ":0"} {
		t.Run(on, func(t *testing.T) {
			snd, rcv, to := batchPair(t, on)
			snd.mm.send = newMmsgBufs(16) // several send calls per batch
			// Fewer than a socket buffer holds: nothing reads while it is sent.
			const n = 100
			ds := make([]Datagram, n)
			for i := range ds {
				ds[i] = Datagram{Addr: to, Data: []byte(fmt.Sprintf("datagram %03d %s", i, bytes.Repeat([]byte{'x'}, i%97)))}
			}
			if err := snd.SendBatch(ds); err != nil {
				t.Fatal(err)
			}
			ms := newMessages(64)
			got := 0
			for got < n {
				k, err := rcv.RecvBatch(ms)
				if err != nil {
					t.Fatal(err)
				}
				if k < 1 || k > len(ms) {
					t.Fatalf("RecvBatch returned %d", k)
				}
				for _, m := range ms[:k] {
					if want := ds[got].Data; !bytes.Equal(m.Buf[:m.N], want) {
						t.Fatalf("datagram %d: %q, want %q", got, m.Buf[:m.N], want)
					}
					if m.Addr.Addr() != to.Addr() || m.Addr.Port() != snd.LocalAddr().Port() {
						t.Fatalf("datagram %d from %v, the sender is %v", got, m.Addr, snd.LocalAddr())
					}
					got++
				}
			}
			if got != n {
				t.Fatalf("%d of %d datagrams arrived", got, n)
			}
		})
	}
}

// A datagram to an address the socket cannot reach is skipped; the rest
// of the batch goes out.
func TestUDPBatchSkipsTheUnreachable(t *testing.T) {
	snd, rcv, to := batchPair(t, "127.0.0.1:0")
	ds := []Datagram{
		{Addr: to, Data: []byte("one")},
		{Addr: netip.MustParseAddrPort("[2001:db8::1]:9"), Data: []byte("nowhere")}, // IPv6 from an IPv4 socket
		{Addr: to, Data: []byte("two")},
	}
	if err := snd.SendBatch(ds); err != nil {
		t.Fatal(err)
	}
	ms := newMessages(8)
	var got []string
	for len(got) < 2 {
		k, err := rcv.RecvBatch(ms)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms[:k] {
			got = append(got, string(m.Buf[:m.N]))
		}
	}
	if fmt.Sprint(got) != "[one two]" {
		t.Fatalf("received %q", got)
	}
}

// BenchmarkUDPBatch sends 64 State-sized datagrams in one call and
// receives them in batches: the cost per datagram (ns/datagram), with no
// allocation.
func BenchmarkUDPBatch(b *testing.B) {
	snd, rcv, to := batchPair(b, "127.0.0.1:0")
	const batch = 64
	ds := make([]Datagram, batch)
	for i := range ds {
		ds[i] = Datagram{Addr: to, Data: make([]byte, 127)}
	}
	ms := newMessages(batch)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := snd.SendBatch(ds); err != nil {
			b.Fatal(err)
		}
		for got := 0; got < batch; {
			k, err := rcv.RecvBatch(ms)
			if err != nil {
				b.Fatal(err)
			}
			got += k
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*batch), "ns/datagram")
}

// BenchmarkUDPSingle is BenchmarkUDPBatch one system call per datagram,
// the path without batches.
func BenchmarkUDPSingle(b *testing.B) {
	snd, rcv, to := batchPair(b, "127.0.0.1:0")
	const batch = 64
	msg := make([]byte, 127)
	buf := make([]byte, RecvBufSize)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := 0; j < batch; j++ {
			if err := snd.Send(to, msg); err != nil {
				b.Fatal(err)
			}
		}
		for j := 0; j < batch; j++ {
			if _, _, err := rcv.Recv(buf); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*batch), "ns/datagram")
}
