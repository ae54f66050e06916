package sshfront

import (
	"errors"
	"fmt"
	"net/netip"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// evictGrace is how long a session ended by a ban or a kick has to tell
// its player and restore the terminal before its connection is closed
// regardless.
const evictGrace = goodbyeTimeout + time.Second

// Evicted is the cause of a session's Closing context when the operator
// ends it: Error is the line its player is told.
type Evicted struct{ Why string }

func (e *Evicted) Error() string { return e.Why }

// Why a session is ended or refused, as its player is told.
var (
	errBanned = &Evicted{Why: "you are banned from this server"}
)

func kickedFor(d time.Duration) *Evicted {
	return &Evicted{Why: fmt.Sprintf("you were kicked by the operator; you may come back in %v", d.Round(time.Second))}
}

// Ban refuses addr's prefix (an IPv4 address, an IPv6 /64) from now on,
// for the server's life: each of its sessions is told so and ends, its
// terminal restored, and then its connections are closed; new ones are
// closed at accept.
func (s *Server) Ban(addr netip.Addr) {
	key := prefixOf(addr)
	s.cfg.Bans.Ban(key)
	s.log.Info("ssh address banned", "prefix", key.String())
	s.evictWhere(func(c *trackedConn) bool { return prefixOf(c.ip) == key }, errBanned)
}

// BanKey refuses key from now on, for the server's life: the sessions
// authenticated with it are told so and end, then their connections are
// closed; a new connection with it is told so at its session. A key is
// known when the client offers one (Config.AuthorizedKeys).
func (s *Server) BanKey(key gossh.PublicKey) {
	s.cfg.Bans.BanKey(key)
	wire := key.Marshal()
	s.log.Info("ssh key banned", "key", gossh.FingerprintSHA256(key))
	s.evictWhere(func(c *trackedConn) bool { return c.offeredLocked(wire) }, errBanned)
}

// BanPlayer bans the SSH player whose game client is at game (its address
// on the game's in-memory network, as the game server's roster shows it):
// its prefix and, when it offered one, its key, for the server's life;
// it is told so and its connection closed. It reports whether game is an
// SSH player's.
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

// KickPlayer ends the session of the SSH player whose game client is at
// game, telling the player so, and keeps its prefix and its key (if it
// offered one) from starting a session for hold: a session that tries is
// told how long is left. It reports whether game is an SSH player's.
// The game server keeps the player's seat apart (netcode.Server.Kick).
func (s *Server) KickPlayer(game netip.AddrPort, hold time.Duration) bool {
	now := time.Now()
	s.mu.Lock()
	p, ok := s.players[game]
	if ok && hold > 0 {
		until := now.Add(hold)
		s.holds[prefixOf(p.ip)] = until
		if p.key != nil {
			s.keyHolds[string(p.key.Marshal())] = until
		}
		s.pruneHolds(now)
	}
	s.mu.Unlock()
	if !ok {
		return false
	}
	s.log.Info("ssh player kicked", "prefix", prefixOf(p.ip).String(), "hold", hold)
	p.sess.evict(kickedFor(hold))
	return true
}

// heldOut is how long a client at ip with key (nil: none) is still kept
// out by a kick at now (0: not).
func (s *Server) heldOut(ip netip.Addr, key gossh.PublicKey, now time.Time) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	left := s.holds[prefixOf(ip)].Sub(now)
	if key != nil {
		left = max(left, s.keyHolds[string(key.Marshal())].Sub(now))
	}
	return max(left, 0)
}

// maxHolds bounds the kick holds kept; past it the expired ones go.
const maxHolds = 1 << 12

// pruneHolds forgets the holds over at now, once there are many; s.mu
// is held.
func (s *Server) pruneHolds(now time.Time) {
	if len(s.holds)+len(s.keyHolds) < maxHolds {
		return
	}
	for k, until := range s.holds {
		if !until.After(now) {
			delete(s.holds, k)
		}
	}
	for k, until := range s.keyHolds {
		if !until.After(now) {
			delete(s.keyHolds, k)
		}
	}
}

// evictWhere ends, with why, the sessions of the connections for which
// match holds (called under s.mu), and closes those connections: at once
// if they have no session, else once their sessions have said goodbye
// (handle drops them) or evictGrace has passed.
func (s *Server) evictWhere(match func(c *trackedConn) bool, why error) {
	s.mu.Lock()
	var sessions []*Session
	for p := range s.live {
		if p.tc != nil && match(p.tc) {
			sessions = append(sessions, p)
		}
	}
	var drop []*trackedConn
	for _, c := range s.conns {
		if match(c) {
			drop = append(drop, c)
		}
	}
	s.mu.Unlock()
	for _, p := range sessions {
		p.evict(why)
	}
	for _, c := range drop {
		if c.channels.Load() == 0 {
			_ = c.Conn.Close()
			continue
		}
		time.AfterFunc(evictGrace, func() { _ = c.Conn.Close() })
	}
}

// keyLocked is c's key (nil for none, or for no c); s.mu is held.
func (c *trackedConn) keyLocked() gossh.PublicKey {
	if c == nil {
		return nil
	}
	return c.key
}

// isEvicted reports whether err is an eviction's cause.
func isEvicted(err error) bool {
	var e *Evicted
	return errors.As(err, &e)
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
func (s *Server) enlist(game netip.AddrPort, p *Session) {
	s.mu.Lock()
	s.players[game] = sshPlayer{ip: p.ip, key: p.tc.keyLocked(), sess: p}
	s.mu.Unlock()
}

func (s *Server) delist(game netip.AddrPort) {
	s.mu.Lock()
	delete(s.players, game)
	s.mu.Unlock()
}
