package cli

import (
	"context"
	"fmt"
	"io"

	"ttytanks/netcode"
	"ttytanks/netcode/transport"
	"ttytanks/tui"
)

// udpHost is a server over UDP as the lobby sees it: a lobby client on a
// socket of its own for the room list, and a new client session (with its
// own socket) for each room joined.
type udpHost struct {
	lobby *netcode.Lobby
	cs    *clientSetup
}

// Rooms copies the lobby client's newest room list into dst.
func (h *udpHost) Rooms(dst *netcode.RoomList) { h.lobby.Rooms(dst) }

// Join starts a client session in the room req names.
func (h *udpHost) Join(req netcode.RoomRequest) (tui.Seat, error) {
	d, err := startClient(h.cs, req)
	if err != nil {
		return nil, err
	}
	return leavingClient{d}, nil
}

// KeepHeldName makes the places taken from now on ask for the name the
// player's key holds on the server rather than the one typed (--name):
// the server refused that one as another player's (tui.HeldNameHost).
func (h *udpHost) KeepHeldName() { h.cs.defaultName = true }

var _ tui.HeldNameHost = (*udpHost)(nil)

// LobbyChat takes a place among the lobby's viewers, for its chat: a
// client session of its own (and its own socket), given up when the
// player leaves the lobby.
func (h *udpHost) LobbyChat() (tui.LobbyChatPlace, error) {
	d, err := startClient(h.cs, netcode.RoomRequest{Kind: netcode.RoomLobby, Spectate: true})
	if err != nil {
		return nil, err
	}
	return leavingClient{d}, nil
}

// leavingClient is a client session as a lobby seat: Leave waits (a
// moment) for the server to acknowledge. As the lobby's chat place it is
// also where the leaderboard is asked.
type leavingClient struct{ *netcode.ClientDriver }

var _ tui.LobbyLadder = leavingClient{}

func (c leavingClient) Leave() { c.Close() }

// runLobbyUI shows the server's lobby and plays in the rooms the player
// picks, until the player quits; it returns the exit code.
func runLobbyUI(ctx context.Context, cs *clientSetup, uf uiFlags, share string, stderr io.Writer) int {
	lt, err := transport.ListenUDP(":0")
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks: %v\n", err)
		return 1
	}
	lobby, err := netcode.StartLobby(cs.target, cs.sim.wrap(lt), nil)
	if err != nil {
		fmt.Fprintf(stderr, "ttytanks: %v\n", err)
		return 1
	}
	defer lobby.Close()
	screen, err := openGameScreen(cs.command(), cs.botLevel != nil, stderr)
	if err != nil {
		return 1
	}
	opts := uf.options(share)
	opts.Server = cs.target.String()
	host := &udpHost{lobby: lobby, cs: cs}
	// Without a player key (--guest) the server's ladder sees a guest, and
	// the leaderboard's card says so.
	err = tui.Play(ctx, screen, host, opts, tui.LobbyOptions{Options: opts, Name: cs.name, Guest: cs.identify == nil})
	if err != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "ttytanks: %v\n", err)
		return 1
	}
	return 0
}
