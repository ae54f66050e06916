package replay

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"ttytanks/game"
	"ttytanks/netcode"
	"ttytanks/proto/recording/resim"
	"ttytanks/tui"
)

// keyTable is every key the replay screen handles and what it does: the
// help text (Keys), the help overlay and the key hints are made from it,
// and Player.Key handles exactly these.
var keyTable = [][2]string{
	{"space", "pause / play"},
	{"+ / -", "speed up / slow down (0.25x to 8x)"},
	{"← / →", "seek back / forward 5 s"},
	{"[ / ]", "previous / next round"},
	{"1-8", "follow that player (again, or 0: stop following)"},
	{"Home / End", "go to the start / end"},
	{"?", "this help (? or Esc closes it)"},
	{"q, Esc", "quit"},
}

// Keys is the help text of the replay keys, for --help.
var Keys = func() string {
	s := "Keys:"
	for _, k := range keyTable {
		s += fmt.Sprintf("\n  %-12s %s", k[0], k[1])
	}
	return s
}()

// keyHints are the key help lines of the sidebar, and footerKeys the
// status line's: each names only keys of keyTable.
var (
	keyHints   = []string{"space pause · ←→ seek", "+- speed · [] round", "1-8 follow · ? help · q quit"}
	footerKeys = " space ←→ [] +- 1-8 Home End ? q "
)

// Speeds are the playback speeds + and - step through.
var Speeds = []float64{0.25, 0.5, 1, 2, 4, 8}

// SeekStep is how far ← and → move, in ticks (5 s).
const SeekStep = 5 * game.TickRate

// Player is the state of a replay being watched: the timeline, paused or
// not, the speed, the player followed. Its methods are the keys.
type Player struct {
	TL     *resim.Timeline
	Paused bool
	// Speed indexes Speeds.
	Speed int
	// Follow is the seat followed, or −1.
	Follow int
	// Help shows the help overlay.
	Help bool
	// Name names the recording in the sidebar (the CLI passes the file's
	// name); empty shows the match id only.
	Name string
	// Feed is the recording's event feed.
	Feed *Feed
	// acc is the simulated time owed, in ticks.
	acc float64
}

// NewPlayer returns a Player at the start of tl, playing at 1x; it
// simulates tl once more to find its events (NewFeed).
func NewPlayer(tl *resim.Timeline) *Player {
	return &Player{TL: tl, Speed: 2, Follow: -1, Feed: NewFeed(tl)}
}

// Advance plays dt of wall time at the current speed, stepping the whole
// ticks it owes (at most 2 s of play in one call, so a stalled terminal
// does not make the replay race).
func (p *Player) Advance(dt time.Duration) {
	if p.Paused {
		return
	}
	p.acc += dt.Seconds() * game.TickRate * Speeds[p.Speed]
	p.acc = min(p.acc, 2*game.TickRate*Speeds[p.Speed])
	for p.acc >= 1 {
		p.acc--
		if !p.TL.Step() {
			p.acc = 0
			p.Paused = true // at the end: wait for a seek or q
			return
		}
	}
}

// Key handles one key press, one of keyTable's (and Ctrl-C, which
// quits); it reports true for quit. Esc closes the help when it shows,
// and quits otherwise.
func (p *Player) Key(ev *tcell.EventKey) (quit bool) {
	tl := p.TL
	switch ev.Key() {
	case tcell.KeyEscape:
		if p.Help {
			p.Help = false
			return false
		}
		return true
	case tcell.KeyCtrlC:
		return true
	case tcell.KeyLeft:
		p.seek(tl.Tick().Add(-SeekStep))
	case tcell.KeyRight:
		p.seek(tl.Tick().Add(SeekStep))
	case tcell.KeyHome:
		p.seek(tl.Start())
	case tcell.KeyEnd:
		p.seek(tl.End())
	case tcell.KeyRune:
		switch r := ev.Rune(); r {
		case 'q', 'Q':
			return true
		case '?':
			p.Help = !p.Help
		case ' ':
			p.Paused = !p.Paused
			if !p.Paused && tl.Tick() == tl.End() {
				p.seek(tl.Start())
			}
		case '+', '=':
			p.Speed = min(p.Speed+1, len(Speeds)-1)
		case '-', '_':
			p.Speed = max(p.Speed-1, 0)
		case '[':
			// The start of this round, or the previous one when just
			// past it.
			to := tl.RoundStart(0)
			if tl.Tick().Diff(to) < game.TickRate {
				to = tl.RoundStart(-1)
			}
			p.seek(to)
		case ']':
			p.seek(tl.RoundStart(1))
		case '0':
			p.Follow = -1
		default:
			if r >= '1' && r <= '8' {
				s := int(r - '1')
				switch {
				case s >= tl.Header().Slots:
				case p.Follow == s:
					p.Follow = -1
				default:
					p.Follow = s
				}
			}
		}
	}
	return false
}

func (p *Player) seek(t game.Tick) {
	p.TL.Seek(t)
	p.acc = 0
}

