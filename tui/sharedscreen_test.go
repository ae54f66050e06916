package tui

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"ttytanks/netcode"
)

// TestWithScreenLobbyGameLobby: the lobby, a game and the lobby again on
// one screen, which is initialised once and finalised once, at the end.
func TestWithScreenLobbyGameLobby(t *testing.T) {
	scr := &finiScreen{SimulationScreen: tcell.NewSimulationScreen("UTF-8")}
	src := &fakeRooms{list: testRooms()}
	frames := make(chan time.Time)
	drawn := make(chan struct{}, 16)
	var results []string
	err := WithScreen(scr, func(s tcell.Screen) error {
		scr.SetSize(80, 24)
		// The first lobby: Enter joins the selected room.
		scr.InjectKey(tcell.KeyEnter, 0, tcell.ModNone)
		req, err := runLobby(context.Background(), s, src, LobbyOptions{}, lobbyHooks{frames: frames})
		if err != nil || req != (netcode.RoomRequest{Kind: netcode.RoomNamed, Name: "alpha"}) {
			t.Fatalf("first lobby: %+v, %v", req, err)
		}
		// The game, whose session ends at once.
		session := newFakeSession(testView(t))
		close(session.done)
		if err := Run(context.Background(), s, session, Options{}); err != nil {
			t.Fatalf("Run: %v", err)
		}
		if n := scr.finiCount(); n != 0 {
			t.Fatalf("Run finalised the shared screen (%d Fini calls)", n)
		}
		results = append(results, "game")
		// The lobby again, drawn on the same screen, with the notice.
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := runLobby(ctx, s, src, LobbyOptions{Notice: "you left room alpha"},
				lobbyHooks{frames: frames, afterDraw: func() { drawn <- struct{}{} }})
			done <- err
		}()
		select {
		case <-drawn:
		case <-time.After(5 * time.Second):
			t.Fatal("second lobby not drawn")
		}
		lines := screenLines(scr.SimulationScreen)
		if squeeze(lines[1]) != "you left room alpha" || squeeze(lines[21]) != "5 rooms" {
			t.Errorf("second lobby:\n%q\n%q", lines[1], lines[21])
		}
		cancel()
		return <-done
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("WithScreen returned %v, want f's error", err)
	}
	if len(results) != 1 {
		t.Errorf("the game did not run")
	}
	if n := scr.finiCount(); n != 1 {
		t.Errorf("Fini called %d times, want 1", n)
	}
}

// TestWithScreenPanic: a panic in f restores the terminal and goes on.
func TestWithScreenPanic(t *testing.T) {
	scr := &finiScreen{SimulationScreen: tcell.NewSimulationScreen("UTF-8")}
	defer func() {
		if p := recover(); p != "boom" {
			t.Errorf("recovered %v, want the panic re-raised", p)
		}
		if n := scr.finiCount(); n != 1 {
			t.Errorf("Fini called %d times after a panic, want 1", n)
		}
	}()
	_ = WithScreen(scr, func(s tcell.Screen) error {
		s.Fini() // a no-op: the screen is shared
		if n := scr.finiCount(); n != 0 {
			t.Errorf("SharedScreen's Fini finalised the screen")
		}
		panic("boom")
	})
	t.Error("WithScreen returned after a panic")
}

// TestWithScreenInitError: WithScreen returns Init's error and does not
// call f.
func TestWithScreenInitError(t *testing.T) {
	called := false
	err := WithScreen(failingScreen{tcell.NewSimulationScreen("UTF-8")}, func(tcell.Screen) error {
		called = true
		return nil
	})
	if err == nil || called {
		t.Errorf("WithScreen returned %v, called f: %v", err, called)
	}
}

type failingScreen struct{ tcell.SimulationScreen }

func (failingScreen) Init() error { return errors.New("no terminal") }

func TestSharedScreenIdempotent(t *testing.T) {
	s := SharedScreen(tcell.NewSimulationScreen("UTF-8"))
	if SharedScreen(s) != s {
		t.Error("SharedScreen wrapped a shared screen twice")
	}
}
