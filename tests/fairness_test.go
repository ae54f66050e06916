package tests

import (
	"errors"
	"testing"
	"time"

	"ttytanks/netcode"
	"ttytanks/netcode/transport"
	"ttytanks/proto"
)

// TestUDPFairShare: over real UDP on loopback, six players from six
// source ports of one address get four seats (the rest are told why), a
// player at another address joins at once, and a cookie replayed by
// another session from the same socket is refused.
func TestUDPFairShare(t *testing.T) {
	_, saddr := serveUDP(t, netcode.ServerConfig{Players: 8})
	start := func(local string) *netcode.ClientDriver {
		ct, err := transport.ListenUDP(local)
		if err != nil {
			t.Fatal(err)
		}
		d := netcode.StartClient(netcode.NewClient(netcode.ClientConfig{Server: saddr}), ct)
		t.Cleanup(d.Close)
		return d
	}
	status := func(d *netcode.ClientDriver) netcode.Status {
		var v netcode.View
		d.View(&v)
		return v.Status
	}
	var greedy []*netcode.ClientDriver
	for i := 0; i < 6; i++ {
		greedy = append(greedy, start("127.0.0.1:0"))
	}
	deadline := time.Now().Add(5 * time.Second)
	var seated, refused int
	for time.Now().Before(deadline) {
		seated, refused = 0, 0
		for _, d := range greedy {
			var re *netcode.RefusedError
			switch {
			case status(d) == netcode.StatusWaiting:
				seated++
			case errors.As(d.Err(), &re) && re.Reason == proto.RejectAddrLimit:
				refused++
			}
		}
		if seated+refused == len(greedy) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if seated != netcode.DefaultSeatsPerAddr || refused != 2 {
		t.Fatalf("six players from one address: %d seated, %d refused; want %d and 2", seated, refused, netcode.DefaultSeatsPerAddr)
	}
	other := start("127.0.0.2:0")
	for status(other) != netcode.StatusWaiting {
		if time.Now().After(deadline.Add(2 * time.Second)) {
			t.Fatalf("a player at another address: %v %v", status(other), other.Err())
		}
		time.Sleep(20 * time.Millisecond)
	}

	// A cookie is good for one session: a Join of another session with it
	// is refused, from the same socket.
	raw, err := transport.ListenUDP("127.0.0.3:0")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	buf := make([]byte, 2048)
	ask := func(b []byte) []byte {
		if err := raw.Send(saddr, b); err != nil {
			t.Fatal(err)
		}
		got := make(chan []byte, 1)
		go func() {
			n, _, err := raw.Recv(buf)
			if err != nil {
				got <- nil
				return
			}
			got <- append([]byte(nil), buf[:n]...)
		}()
		select {
		case b := <-got:
			return b
		case <-time.After(3 * time.Second):
			t.Fatal("no answer")
			return nil
		}
	}
	ch, err := proto.ParseChallenge(ask((&proto.Hello{Header: proto.Header{Session: 0x500}}).Append(nil)))
	if err != nil {
		t.Fatal(err)
	}
	rej, err := proto.ParseReject(ask((&proto.Join{Header: proto.Header{Session: 0x501}, Cookie: ch.Cookie}).Append(nil)))
	if err != nil || rej.Reason != proto.RejectBadCookie {
		t.Fatalf("another session's cookie: %v %v, want a bad-cookie Reject", rej.Reason, err)
	}
}
