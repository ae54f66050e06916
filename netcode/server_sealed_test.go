package netcode

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"net"
	"net/netip"
	"sync"
	"testing"
	"time"

	"ttytanks/game"
	"ttytanks/netcode/transport"
	"ttytanks/proto"
)

// These tests put the sealed transport between a real client and a real
// server over UDP on 127.0.0.1, with a relay in the middle that sees and
// may change every datagram, as an attacker on the path could.

// relay forwards datagrams between one client and a server; up and down,
// if set, decide what goes on for each datagram (several, or none).
type relay struct {
	conn   *transport.UDP
	server netip.AddrPort
	up     func(b []byte) [][]byte
	down   func(b []byte) [][]byte

	mu      sync.Mutex
	client  netip.AddrPort
	seen    [][]byte // every datagram, both ways, as it arrived
	upSeen  int
	stopped chan struct{}
}

func startRelay(t *testing.T, server netip.AddrPort) *relay {
	t.Helper()
	c, err := transport.ListenUDP("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &relay{conn: c, server: server, stopped: make(chan struct{})}
	go r.run()
	t.Cleanup(func() {
		c.Close()
		<-r.stopped
	})
	return r
}

func (r *relay) run() {
	defer close(r.stopped)
	buf := make([]byte, proto.MaxDatagram+1)
	for {
		n, from, err := r.conn.Recv(buf)
		if err != nil {
			return
		}
		b := append([]byte(nil), buf[:n]...)
		r.mu.Lock()
		r.seen = append(r.seen, b)
		f, to := r.up, r.server
		if from == r.server {
			f, to = r.down, r.client
		} else {
			r.client = from
			r.upSeen++
		}
		r.mu.Unlock()
		out := [][]byte{b}
		if f != nil {
			out = f(b)
		}
		for _, d := range out {
			_ = r.conn.Send(to, d)
		}
	}
}

// sealedMatch starts a server with a bot seat on UDP and one client
// through a relay (or, with direct, talking to the server itself); it
// returns them once the client plays.
func sealedMatch(t *testing.T, name string, direct bool, tr func(transport.Transport) transport.Transport, setup func(r *relay)) (*ServerDriver, *ClientDriver, *relay) {
	t.Helper()
	st, err := transport.ListenUDP("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := NewServer(ServerConfig{Players: 2, Bots: 1, Seed: 7, NewBot: func(int, uint64) InputSource { return walker{} }})
	if err != nil {
		t.Fatal(err)
	}
	sd := NewServerDriver(srv, st)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sd.Run(ctx) }()
	r := startRelay(t, st.LocalAddr())
	if setup != nil {
		r.mu.Lock() // run reads up and down under mu: it is running already
		setup(r)
		r.mu.Unlock()
	}
	ct, err := transport.ListenUDP("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var ctr transport.Transport = ct
	if tr != nil {
		ctr = tr(ct)
	}
	to := r.conn.LocalAddr()
	if direct {
		to = st.LocalAddr()
	}
	cd := StartClient(NewClient(ClientConfig{Server: to, Name: name,
		LocalInput: func(w *game.World, slot int) game.Input { return scripted(3, slot, w.Tick()) }}), ctr)
	t.Cleanup(func() {
		cd.CloseNow()
		cancel()
		<-done
	})
	waitPlaying(t, cd, 60)
	return sd, cd, r
}

// waitPlaying polls the client's view (bounded) until it plays past the
// server's tick after.
func waitPlaying(t *testing.T, cd *ClientDriver, after game.Tick) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var v View
		cd.View(&v)
		if v.Status == StatusPlaying && v.Metrics.ServerTick > after {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the client did not get going: %v %q", v.Status, v.Message)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// playFor lets real time pass for d, polling that the client still plays.
func playFor(t *testing.T, cd *ClientDriver, d time.Duration) {
	t.Helper()
	end := time.Now().Add(d)
	for time.Now().Before(end) {
		var v View
		cd.View(&v)
		if v.Status != StatusPlaying {
			t.Fatalf("the client stopped playing: %v %q", v.Status, v.Message)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// serverFigures returns the server's drops and the network player's
// real and guessed ticks.
func serverFigures(sd *ServerDriver) (drops [numDropReasons]uint64, real, guessed uint64) {
	sd.Do(func(s *Server) {
		st := s.Stats()
		drops = st.Drops
		for _, p := range st.Players {
			if !p.Bot {
				real, guessed = p.RealTicks, p.HeldTicks+p.NeutralTicks
			}
		}
	})
	return drops, real, guessed
}

// TestManInTheMiddle: between a real client and server, a relay flips a
// byte of sealed datagrams (copies, both ways), replays old ones, reorders
// within the replay window and beyond it, and forges Inputs for the
// session: sealed ones under its connection id, clear ones with its
// session id. Each is dropped and counted by reason, the client's world
// never disagrees with the server's, and the match plays on.
func TestManInTheMiddle(t *testing.T) {
	var (
		mu      sync.Mutex
		n       int
		history [][]byte
		held    []byte // one datagram held back far beyond the window
		late    [][]byte
		session uint64
		downN   int
	)
	setup := func(r *relay) {
		r.up = func(b []byte) [][]byte {
			mu.Lock()
			defer mu.Unlock()
			sh, sealed := proto.ParseSealedHeader(b)
			if !sealed {
				if h, err := proto.ParseHeader(b); err == nil {
					session = h.Session // read off the wire: the session id is no secret
				}
				return [][]byte{b}
			}
			n++
			history = append(history, b)
			out := [][]byte{}
			switch {
			case n == 20:
				held = b // delivered 300 datagrams later: behind the window
				return nil
			case n == 320:
				out = append(out, held)
			case n%13 == 0:
				late = append(late, b) // delivered after the next two: reordered within the window
				return nil
			case n%13 == 2:
				out = append(out, late...)
				late = late[:0]
			}
			out = append(out, b)
			switch {
			case n%7 == 0: // a copy with one byte flipped
				f := append([]byte(nil), b...)
				f[n%len(f)] ^= 0x40
				out = append(out, f)
			case n%11 == 0 && len(history) > 6: // a replay of an older datagram
				out = append(out, history[len(history)-6])
			case n%17 == 0: // a forged sealed Input: the connection id read off the wire, a fresh packet number
				in := proto.Input{Header: proto.Header{Session: session}, N: 1}
				f := in.Append(nil)
				forged := make([]byte, proto.SealedHeaderLen, proto.SealedHeaderLen+len(f)+proto.SealTagLen)
				copy(forged, b[:proto.SealedHeaderLen])
				binary.BigEndian.PutUint32(forged[8:], sh.PN+50)
				forged = append(forged, f[proto.HeaderLen-1:]...)
				forged = append(forged, bytes.Repeat([]byte{0xAB}, proto.SealTagLen)...)
				out = append(out, forged)
			case n%19 == 0: // a forged Input in the clear, with the session id
				in := proto.Input{Header: proto.Header{Session: session, Player: 0, Seq: uint32(n)}, N: 1}
				out = append(out, in.Append(nil))
			}
			return out
		}
		r.down = func(b []byte) [][]byte {
			mu.Lock()
			defer mu.Unlock()
			if _, sealed := proto.ParseSealedHeader(b); !sealed {
				return [][]byte{b}
			}
			downN++
			if downN%9 == 0 {
				f := append([]byte(nil), b...)
				f[len(f)-1-downN%16] ^= 1 // in the tag
				return [][]byte{b, f}
			}
			return [][]byte{b}
		}
	}
	sd, cd, _ := sealedMatch(t, "victim", false, nil, setup)
	drops0, real0, guessed0 := serverFigures(sd)
	deadline := time.Now().Add(15 * time.Second)
	for {
		playFor(t, cd, 200*time.Millisecond)
		mu.Lock()
		done := n > 340
		mu.Unlock()
		if done {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("only %d sealed datagrams up in 15 s", n)
		}
	}
	drops, real, guessed := serverFigures(sd)
	for _, r := range []DropReason{DropBadSeal, DropReplay, DropTooOld, DropClear} {
		if drops[r] == 0 {
			t.Errorf("no datagram dropped as %v", r)
		}
	}
	t.Logf("server drops: bad-seal %d, replay %d, too-old %d, clear %d, unknown-conn %d, magic %d, version %d, type %d",
		drops[DropBadSeal], drops[DropReplay], drops[DropTooOld], drops[DropClear], drops[DropUnknownConn],
		drops[DropMagic], drops[DropVersion], drops[DropType])
	if d := drops[DropDuplicate] - drops0[DropDuplicate]; d != 0 {
		t.Errorf("%d replays reached the game's own duplicate check: the replay window let them through", d)
	}
	var v View
	var unopened uint64
	cd.Do(func(c *Client) {
		c.View(&v)
		unopened = c.m.unopened
	})
	if v.Metrics.HashMismatches != 0 {
		t.Errorf("%d hash mismatches", v.Metrics.HashMismatches)
	}
	if unopened == 0 {
		t.Error("the client counted none of the damaged datagrams")
	}
	played := real - real0 + guessed - guessed0
	if played < 240 || (guessed-guessed0)*100 > played*3 {
		t.Errorf("the match did not play on: %d ticks, %d guessed", played, guessed-guessed0)
	}
}

// TestNoPlaintextOnTheWire: after the handshake every datagram either
// way is sealed: none parses as a clear packet, and none carries the
// player's name, the match id or the world's seed, which the clear
// protocol sent in every Start and every header.
func TestNoPlaintextOnTheWire(t *testing.T) {
	const name = "Zyxwvutsrq"
	sd, cd, r := sealedMatch(t, name, false, nil, nil)
	playFor(t, cd, time.Second)
	var match uint32
	var seed uint64
	cd.Do(func(c *Client) { match = c.sess.matchID() })
	sd.Do(func(s *Server) { _, seed = s.room0().match.origin() })
	if match == 0 || seed == 0 {
		t.Fatalf("match %d, seed %d: nothing to look for", match, seed)
	}
	var m4 [4]byte
	var s8 [8]byte
	binary.BigEndian.PutUint32(m4[:], match)
	binary.BigEndian.PutUint64(s8[:], seed)
	r.mu.Lock()
	defer r.mu.Unlock()
	accepted, sealed := false, 0
	for _, b := range r.seen {
		if h, err := proto.ParseHeader(b); err == nil && h.Type == proto.TypeAccept {
			accepted = true
			continue
		}
		if !accepted {
			continue
		}
		if _, ok := proto.ParseSealedHeader(b); !ok {
			t.Fatalf("a datagram after the handshake is not sealed: % x", b)
		}
		if _, err := proto.ParseHeader(b); err == nil {
			t.Fatalf("a sealed datagram parses as a clear one: % x", b)
		}
		for what, s := range map[string][]byte{"the name": []byte(name), "the match id": m4[:], "the world seed": s8[:]} {
			if bytes.Contains(b, s) {
				t.Fatalf("%s is on the wire: % x", what, b)
			}
		}
		sealed++
	}
	if !accepted || sealed < 100 {
		t.Fatalf("accepted %v, %d sealed datagrams seen", accepted, sealed)
	}
}

// rebindable is a client transport whose socket can be replaced mid-game,
// as NAT rebinding or a new network does: the old socket is closed and
// sends and receives go through a new one, on a new port.
type rebindable struct {
	mu  sync.Mutex
	cur *transport.UDP
}

func (r *rebindable) sock() *transport.UDP {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cur
}

func (r *rebindable) Send(to netip.AddrPort, b []byte) error { return r.sock().Send(to, b) }

func (r *rebindable) Recv(buf []byte) (int, netip.AddrPort, error) {
	for {
		s := r.sock()
		n, from, err := s.Recv(buf)
		if err != nil && errors.Is(err, net.ErrClosed) && r.sock() != s {
			continue // rebound: read from the new socket
		}
		return n, from, err
	}
}

func (r *rebindable) LocalAddr() netip.AddrPort { return r.sock().LocalAddr() }

func (r *rebindable) Close() error { return r.sock().Close() }

func (r *rebindable) rebind(t *testing.T) {
	t.Helper()
	n, err := transport.ListenUDP("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	old := r.cur
	r.cur = n
	r.mu.Unlock()
	old.Close()
}

// TestRebindLosesNoInputs: the client's source port changes mid-match.
// Its next sealed datagram, from the new port, moves its connection at
// once (after which the server checks the new path): the server guesses
// no more than 100 ms of its inputs, and the seat is at the new address.
func TestRebindLosesNoInputs(t *testing.T) {
	var rb *rebindable
	sd, cd, _ := sealedMatch(t, "mover", true, func(tr transport.Transport) transport.Transport {
		rb = &rebindable{cur: tr.(*transport.UDP)}
		return rb
	}, nil)
	playFor(t, cd, time.Second)
	_, real0, guessed0 := serverFigures(sd)
	old := rb.LocalAddr()
	rb.rebind(t)
	playFor(t, cd, 2*time.Second)
	_, real, guessed := serverFigures(sd)
	lost := guessed - guessed0
	t.Logf("port %d → %d: %d ticks played, %d guessed", old.Port(), rb.LocalAddr().Port(), real-real0+lost, lost)
	if lost > uint64(100*time.Millisecond/TickDuration) {
		t.Fatalf("the server guessed %d ticks of the moved client's inputs, want ≤ 6 (100 ms)", lost)
	}
	var migrations uint64
	var at netip.AddrPort
	sd.Do(func(s *Server) {
		migrations = s.conns.migrations
		for _, c := range s.conns.byID {
			at = c.path
		}
	})
	if migrations != 1 || at != rb.LocalAddr() {
		t.Fatalf("%d migrations, the connection at %v; the client is at %v", migrations, at, rb.LocalAddr())
	}
}
