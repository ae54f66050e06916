package sshterm

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gdamore/tcell/v2"

	"ttytanks/game"
	"ttytanks/netcode"
	"ttytanks/tui"
)

// playLobby runs the lobby and the games the player picks on screen, until
// the player quits or the session ends. Every game client is enlisted
// under its address while it plays (so the operator can ban the player);
// the session ends once the player shows no intent for s.Idle, in the
// room list, waiting in a room and in a match alike.
func (g *Game) playLobby(ctx context.Context, cancel context.CancelCauseFunc, tty *ChannelTty, screen tcell.Screen,
	s Session, name string, opts tui.Options) error {
	lobby, err := netcode.StartLobby(g.cfg.Game, g.cfg.Net.ListenQueue(clientQueue), nil)
	if err != nil {
		return err
	}
	defer lobby.Close()
	now := time.Now()
	host := &sshHost{ctx: ctx, end: cancel, tty: tty, g: g, sess: s, name: name, lobby: lobby, intent: newIntent(now), switches: newSwitchLimiter(now)}
	watchCtx, stopWatch := context.WithCancel(ctx)
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		watchIdle(watchCtx, cancel, s.Idle(), func() time.Time { return host.lastIntent(tty) })
	}()
	defer func() {
		stopWatch()
		<-watched
	}()
	// A player who signed in without a key is a guest to the server's
	// ladder (identify is nil), and the leaderboard's card says so.
	return tui.Play(ctx, screen, host, opts, tui.LobbyOptions{Options: opts, Name: name, Guest: g.identify(s) == nil, Rename: "ssh NEW@host"})
}

// SwitchBurst and SwitchEvery bound how often one session may go from
// the lobby into a room: SwitchBurst at once, then one every
// SwitchEvery. Each costs a game client, a key exchange with the game
// server and a whole screen; a join past the budget is refused, told
// when the next one may come, and the keys typed until then are dropped
// (ChannelTty.Hold), so that a player who types quick match and back as
// fast as the input budget allows costs what one join every SwitchEvery
// costs, and not a lobby drawn again for every key.
const (
	SwitchBurst = 4
	SwitchEvery = 2 * time.Second
)

// clientHistory is the in-process client's history, in ticks. A State
// for tick T is replayed from T to the client's tick, so the history must
// hold the client's lead over the server plus the State's way to it. The
// way is next to nothing in the process, and a lead beyond
// netcode.MaxInputAhead is one whose inputs the game server throws away,
// for which a resync is the cure: so MaxInputAhead ticks and 8 more for
// the hop (133 ms of a busy process). A client leads by a tick or two in
// play; a game server stalled for 100 ticks (1.7 s) leaves it 100 ticks
// ahead, and the first State after the stall is replayed over all of
// them (TestNoResyncThroughStall). Its snapshots are 208 KB, where the
// default history's are 6.5 MB, made and zeroed on every join.
const clientHistory = netcode.MaxInputAhead + 8

// clientQueue is the datagrams each of a session's in-memory transports
// holds until its client takes them: a game client is sent a State every
// other tick, a lobby a page or a few of the room list at a time, so 64
// hold more than a second of either, and a session stalled for longer
// loses what it would lose over UDP. (transport.MemQueue, 1024, is for the
// game server, which all of them send to; 56 bytes each.)
const clientQueue = 64

// switchLimiter is a session's token bucket of room joins. Safe for
// concurrent use.
type switchLimiter struct {
	mu     sync.Mutex
	tokens float64
	last   time.Time
}

func newSwitchLimiter(now time.Time) *switchLimiter {
	return &switchLimiter{tokens: SwitchBurst, last: now}
}

// take takes a token at now, or returns how long until there is one.
func (l *switchLimiter) take(now time.Time) (wait time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if d := now.Sub(l.last); d > 0 {
		l.tokens = min(SwitchBurst, l.tokens+float64(d)/float64(SwitchEvery))
		l.last = now
	}
	if l.tokens < 1 {
		return time.Duration((1 - l.tokens) * float64(SwitchEvery))
	}
	l.tokens--
	return 0
}

// sshHost is the game server as an SSH player's lobby sees it, over the
// in-memory network.
type sshHost struct {
	// ctx is the session's; end ends it, with the cause the player is
	// told.
	ctx  context.Context
	end  context.CancelCauseFunc
	tty  *ChannelTty
	g    *Game
	sess Session
	name string
	// held: the places taken from now on ask for the name the player's
	// key holds rather than name, which the server refused as another
	// player's (KeepHeldName). Only the lobby's goroutine uses it.
	held     bool
	lobby    *netcode.Lobby
	intent   *intent
	switches *switchLimiter
	seat     atomic.Pointer[sshSeat] // the room the player is in (nil: the list)
}

