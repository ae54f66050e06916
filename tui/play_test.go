package tui

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"ttytanks/game"
	"ttytanks/netcode"
)

// TestLeaveNotice: the lobby's notice after the player left a room with
// l says when leaving cost them the match: a ranked room's match under
// way, which they played with a key, and which was not settled already.
func TestLeaveNotice(t *testing.T) {
	const loss = "you left room alpha: a ranked match under way counts as a loss (a forfeit)"
	for _, tc := range []struct {
		name   string
		ranked bool
		edit   func(v *netcode.View)
		want   string
	}{
		{"ranked, under way", true, func(*netcode.View) {}, loss},
		{"casual", false, func(*netcode.View) {}, "you left room alpha"},
		{"a guest", true, func(v *netcode.View) { v.Names[1] = "~bob" }, "you left room alpha"},
		{"over", true, func(v *netcode.View) { v.World.Round.Phase = game.PhaseMatchOver }, "you left room alpha"},
		{"alone, waiting", true, func(v *netcode.View) { v.World.Round.Phase = game.PhaseWaiting }, "you left room alpha"},
		{"settled", true, func(v *netcode.View) { v.Recorded = true }, "you left room alpha"},
		{"no round played", true, func(v *netcode.View) { v.World.Tanks[1] = game.Tank{Seated: true, AimX: 1} }, "you left room alpha"},
		{"watching", true, func(v *netcode.View) { v.Slot = -1 }, "you left room alpha"},
		{"not started", true, func(v *netcode.View) { v.Status = netcode.StatusWaiting }, "you left room alpha"},
	} {
		v := testView(t)
		v.Room = "alpha"
		tc.edit(v)
		if got := leaveNotice(v, tc.ranked); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	if n := len(loss); n > 80 {
		t.Errorf("the notice is %d cells", n)
	}
}

// scriptScreen is a simulation screen that types each key of its script
// once a frame shown holds the text the step waits for, so that no key is
// typed before the screen that takes it is up (the lobby drops the keys
// typed ahead when it hands the screen to a game), and keeps the frames.
type scriptScreen struct {
	tcell.SimulationScreen
	mu     sync.Mutex
	script []scriptStep
	frames []string
}

// scriptStep is a key to type once a frame shows want.
type scriptStep struct {
	want string
	key  rune
}

func (s *scriptScreen) Init() error {
	if err := s.SimulationScreen.Init(); err != nil {
		return err
	}
	s.SetSize(80, 24)
	return nil
}

func (s *scriptScreen) Show() {
	s.SimulationScreen.Show()
	frame := strings.Join(screenLines(s.SimulationScreen), "\n")
	s.mu.Lock()
	defer s.mu.Unlock()
	s.frames = append(s.frames, frame)
	if len(s.script) > 0 && strings.Contains(frame, s.script[0].want) {
		s.InjectKey(tcell.KeyRune, s.script[0].key, tcell.ModNone)
		s.script = s.script[1:]
	}
}

// seatHost is a host whose rooms are fakeRooms and whose Join seats the
// player in a match of seat's view.
type seatHost struct {
	*fakeRooms
	seat *fakeSession
}

func (h *seatHost) Join(netcode.RoomRequest) (Seat, error) { return leavingSession{h.seat}, nil }

type leavingSession struct{ *fakeSession }

func (leavingSession) Leave() {}

// TestPlaySaysALeftRankedMatchIsALoss: through Play, n quick-matches into
// a ranked room (alpha, as the lobby lists it) whose match is under way, l
// goes back to the lobby, and the lobby says leaving counted as a loss.
func TestPlaySaysALeftRankedMatchIsALoss(t *testing.T) {
	v := testView(t)
	v.Room = "alpha"
	list := testRooms()
	for i := range list.Rooms {
		list.Rooms[i].Ranked = list.Rooms[i].Name == "alpha"
	}
	h := &seatHost{fakeRooms: &fakeRooms{list: list}, seat: newFakeSession(v)}
	const left = "you left room alpha: a ranked match under way counts as a loss"
	scr := &scriptScreen{SimulationScreen: tcell.NewSimulationScreen("UTF-8"),
		script: []scriptStep{{"ttytanks lobby", 'n'}, {"ROUND", 'l'}, {left, 'q'}}}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // the script stalls: fail, not hang
	defer cancel()
	if err := Play(ctx, scr, h, Options{}, LobbyOptions{}); err != nil {
		t.Fatalf("Play: %v; frames shown: %d", err, len(scr.frames))
	}
	scr.mu.Lock()
	defer scr.mu.Unlock()
	for _, f := range scr.frames {
		if strings.Contains(f, left) {
			return
		}
	}
	t.Errorf("no frame said the ranked match left counts as a loss; the last:\n%s", scr.frames[len(scr.frames)-1])
}
