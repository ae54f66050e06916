package tui

import (
	"context"
	"errors"
	"strings"

	"github.com/gdamore/tcell/v2"

	"ttytanks/game"
	"ttytanks/netcode"
)

// Seat is a place taken in a room: the Session the game screen draws,
// and Leave, which ends it (telling the server, so the seat is free at
// once).
type Seat interface {
	Session
	Leave()
}

// Host is a game server seen from the lobby: its room list, and Join,
// which asks for a place in a room.
type Host interface {
	LobbySource
	Join(req netcode.RoomRequest) (Seat, error)
}

// Play runs the lobby and the game on one screen until the player quits
// or ctx is done: the lobby lists h's rooms, the player picks one, the
// game runs in it (Options.Lobby set), and when the player leaves the
// room (l), the match
// ends for them or the room stops, the lobby comes back saying why. It
// returns nil when the player quits in the lobby or in a game. When h is a
// LobbyChatHost, its place in the lobby is the lobby's chat and, if it is
// a LobbyLadder too, where the leaderboard tab asks. When the server
// refuses that place because another player holds the name typed, a
// HeldNameHost is switched to the name the player's key holds for the
// rest of the session, and the place is taken again (lobbyPlace).
//
// Play owns the screen (WithScreen): it calls Init once and Fini once,
// and restores the terminal on a panic.
func Play(ctx context.Context, screen tcell.Screen, h Host, opts Options, lobby LobbyOptions) error {
	opts.Lobby = true
	return WithScreen(screen, func(s tcell.Screen) error {
		taken := "" // the name typed, once the server said another player holds it
		for {
			var place *lobbyPlace
			ladder := lobby.Ladder
			if ch, ok := h.(LobbyChatHost); ok {
				if c, err := ch.LobbyChat(); err == nil {
					place = newLobbyPlace(h, c, taken)
					lobby.Chat = place
					if _, ok := c.(LobbyLadder); ok {
						lobby.Ladder = place // the leaderboard is asked through the same place
					}
				}
			}
			req, err := Lobby(ctx, s, h, lobby)
			if place != nil {
				place.Leave() // the lobby's place is given up before a room's is asked for
				taken = place.Taken()
				lobby.Chat, lobby.Ladder = nil, ladder
			}
			lobby.Notice = ""
			if errors.Is(err, ErrQuit) {
				return nil
			}
			if err != nil {
				return err
			}
			seat, err := h.Join(req)
			if err != nil {
				lobby.Notice = err.Error()
				continue
			}
			err = Run(ctx, s, seat, opts)
			var v netcode.View
			seat.View(&v)
			seat.Leave()
			switch {
			case errors.Is(err, ErrToLobby):
				lobby.Notice = leaveNotice(&v, rankedRoom(h, v.Room))
			case err != nil:
				return err
			case v.Status == netcode.StatusClosed:
				lobby.Notice = v.Message // the match ended for us, or the room stopped
			default:
				return nil // the player quit
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
		}
	})
}

// leaveNotice is the lobby's notice after the player left room v.Room
// with l, v the room's last view and ranked whether the lobby lists it as
// ranked: it says so when leaving counted as a loss (PROTOCOL.md §4.15, a
// forfeit): a match under way, not over nor already settled, in which
// the player, with a key (not a ~guest), played a round.
func leaveNotice(v *netcode.View, ranked bool) string {
	n := "you left room " + v.Room
	w := &v.World
	if !ranked || v.Recorded || v.Status != netcode.StatusPlaying || v.Slot < 0 || v.Slot >= int(w.Slots) || v.Slot >= game.MaxPlayers {
		return n
	}
	switch w.Round.Phase {
	case game.PhaseMatchOver, game.PhaseWaiting:
		return n // over, or left alone: nothing to lose
	}
	if !w.Tanks[v.Slot].Spawned() || strings.HasPrefix(v.Names[v.Slot], "~") {
		return n
	}
	return n + ": a ranked match under way counts as a loss (a forfeit)"
}

// rankedRoom reports whether src lists room name as ranked.
func rankedRoom(src LobbySource, name string) bool {
	var list netcode.RoomList
	src.Rooms(&list)
	for i := range list.Rooms {
		if list.Rooms[i].Name == name {
			return list.Rooms[i].Ranked
		}
	}
	return false
}
