package sshfront

import (
	"bytes"
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
// with a PTY, its shell and a seat) within Config.SetupTimeout, or when
// the gate drops it to make room.
type trackedConn struct {
	net.Conn
	s         *Server
	slot      *slot // the gate's; guarded by s.mu
	ip        netip.Addr
	key       gossh.PublicKey // the authenticated key, if any; guarded by s.mu
	handshake *time.Timer
	setup     *time.Timer
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
// refuses it (nil).
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
	type victim struct {
		c     *trackedConn
		stage connStage
		idle  time.Duration
	}
	victims := make([]victim, 0, len(drop))
	for _, v := range drop {
		victims = append(victims, victim{s.conns[v], v.droppedAt, v.droppedIdle})
		delete(s.conns, v)
	}
	var tc *trackedConn
	if refused == "" {
		tc = &trackedConn{Conn: nc, s: s, slot: sl, ip: ip}
		s.conns[sl] = tc
		// On a deadline the raw connection is closed; gliderlabs then
		// closes tc.
		tc.handshake = time.AfterFunc(s.cfg.HandshakeTimeout, func() { tc.expire("handshake deadline") })
		tc.setup = time.AfterFunc(s.cfg.SetupTimeout, func() { tc.expire("setup deadline") })
	}
	s.mu.Unlock()
	for _, v := range victims {
		if v.c != nil {
			s.log.Info("ssh connection dropped", "reason", "room for a new connection", "stage", v.stage.String(),
				"idle", v.idle, "remote", v.c.RemoteAddr().String())
			_ = v.c.Conn.Close()
		}
	}
	if refused != "" {
		s.log.Info("ssh connection refused", "reason", refused, "remote", nc.RemoteAddr().String())
		return nil
	}
	ctx.SetValue(trackedConnKey{}, tc)
	return tc
}

// expire closes a connection that is not admitted at a deadline, and
// counts it against its source.
func (c *trackedConn) expire(why string) {
	s := c.s
	s.mu.Lock()
	stage := c.slot.stage
	if stage >= stageAdmitted {
		s.mu.Unlock()
		return
	}
	s.gate.close(c.slot, time.Now(), true)
	delete(s.conns, c.slot)
	s.mu.Unlock()
	s.log.Info("ssh connection closed", "reason", why, "stage", stage.String(), "remote", c.RemoteAddr().String())
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

// authed records c's authentication, with its key if one was asked.
func (s *Server) authed(c *trackedConn, key gossh.PublicKey) {
	s.mu.Lock()
	if key != nil {
		c.key = key
	}
	s.mu.Unlock()
	s.progress(c, stageAuthed)
}

// Read is the connection's Read; its first reads (the client's version
// line and key exchange, up to handshakeReads) are progress of its setup.
func (c *trackedConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if n > 0 && c.reads.Load() < handshakeReads && c.reads.Add(1) <= handshakeReads {
		c.s.mu.Lock()
		c.s.gate.touch(c.slot, time.Now())
		c.s.mu.Unlock()
	}
	return n, err
}

// handshook stops the handshake deadline: the connection opened a channel.
func (c *trackedConn) handshook() { c.handshake.Stop() }

// Close closes the connection and frees its slot.
func (c *trackedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		c.handshake.Stop()
		c.setup.Stop()
		c.s.mu.Lock()
		c.s.gate.close(c.slot, time.Now(), false)
		if c.s.conns[c.slot] == c {
			delete(c.s.conns, c.slot)
		}
		c.s.mu.Unlock()
	})
	return err
}

// Ban refuses addr from now on, for the server's life, and closes the
// connections from it (players' included).
func (s *Server) Ban(addr netip.Addr) {
	addr = addr.Unmap()
	s.cfg.Bans.Ban(addr)
	s.dropWhere(func(c *trackedConn) bool { return c.ip == addr })
}

// BanPlayer bans the SSH player whose game client is at game (its address
// on the game's in-memory network, as the game server's roster shows it):
// its IP address and, when keys are asked for, its key, for the server's
// life; its connection is closed. It reports whether game is an SSH
// player's.
func (s *Server) BanPlayer(game netip.AddrPort) bool {
	s.mu.Lock()
	p, ok := s.players[game]
	s.mu.Unlock()
	if !ok {
		return false
	}
	if p.key != nil {
		s.BanKey(p.key)
	}
	s.Ban(p.ip)
	return true
}

// Origin returns the remote IP address of the SSH client whose game
// client is at game (an in-memory address); false if no SSH player is
// there. The game server counts SSH players' per-address limits by it
// (netcode.ServerConfig.Origin). Safe for concurrent use.
func (s *Server) Origin(game netip.AddrPort) (netip.Addr, bool) {
	s.mu.Lock()
	p, ok := s.players[game]
	s.mu.Unlock()
	return p.ip, ok && p.ip.IsValid()
}

// enlist records who plays behind a game address; delist forgets it.
func (s *Server) enlist(game netip.AddrPort, sess ssh.Session) {
	var p sshPlayer
	if ap, err := netip.ParseAddrPort(sess.RemoteAddr().String()); err == nil {
		p.ip = ap.Addr().Unmap()
	}
	p.key = sess.PublicKey()
	s.mu.Lock()
	s.players[game] = p
	s.mu.Unlock()
}

func (s *Server) delist(game netip.AddrPort) {
	s.mu.Lock()
	delete(s.players, game)
	s.mu.Unlock()
}

// BanKey refuses key from now on, for the server's life, and closes the
// connections authenticated with it. Keys are only asked for with
// Config.AuthorizedKeys: without, a key cannot be refused.
func (s *Server) BanKey(key gossh.PublicKey) {
	s.cfg.Bans.BanKey(key)
	wire := key.Marshal()
	s.dropWhere(func(c *trackedConn) bool { return c.key != nil && bytes.Equal(c.key.Marshal(), wire) })
}

// dropWhere closes the connections for which match holds; match is
// called under s.mu.
func (s *Server) dropWhere(match func(*trackedConn) bool) {
	s.mu.Lock()
	var drop []*trackedConn
	for _, c := range s.conns {
		if match(c) {
			drop = append(drop, c)
		}
	}
	s.mu.Unlock()
	for _, c := range drop {
		s.log.Info("ssh connection dropped", "reason", "banned", "remote", c.RemoteAddr().String())
		_ = c.Conn.Close()
	}
}
