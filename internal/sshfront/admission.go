package sshfront

import (
	"math/rand/v2"
	"net/netip"
	"time"
)

// connStage is where a connection is on its way from TCP accept to a
// player. Stages only move forward, and each move is progress (see
// gate.victim):
//
//	accepted ─▶ greeted ─▶ authed ─▶ channel ─▶ pty ─▶ admitted
//	    │          │          │          │         │        │
//	    └──────────┴──────────┴──────────┴─────────┴────────┴─▶ closed
//
// accepted: TCP is up, the client has sent nothing. greeted: its version
// line came (key exchange and authentication under way). authed: it is
// authenticated. channel: a session channel is open. pty: a pty-req was
// accepted. admitted: a session with a PTY got its shell and a seat. Up
// to admitted the connection is a startup: it counts against
// Config.Startups, the setup deadline runs, and it may be dropped early
// to make room. An admitted connection is a player's: it is never
// dropped for room and has no setup deadline. closed is final.
type connStage uint8

const (
	stageAccepted connStage = iota
	stageGreeted
	stageAuthed
	stageChannel
	stagePty
	stageAdmitted
	stageClosed
)

var stageNames = [...]string{"accepted", "greeted", "authed", "channel", "pty", "admitted", "closed"}

func (s connStage) String() string { return stageNames[s] }

// silentBonus is added to the idle time of a connection that has sent
// nothing at all for silentGrace when the gate picks one to drop: a
// connection that has not even said its version (which an SSH client
// sends as soon as it connects) is the first to go, and the drop counts
// against its source. A younger one is judged by its idle time alone, so
// that a client whose version line the server has yet to read is not
// taken for a silent one.
const (
	silentBonus = time.Second
	silentGrace = 2 * time.Millisecond
)

// strikeIdle is how long a connection dropped to make room must have been
// idle (silentBonus included) for the drop to count against its source.
const strikeIdle = time.Second

// maxPenalised bounds the sources the gate remembers strikes for; beyond
// it, expired entries are forgotten, and if none has, new strikes are not
// recorded (OpenSSH's "overflow permissive").
const maxPenalised = 1 << 16

// slot is one connection as the gate sees it.
type slot struct {
	seq        uint64     // accept order, for ties
	ip         netip.Addr // the client's address
	prefix     netip.Addr // what the per-address limits count it under (prefixOf)
	stage      connStage
	progressed time.Time // when the stage last moved (or accept)
	// Where and how idle (its score) it was when dropped for room.
	droppedAt   connStage
	droppedIdle time.Duration
}

// penalty is what the gate holds against one source address.
type penalty struct {
	strikes int       // setup slots wasted, since last (forgotten after PenaltyMax)
	last    time.Time // the latest strike
	until   time.Time // refused until then
}

// gateLimits are the gate's limits, from Config.
type gateLimits struct {
	maxConns, maxConnsPerIP int
	startups                MaxStartups
	penalty, penaltyMax     time.Duration
	kex                     KexLimits
}

// gate decides which connections get in and which are dropped to make
// room. It is a pure state machine: callers pass the time in and do the
// IO (closing the connections it names). It is not safe for concurrent
// use; the Server calls it under its mutex.
type gate struct {
	lim       gateLimits
	rng       *rand.Rand
	bans      *BanList
	seq       uint64
	slots     map[*slot]struct{}
	perIP     map[netip.Addr]int // connections by prefix (prefixOf), idle ones included
	startups  int
	penalties map[netip.Addr]*penalty // by prefix
	kex       *kexLimiter
	noticed   map[netip.Addr]time.Time // banned prefixes told, when (BanNoticeEvery)
}

func newGate(lim gateLimits, rng *rand.Rand, bans *BanList) *gate {
	return &gate{lim: lim, rng: rng, bans: bans, slots: map[*slot]struct{}{},
		perIP: map[netip.Addr]int{}, penalties: map[netip.Addr]*penalty{}, kex: newKexLimiter(lim.kex),
		noticed: map[netip.Addr]time.Time{}}
}

// Why a connection is refused at accept.
const (
	refusedBanned    = "banned"
	refusedPenalised = "penalised"
	refusedPerIP     = "too many connections from the address"
	refusedFull      = "too many connections"
)

// admit decides on a connection from ip accepted at now. Every limit
// counts ip's prefix (prefixOf): its IPv4 address, its IPv6 /64. It
// returns the
// new slot, or the reason it is refused; and the startups to drop to make
// room (already closed in the gate: the caller closes their
// connections). Past Config.Startups.Start startups, each new connection
// drops one with a probability that grows linearly from Rate% to 100% at
// Full (a random early drop); so does a new connection when MaxConns are
// open. Unlike OpenSSH, which drops the newcomer, the one dropped is the
// startup that has gone longest without progress (see victim): a client
// in the middle of its handshake is not, and an admitted player never is.
func (g *gate) admit(ip netip.Addr, now time.Time) (s *slot, drop []*slot, refused string) {
	key := prefixOf(ip)
	switch {
	case g.bans.banned(ip) && !g.banNotice(key, now):
		return nil, nil, refusedBanned
	case g.penalised(key, now):
		return nil, nil, refusedPenalised
	case g.perIP[key] >= g.lim.maxConnsPerIP:
		return nil, nil, refusedPerIP
	}
	need := len(g.slots) >= g.lim.maxConns || g.startups >= g.lim.startups.Full
	if !need && g.startups >= g.lim.startups.Start {
		st := g.lim.startups
		p := float64(st.Rate) + float64(100-st.Rate)*float64(g.startups-st.Start)/float64(max(st.Full-st.Start, 1))
		need = g.rng.Float64()*100 < p
	}
	if need {
		if v := g.victim(now); v != nil {
			v.droppedAt, v.droppedIdle = v.stage, score(v, now)
			g.close(v, now, v.droppedIdle >= strikeIdle)
			drop = append(drop, v)
		}
	}
	if len(g.slots) >= g.lim.maxConns || g.startups >= g.lim.startups.Full {
		return nil, drop, refusedFull
	}
	g.seq++
	s = &slot{seq: g.seq, ip: ip, prefix: key, stage: stageAccepted, progressed: now}
	g.slots[s] = struct{}{}
	g.perIP[key]++
	g.startups++
	return s, drop, ""
}