// StatusLine is the bottom row: play state, speed, tick, round, a
// progress bar, game time and the main keys, fitted to width cells.
func (p *Player) StatusLine(width int, ascii bool) string {
	tl := p.TL
	state := "PLAY"
	if p.Paused {
		state = "PAUSE"
	}
	pos, total := tl.Tick().Diff(tl.Start()), tl.End().Diff(tl.Start())
	left := fmt.Sprintf(" %s %gx  tick %d  round %d/%d ", state, Speeds[p.Speed], tl.Tick(), tl.Round(), tl.Rounds())
	if p.Follow >= 0 {
		left += " following " + followName(tl, p.Follow) + " "
	}
	right := fmt.Sprintf(" %s/%s ", clock(pos), clock(total))
	if !tl.Interrupted() && tl.Err() != nil {
		right += " (file damaged, ends here) "
	} else if tl.Interrupted() {
		right += " (interrupted) "
	}
	right += footerKeys
	barW := width - len([]rune(left)) - len([]rune(right))
	if barW < 10 {
		right = fmt.Sprintf(" %s/%s ", clock(pos), clock(total))
		barW = width - len([]rune(left)) - len([]rune(right))
	}
	var b strings.Builder
	b.WriteString(left)
	if barW > 2 {
		full, empty := "█", "░"
		if ascii {
			full, empty = "#", "-"
		}
		n := 0
		if total > 0 {
			n = int(int64(barW-2) * int64(pos) / int64(total))
		}
		b.WriteString("[" + strings.Repeat(full, n) + strings.Repeat(empty, barW-2-n) + "]")
	}
	b.WriteString(right)
	return b.String()
}

func clock(ticks int32) string {
	s := int(ticks) / game.TickRate
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// shortScreen is a screen whose last row is hidden from the renderer,
// which leaves it to the status line.
type shortScreen struct{ tcell.Screen }

func (s shortScreen) Size() (int, int) {
	w, h := s.Screen.Size()
	return w, max(h-1, 0)
}

// Hooks let tests drive Play without a wall clock; zero values mean the
// real thing.
type Hooks struct {
	Frames    <-chan time.Time // frame ticks; nil: a ticker at the options' FPS
	AfterDraw func()
}

// Play shows p on screen until q, Esc or Ctrl-C, or until ctx is
// cancelled: the same renderer as a live match (tui.Renderer) above a
// status line with a progress bar. One select loop joins key events, a
// frame ticker and ctx; each frame advances the replay by the wall time
// since the last at the current speed and draws it. Play calls screen.Init
// and, in a deferred function that also recovers a panic, screen.Fini.
func Play(ctx context.Context, screen tcell.Screen, p *Player, opts tui.Options, hooks Hooks) (err error) {
	if err := screen.Init(); err != nil {
		return err
	}
	defer func() {
		r := recover()
		screen.Fini()
		if r != nil {
			panic(r)
		}
	}()
	screen.HideCursor()
	screen.Clear()
	events := make(chan tcell.Event, 16)
	stop := make(chan struct{})
	defer close(stop)
	go screen.ChannelEvents(events, stop)
	frames := hooks.Frames
	if frames == nil {
		fps := opts.FPS
		if fps <= 0 {
			fps = tui.DefaultFPS
		}
		tk := time.NewTicker(time.Second / time.Duration(fps))
		defer tk.Stop()
		frames = tk.C
	}
	renderer := tui.NewRenderer(shortScreen{screen}, opts)
	barStyle := tcell.StyleDefault.Reverse(true)
	var v netcode.View
	var panel tui.Panel
	renderer.SetPanel(&panel)
	draw := func() {
		w, h := screen.Size()
		line := []rune(p.StatusLine(w, opts.ASCII))
		for x := 0; x < w; x++ {
			r := ' '
			if x < len(line) {
				r = line[x]
			}
			screen.SetContent(x, h-1, r, nil, barStyle)
		}
		timelineView(&v, p.TL)
		p.fillPanel(&panel)
		hud := renderer.HUD()
		hud.Follow, hud.Help = p.Follow+1, p.Help
		renderer.Draw(&v) // shows the screen, status line included
		if hooks.AfterDraw != nil {
			hooks.AfterDraw()
		}
	}
	last := time.Time{}
	draw()
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				return nil
			}
			switch ev := ev.(type) {
			case *tcell.EventKey:
				if p.Key(ev) {
					return nil
				}
				draw()
			case *tcell.EventResize:
				renderer.Invalidate()
				screen.Sync()
				draw()
			}
		case now := <-frames:
			if !last.IsZero() {
				p.Advance(now.Sub(last))
			}
			last = now
			draw()
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// timelineView fills dst with tl's playback position as a spectator sees
// it (the renderer's HUD says whom it follows): status playing, the
// names, the world and its maze.
func timelineView(dst *netcode.View, tl *resim.Timeline) {
	*dst = netcode.View{Status: netcode.StatusPlaying, Slot: -1, Names: tl.Names()}
	for i := range dst.Connected {
		dst.Connected[i] = true
	}
	dst.World = *tl.State()
	dst.Maze = *tl.Maze()
	dst.Metrics.LocalTick, dst.Metrics.ServerTick = tl.Tick(), tl.Tick()
}

// followName is the name of seat f at the position, or "player N".
func followName(tl *resim.Timeline, f int) string {
	if n := tl.Names()[f]; n != "" {
		return n
	}
	return fmt.Sprintf("player %d", f+1)
}
