package sshterm

import (
	"context"
	"sync/atomic"

	"github.com/gdamore/tcell/v2"

	"ttytanks/netcode"
	"ttytanks/tui"
)

// playLobby runs the lobby and the games the player picks on screen, until
// the player quits or the session ends. Every game client is enlisted
// under its address while it plays (so the operator can ban the player);
// idle time counts in the lobby and in a game alike.
func (g *Game) playLobby(ctx context.Context, cancel context.CancelCauseFunc, tty *ChannelTty, screen tcell.Screen,
	s Session, name string, opts tui.Options) error {
	lobby, err := netcode.StartLobby(g.cfg.Game, g.cfg.Net.Listen(), nil)
	if err != nil {
		return err
	}
	defer lobby.Close()
	host := &sshHost{g: g, sess: s, name: name, lobby: lobby}
	watchCtx, stopWatch := context.WithCancel(ctx)
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		// Idle time counts in the room list and in a match, not while a
		// room waits for players.
		watchIdle(watchCtx, cancel, tty, s.Idle(), func() bool {
			seat := host.seat.Load()
			if seat == nil {
				return true
			}
			var st netcode.Status
			seat.Do(func(c *netcode.Client) { st = c.Status() })
			return st == netcode.StatusPlaying || st == netcode.StatusReconnecting
		})
	}()
	defer func() {
		stopWatch()
		<-watched
	}()
	return tui.Play(ctx, screen, host, opts, tui.LobbyOptions{Options: opts, Name: name})
}

// sshHost is the game server as an SSH player's lobby sees it, over the
// in-memory network.
type sshHost struct {
	g     *Game
	sess  Session
	name  string
	lobby *netcode.Lobby
	seat  atomic.Pointer[sshSeat] // the room the player is in (nil: the list)
}

func (h *sshHost) Rooms(dst *netcode.RoomList) { h.lobby.Rooms(dst) }

func (h *sshHost) Join(req netcode.RoomRequest) (tui.Seat, error) {
	mem := h.g.cfg.Net.Listen()
	addr := mem.LocalAddr()
	h.sess.Enlist(addr)
	c := netcode.StartClient(netcode.NewClient(netcode.ClientConfig{Server: h.g.cfg.Game, Name: h.name, Spectate: req.Spectate, Room: req}), mem)
	seat := &sshSeat{ClientDriver: c}
	seat.leave = func() {
		h.sess.Delist(addr)
		h.seat.CompareAndSwap(seat, nil)
	}
	h.seat.Store(seat)
	return seat, nil
}

// sshSeat is an SSH player's game client; Leave frees the seat and the
// address's entry.
type sshSeat struct {
	*netcode.ClientDriver
	leave func()
}

func (s *sshSeat) Leave() {
	s.Close()
	s.leave()
}