func (h *sshHost) Rooms(dst *netcode.RoomList) { h.lobby.Rooms(dst) }

// lastIntent is the time of the player's last sign of intent: a join, a
// non-neutral input in a match, or, while watching, any key press.
func (h *sshHost) lastIntent(tty *ChannelTty) time.Time {
	last := h.intent.last()
	if seat := h.seat.Load(); seat != nil && seat.spectator {
		if in := tty.LastInput(); in.After(last) {
			last = in
		}
	}
	return last
}

func (h *sshHost) Join(req netcode.RoomRequest) (tui.Seat, error) {
	if wait := h.switches.take(time.Now()); wait > 0 {
		h.tty.Hold(wait) // what is typed meanwhile is dropped: the lobby is not drawn again for each key
		return nil, fmt.Errorf("slow down: you may join a room again in %.1fs", wait.Seconds())
	}
	h.intent.note(time.Now())
	ct, addr, err := h.g.clientTransport()
	if err != nil {
		return nil, err
	}
	h.sess.Enlist(addr)
	c := netcode.StartClient(netcode.NewClient(h.g.clientConfig(netcode.ClientConfig{Name: h.name, DefaultName: h.held, Spectate: req.Spectate,
		Room: req, Identify: h.g.identify(h.sess)})), ct)
	if h.g.onClient != nil {
		h.g.onClient(c)
	}
	seat := &sshSeat{ClientDriver: c, intent: h.intent, spectator: req.Spectate}
	seat.leave = func() {
		h.sess.Delist(addr)
		h.seat.CompareAndSwap(seat, nil)
	}
	h.seat.Store(seat)
	go h.watchRemoved(c)
	return seat, nil
}

// KeepHeldName makes the places taken from now on ask for the name the
// player's key holds on the server rather than their login name, which
// the server refused as another player's (tui.HeldNameHost).
func (h *sshHost) KeepHeldName() { h.held = true }

var _ tui.HeldNameHost = (*sshHost)(nil)

// LobbyChat takes a place among the lobby's viewers, for its chat, on
// an in-memory address of the session's own (listed, so its place counts
// against the SSH client's address), given up when the player leaves the
// lobby.
func (h *sshHost) LobbyChat() (tui.LobbyChatPlace, error) {
	mem := h.g.cfg.Net.ListenQueue(clientQueue)
	addr := mem.LocalAddr()
	h.sess.Enlist(addr)
	cfg := h.g.clientConfig(netcode.ClientConfig{Name: h.name, DefaultName: h.held, Spectate: true,
		Room: netcode.RoomRequest{Kind: netcode.RoomLobby, Spectate: true}, Identify: h.g.identify(h.sess)})
	cfg.History = 1 // the lobby plays no match: nothing to predict or replay
	c := netcode.StartClient(netcode.NewClient(cfg), mem)
	go h.watchRemoved(c) // a player the server shows out of the lobby's chat is shown out of the session
	return &lobbyChatPlace{ClientDriver: c, leave: func() { h.sess.Delist(addr) }}, nil
}

// lobbyChatPlace is an SSH player's place in the lobby's chat, and where
// their leaderboard is asked.
type lobbyChatPlace struct {
	*netcode.ClientDriver
	leave func()
}

var _ tui.LobbyLadder = (*lobbyChatPlace)(nil)

// Leave gives the place up (the player is off to a room, or gone).
func (p *lobbyChatPlace) Leave() {
	p.Close()
	p.leave()
}

// watchRemoved ends the session when the game server removes c's player
// (an operator's kick or ban: a Leave "kicked"): the player is not sent
// back to the lobby of a server that has just shown them out, but told
// why on a restored terminal, as when the SSH server ends the session.
// It returns once c is done or the session is.
func (h *sshHost) watchRemoved(c *netcode.ClientDriver) {
	select {
	case <-c.Done():
		if err := c.Err(); errors.Is(err, netcode.ErrRemoved) {
			h.end(closedBy{netcode.ErrRemoved})
		}
	case <-h.ctx.Done():
	}
}

// sshSeat is an SSH player's game client; its non-neutral inputs in a
// match are signs of intent, and Leave frees the seat and the address's
// entry.
type sshSeat struct {
	*netcode.ClientDriver
	intent    *intent
	spectator bool
	leave     func()
}

// SetInput implements tui.Session: a new non-neutral input while the
// match is on is a sign of intent.
func (s *sshSeat) SetInput(in game.Input) {
	s.ClientDriver.SetInput(in)
	if in.MoveX == 0 && in.MoveY == 0 && in.Buttons == 0 {
		return
	}
	var st netcode.Status
	s.Do(func(c *netcode.Client) { st = c.Status() })
	s.intent.input(in, st, time.Now())
}

func (s *sshSeat) Leave() {
	s.Close()
	s.leave()
}