// BanNoticeEvery is how often a banned prefix's connection is let as far
// as its session, to be told it is banned; the others are closed at
// accept (a banned client costs at most a key exchange a minute).
const BanNoticeEvery = time.Minute

// banNotice reports whether a connection from banned prefix key at now
// is the one of this BanNoticeEvery let through to be told, and counts
// it.
func (g *gate) banNotice(key netip.Addr, now time.Time) bool {
	if at, ok := g.noticed[key]; ok && now.Sub(at) < BanNoticeEvery {
		return false
	}
	if len(g.noticed) >= maxPenalised {
		for k, at := range g.noticed {
			if now.Sub(at) >= BanNoticeEvery {
				delete(g.noticed, k)
			}
		}
		if len(g.noticed) >= maxPenalised {
			return false
		}
	}
	g.noticed[key] = now
	return true
}

// score is how much s deserves to be dropped at now: its idle time since
// its last progress, plus silentBonus if it has been silent since accept
// for silentGrace.
func score(s *slot, now time.Time) time.Duration {
	idle := now.Sub(s.progressed)
	if s.stage == stageAccepted && idle >= silentGrace {
		idle += silentBonus
	}
	return idle
}

// victim is the startup to drop: the one with the highest score (idle
// longest since its last progress, a silent one first); the earliest
// accepted on a tie. Nil if there is no startup.
func (g *gate) victim(now time.Time) *slot {
	var best *slot
	var bestIdle time.Duration
	for s := range g.slots { // order does not matter: ties go to the lowest seq
		if s.stage >= stageAdmitted {
			continue
		}
		idle := score(s, now)
		if best == nil || idle > bestIdle || idle == bestIdle && s.seq < best.seq {
			best, bestIdle = s, idle
		}
	}
	return best
}

// kexStart takes a key-exchange token (KexLimits) for s at now, when
// its client sends its first bytes (its version line, then its key
// exchange: the costly step, which a silent connection never asks for).
// Refused, s is closed, and kexStart says why.
func (g *gate) kexStart(s *slot, now time.Time) (refused string) {
	if s.stage == stageClosed {
		return ""
	}
	if why := g.kex.allow(s.prefix, now); why != "" {
		g.close(s, now, false)
		return why
	}
	return ""
}

// handshakeReads is how many reads of a connection's first bytes count
// as progress (touch): enough for the packets of an SSH key exchange and
// authentication, too few to keep a trickling connection fresh.
const handshakeReads = 16

// touch records bytes read from s at now before it is authenticated: the
// key exchange is progress (its first bytes make s greeted). The caller
// calls it for at most handshakeReads reads.
func (g *gate) touch(s *slot, now time.Time) {
	if s.stage >= stageAuthed {
		return
	}
	if s.stage == stageAccepted {
		s.stage = stageGreeted
	}
	s.progressed = now
}

// advance moves s to stage at now, if that is forward; reaching
// stageAdmitted ends its startup. It reports whether s moved.
func (g *gate) advance(s *slot, stage connStage, now time.Time) bool {
	if s.stage >= stage || s.stage >= stageAdmitted || stage >= stageClosed {
		return false
	}
	s.stage, s.progressed = stage, now
	if stage == stageAdmitted {
		g.startups--
	}
	return true
}

// close ends s at now (again is a no-op); strike counts a wasted setup
// slot against its source.
func (g *gate) close(s *slot, now time.Time, strike bool) {
	if s.stage == stageClosed {
		return
	}
	if s.stage < stageAdmitted {
		g.startups--
		if strike {
			g.strike(s.prefix, now)
		}
	}
	s.stage = stageClosed
	delete(g.slots, s)
	if g.perIP[s.prefix]--; g.perIP[s.prefix] <= 0 {
		delete(g.perIP, s.prefix)
	}
}

// strike records a wasted setup slot against prefix ip at now. From the second
// strike on (strikes are forgotten after PenaltyMax without one), ip is
// refused for Penalty, doubling with each further strike up to
// PenaltyMax.
func (g *gate) strike(ip netip.Addr, now time.Time) {
	p := g.penalties[ip]
	if p == nil {
		if len(g.penalties) >= maxPenalised {
			g.forget(now)
			if len(g.penalties) >= maxPenalised {
				return
			}
		}
		p = &penalty{}
		g.penalties[ip] = p
	}
	if now.Sub(p.last) > g.lim.penaltyMax {
		p.strikes = 0
	}
	p.strikes++
	p.last = now
	if p.strikes < 2 {
		return
	}
	d := g.lim.penaltyMax
	if shift := p.strikes - 2; shift < 30 {
		d = min(d, g.lim.penalty<<shift)
	}
	if u := now.Add(d); u.After(p.until) {
		p.until = u
	}
}

// penalised reports whether prefix ip is refused at now for its strikes.
func (g *gate) penalised(ip netip.Addr, now time.Time) bool {
	p := g.penalties[ip]
	return p != nil && now.Before(p.until)
}

// forget drops the penalties that no longer matter at now.
func (g *gate) forget(now time.Time) {
	for ip, p := range g.penalties {
		if now.After(p.until) && now.Sub(p.last) > g.lim.penaltyMax {
			delete(g.penalties, ip)
		}
	}
}
