package sshfront

import (
	"bytes"
	"errors"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gliderlabs/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// trackedConn is an accepted TCP connection, with its slot in the
// server's admission gate until it is closed: closed if it opens no
// channel within Config.HandshakeTimeout, or is not admitted (a session
// with a PTY, its shell and a seat) within Config.SetupTimeout, or has
// had no session for Config.Unused once admitted, or when the gate drops
// it to make room.
type trackedConn struct {
	net.Conn
	s         *Server
	slot      *slot // the gate's; guarded by s.mu
	ip        netip.Addr
	key       gossh.PublicKey // the authenticated key, if any; guarded by s.mu
	offered   []string        // the keys the client offered (wire encodings, at most maxOffered); guarded by s.mu
	handshake *time.Timer
	setup     *time.Timer
	unused    *time.Timer  // armed while an admitted connection has no session channel
	reads     atomic.Int32 // reads with bytes, counted up to handshakeReads
	channels  atomic.Int32 // open session channels
	once      sync.Once
}

type trackedConnKey struct{}

// connOf is the trackedConn of a connection's context, or nil.
func connOf(ctx ssh.Context) *trackedConn {
	tc, _ := ctx.Value(trackedConnKey{}).(*trackedConn)
	return tc
}

// admitConn is gliderlabs' ConnCallback: it asks the gate, closes the
// connections the gate drops to make room, and counts the new one, or
// refuses it (nil). Refusals and drops are tallied, not logged one by
// one (TallyEvery).
func (s *Server) admitConn(ctx ssh.Context, nc net.Conn) net.Conn {
	var ip netip.Addr
	if ap, err := netip.ParseAddrPort(nc.RemoteAddr().String()); err == nil {
		ip = ap.Addr().Unmap()
	}
	now := time.Now()
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	sl, drop, refused := s.gate.admit(ip, now)
	victims := make([]*trackedConn, 0, len(drop))
	for _, v := range drop {
		if c := s.conns[v]; c != nil {
			victims = append(victims, c)
		}
		delete(s.conns, v)
		s.tallyLocked("dropped: room for a new connection ("+v.droppedAt.String()+")", v.ip, now)
	}
	var tc *trackedConn
	if refused == "" {
		tc = &trackedConn{Conn: nc, s: s, slot: sl, ip: ip}
		s.conns[sl] = tc
		// On a deadline the raw connection is closed; gliderlabs then
		// closes tc.
		tc.handshake = time.AfterFunc(s.cfg.HandshakeTimeout, func() { tc.expire("handshake deadline") })
		tc.setup = time.AfterFunc(s.cfg.SetupTimeout, func() { tc.expire("setup deadline") })
	} else {
		s.tallyLocked("refused: "+refused, ip, now)
	}
	s.mu.Unlock()
	for _, c := range victims {
		_ = c.Conn.Close()
	}
	if refused != "" {
		return nil
	}
	ctx.SetValue(trackedConnKey{}, tc)
	return tc
}

// expire closes a connection that is not admitted at a deadline, and
// counts it against its source.
func (c *trackedConn) expire(why string) {
	s := c.s
	now := time.Now()
	s.mu.Lock()
	stage := c.slot.stage
	if stage >= stageAdmitted {
		s.mu.Unlock()
		return
	}
	s.gate.close(c.slot, now, true)
	delete(s.conns, c.slot)
	s.tallyLocked("closed: "+why+" ("+stage.String()+")", c.ip, now)
	s.mu.Unlock()
	_ = c.Conn.Close()
}

// progress moves c's admission forward to stage; admitted, it has no
// setup deadline any more.
func (s *Server) progress(c *trackedConn, stage connStage) {
	s.mu.Lock()
	moved := s.gate.advance(c.slot, stage, time.Now())
	s.mu.Unlock()
	if moved && stage == stageAdmitted {
		c.setup.Stop()
	}
}

// errKexRefused fails the Read of a connection whose key exchange the
// limits refused.
var errKexRefused = errors.New("sshfront: key exchange refused")

// Read is the connection's Read; its first reads (the client's version
// line and key exchange, up to handshakeReads) are progress of its setup,
// and the first of them spends a key-exchange token or closes it.
func (c *trackedConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if n > 0 && c.reads.Load() < handshakeReads {
		nth := c.reads.Add(1)
		if nth > handshakeReads {
			return n, err
		}
		s := c.s
		now := time.Now()
		s.mu.Lock()
		refused := ""
		if nth == 1 {
			if refused = s.gate.kexStart(c.slot, now); refused != "" {
				delete(s.conns, c.slot)
				s.tallyLocked("refused: "+refused, c.ip, now)
			}
		}
		if refused == "" {
			s.gate.touch(c.slot, now)
		}
		s.mu.Unlock()
		if refused != "" {
			_ = c.Conn.Close()
			return 0, errKexRefused
		}
	}
	return n, err
}

// handshook stops the handshake deadline: the connection opened a
// channel, authenticated as conn says (its key, if it offered one).
func (c *trackedConn) handshook(conn *gossh.ServerConn) {
	c.handshake.Stop()
	if key := authedKey(conn); key != nil {
		c.s.mu.Lock()
		c.key = key
		c.s.mu.Unlock()
	}
}

// opened counts a session channel; it reports false, counting nothing,
// if the connection has its MaxChannelsPerConn already. An open channel
// stops the unused timer.
func (c *trackedConn) opened() bool {
	if c.channels.Add(1) > MaxChannelsPerConn {
		c.channels.Add(-1)
		return false
	}
	c.s.mu.Lock()
	if c.unused != nil {
		c.unused.Stop()
	}
	c.s.mu.Unlock()
	return true
}

// shut uncounts a session channel; an admitted connection left without
// one is closed after Config.Unused unless another opens.
func (c *trackedConn) shut() {
	if c.channels.Add(-1) > 0 {
		return
	}
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.slot.stage != stageAdmitted {
		return // a startup has its setup deadline; a closed one nothing
	}
	if c.unused == nil {
		c.unused = time.AfterFunc(s.cfg.Unused, c.closeUnused)
	} else {
		c.unused.Reset(s.cfg.Unused)
	}
}

// closeUnused closes an admitted connection that still has no session.
func (c *trackedConn) closeUnused() {
	if c.channels.Load() > 0 {
		return
	}
	c.s.tally("closed: no session for "+c.s.cfg.Unused.String(), c.ip)
	_ = c.Conn.Close()
}

// maxOffered bounds the keys remembered of one connection's offers.
const maxOffered = 8

// offer records that the client offered key (before its first channel,
// the connection's only trace of a key: a ban of it closes the
// connection).
func (c *trackedConn) offer(key gossh.PublicKey) {
	c.s.mu.Lock()
	if len(c.offered) < maxOffered {
		c.offered = append(c.offered, string(key.Marshal()))
	}
	c.s.mu.Unlock()
}

// offeredLocked reports whether the client offered the key of wire
// encoding wire, or authenticated with it; s.mu is held.
func (c *trackedConn) offeredLocked(wire []byte) bool {
	if c.key != nil && bytes.Equal(c.key.Marshal(), wire) {
		return true
	}
	for _, k := range c.offered {
		if k == string(wire) {
			return true
		}
	}
	return false
}

// Close closes the connection and frees its slot.
func (c *trackedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		c.handshake.Stop()
		c.setup.Stop()
		c.s.mu.Lock()
		if c.unused != nil {
			c.unused.Stop()
		}
		c.s.gate.close(c.slot, time.Now(), false)
		if c.s.conns[c.slot] == c {
			delete(c.s.conns, c.slot)
		}
		c.s.mu.Unlock()
	})
	return err
}

// tally counts one refusal, drop or close of a client at ip (tallyLocked
// with s.mu held).
func (s *Server) tally(event string, ip netip.Addr) {
	s.mu.Lock()
	s.tallyLocked(event, ip, time.Now())
	s.mu.Unlock()
}

func (s *Server) tallyLocked(event string, ip netip.Addr, now time.Time) {
	if s.tallies.add(event, prefixOf(ip), now) {
		time.AfterFunc(TallyEvery, s.flushTally)
	}
}

// flushTally logs the line of the interval that ends now, if anything
// happened in it.
func (s *Server) flushTally() {
	s.mu.Lock()
	l, ok := s.tallies.take()
	s.mu.Unlock()
	if ok {
		l.log(s.log, time.Now())
	}
}
