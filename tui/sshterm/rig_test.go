package sshterm

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/netip"
	"sync"
	"testing"
	"time"

	"ttytanks/netcode"
	"ttytanks/netcode/transport"
)

// playRig is serve --ssh without SSH: a game server of 4-seat rooms on an
// in-memory network and a Game on it (lobby on, as serve has it), whose
// sessions are fakeSessions in this process. What a session costs here
// is what it costs serve, less the SSH stream's encryption and system
// calls.
type playRig struct {
	tb     testing.TB
	sd     *netcode.ServerDriver
	game   *Game
	cancel context.CancelFunc
	served chan error
}

// newPlayRig starts a rig of rooms of players seats; tweak, if set,
// changes the Game's configuration.
func newPlayRig(tb testing.TB, players int, tweak func(*Config)) *playRig {
	tb.Helper()
	mnet := transport.NewMemNetwork()
	st := mnet.Listen()
	srv, err := netcode.NewServer(netcode.ServerConfig{Players: players, MaxRooms: 255,
		Trusted: []netip.Prefix{transport.MemPrefix}})
	if err != nil {
		tb.Fatal(err)
	}
	cfg := Config{Net: mnet, Game: st.LocalAddr(), Lobby: true}
	if tweak != nil {
		tweak(&cfg)
	}
	g, err := NewGame(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &playRig{tb: tb, sd: netcode.NewServerDriver(srv, st), game: g, cancel: cancel, served: make(chan error, 1)}
	go func() { r.served <- r.sd.Run(ctx) }()
	tb.Cleanup(r.close)
	return r
}

// close stops the game server and waits for it.
func (r *playRig) close() {
	if r.cancel == nil {
		return
	}
	r.cancel()
	r.cancel = nil
	if err := <-r.served; err != nil {
		r.tb.Errorf("game server: %v", err)
	}
}

// gameMarker is a word the game's sidebar shows and the lobby does not
// (loadtest --ssh watches for the same).
const gameMarker = "rollbacks"

// fakeSession is an SSH session of a PTY of w×h cells as Game.Play sees
// it: keys come from a pipe the test writes, the screen goes to a counter
// that notes when the game's sidebar first shows.
type fakeSession struct {
	name    string
	w, h    int
	keys    *io.PipeReader
	typer   *io.PipeWriter
	resized chan struct{}
	closed  chan struct{}
	closing context.Context

	mu     sync.Mutex
	tail   []byte
	bytes  int64
	inGame chan struct{} // closed once the game's sidebar shows
	seen   bool
	drawn  chan struct{} // closed at the first byte of screen
	first  bool
}

func newFakeSession(name string, w, h int) *fakeSession {
	kr, kw := io.Pipe()
	return &fakeSession{name: name, w: w, h: h, keys: kr, typer: kw, resized: make(chan struct{}),
		closed: make(chan struct{}), closing: context.Background(),
		inGame: make(chan struct{}), drawn: make(chan struct{})}
}

func (s *fakeSession) Read(p []byte) (int, error) { return s.keys.Read(p) }

func (s *fakeSession) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bytes += int64(len(p))
	if !s.first {
		s.first = true
		close(s.drawn)
	}
	if !s.seen {
		s.tail = append(s.tail, p...)
		if bytes.Contains(s.tail, []byte(gameMarker)) {
			s.seen = true
			close(s.inGame)
			s.tail = nil
		} else if len(s.tail) > len(gameMarker) {
			s.tail = append(s.tail[:0], s.tail[len(s.tail)-len(gameMarker):]...)
		}
	}
	return len(p), nil
}

func (s *fakeSession) Name() string                  { return s.name }
func (s *fakeSession) Term() string                  { return "xterm-256color" }
func (s *fakeSession) Environ() []string             { return []string{"LANG=C.UTF-8"} }
func (s *fakeSession) Window() (int, int)            { return s.w, s.h }
func (s *fakeSession) Resized() <-chan struct{}      { return s.resized }
func (s *fakeSession) Closed() <-chan struct{}       { return s.closed }
func (s *fakeSession) Closing() context.Context      { return s.closing }
func (s *fakeSession) Idle() time.Duration           { return -1 }
func (s *fakeSession) Logger() *slog.Logger          { return slog.New(slog.DiscardHandler) }
func (s *fakeSession) Drop()                         {}
func (s *fakeSession) Go(f func())                   { go f() }
func (s *fakeSession) Enlist(netip.AddrPort)         {}
func (s *fakeSession) Delist(netip.AddrPort)         {}
func (s *fakeSession) Fingerprint() ([32]byte, bool) { return [32]byte{}, false }

// written is the bytes of screen sent so far.
func (s *fakeSession) written() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bytes
}

// hangUp ends the session as a player closing ssh does: the input ends.
func (s *fakeSession) hangUp() { s.typer.Close() }

// play is what loadtest --ssh does in a session: quick match from the
// lobby once it shows, then an arrow or fire at random every 100 ms,
// until ctx is done; then it hangs up.
func (s *fakeSession) play(ctx context.Context, seed uint64) {
	defer s.hangUp()
	select {
	case <-s.drawn:
	case <-ctx.Done():
		return
	}
	if _, err := io.WriteString(s.typer, "n"); err != nil {
		return
	}
	select {
	case <-s.inGame:
	case <-ctx.Done():
		return
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	keys := [...]string{"\x1b[A", "\x1b[B", "\x1b[C", "\x1b[D", " "}
	tk := time.NewTicker(100 * time.Millisecond)
	defer tk.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tk.C:
		}
		if _, err := io.WriteString(s.typer, keys[rng.IntN(len(keys))]); err != nil {
			return
		}
	}
}
