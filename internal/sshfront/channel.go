package sshfront

import (
	"fmt"
	"sync"
	"time"

	"github.com/gliderlabs/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// sessionChannel is the "session" channel handler: gliderlabs' own, with
// the channel's requests filtered first (filteredChannel), at most
// MaxChannelsPerConn at once on a connection.
func (s *Server) sessionChannel(srv *ssh.Server, conn *gossh.ServerConn, nc gossh.NewChannel, ctx ssh.Context) {
	tc := connOf(ctx)
	if tc != nil {
		tc.handshook(conn)
		s.progress(tc, stageChannel)
	}
	if !s.enter(&s.wg) {
		_ = nc.Reject(gossh.ResourceShortage, "ttytanks: the server is shutting down")
		return
	}
	defer s.wg.Done()
	if tc != nil {
		if !tc.opened() {
			_ = nc.Reject(gossh.ResourceShortage, fmt.Sprintf("ttytanks: at most %d sessions per connection", MaxChannelsPerConn))
			return
		}
		defer tc.shut()
	}
	st := &chanState{notify: make(chan struct{}, 1), done: make(chan struct{})}
	ssh.DefaultSessionHandler(srv, conn, filteredChannel{NewChannel: nc, s: s, st: st, tc: tc}, chanContext{Context: ctx, st: st})
}

// Bounds on the "env" requests of one session: how many, and the bytes of
// one and of all.
const (
	maxEnv      = 64
	maxEnvBytes = 1024
	maxEnvTotal = 16 << 10
)

// chanState is what the request filter of one session channel tells its
// session handler: the client's latest window size, and when the channel
// is gone.
type chanState struct {
	mu     sync.Mutex
	win    ssh.Window
	hasWin bool
	notify chan struct{} // a token after each new window size
	done   chan struct{} // closed when the channel's requests end
}

func (st *chanState) setWindow(w ssh.Window) {
	st.mu.Lock()
	st.win, st.hasWin = w, true
	st.mu.Unlock()
	select {
	case st.notify <- struct{}{}:
	default:
	}
}

// window is the latest window-change's size, if any came.
func (st *chanState) window() (ssh.Window, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.win, st.hasWin
}

// chanContext is the session's context: the connection's, plus the
// channel's chanState (found by stateOf).
type chanContext struct {
	ssh.Context
	st *chanState
}

type chanStateKey struct{}

func (c chanContext) Value(key any) any {
	if key == (chanStateKey{}) {
		return c.st
	}
	return c.Context.Value(key)
}

// stateOf is the chanState of a session, nil if it has none.
func stateOf(sess ssh.Session) *chanState {
	st, _ := sess.Context().Value(chanStateKey{}).(*chanState)
	return st
}

// filteredChannel is a session channel whose requests pass a filter
// before gliderlabs sees them: refused ones (refusedRequest, too many or
// too large env requests) are answered no, and window-change requests are
// answered and kept in the chanState, never forwarded. gliderlabs would
// push each into a channel of one slot that only a running handler reads,
// from its request loop: a window-change before the shell request, or
// after a refusal, or a second one before the handler read the first,
// would block that loop, and with it every request of the channel and its
// close, for good.
//
// The filter also closes a channel that asks for no shell (nor command,
// nor subsystem) within Config.ChannelSetupTimeout, and tells the
// connection's admission of a pty-req.
type filteredChannel struct {
	gossh.NewChannel
	s  *Server
	st *chanState
	tc *trackedConn // nil in tests that make channels by hand
}

func (c filteredChannel) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	ch, reqs, err := c.NewChannel.Accept()
	if err != nil {
		close(c.st.done)
		return ch, reqs, err
	}
	out := make(chan *gossh.Request)
	if !c.s.enter(&c.s.wg) {
		ch.Close()
		go func() {
			gossh.DiscardRequests(reqs)
			close(c.st.done)
		}()
		close(out)
		return ch, out, nil
	}
	setup := time.AfterFunc(c.s.cfg.ChannelSetupTimeout, func() {
		c.s.log.Info("ssh channel closed", "reason", "no shell request", "after", c.s.cfg.ChannelSetupTimeout)
		_ = ch.Close()
	})
	go func() {
		defer c.s.wg.Done()
		defer close(out)
		defer close(c.st.done)
		defer setup.Stop()
		env, envBytes := 0, 0
		winch := newWinchLimiter(time.Now())
		for r := range reqs {
			switch r.Type {
			case "pty-req":
				if c.tc != nil {
					c.s.progress(c.tc, stagePty)
				}
			case "shell", "exec", "subsystem":
				setup.Stop()
			case "window-change":
				keep, flood := winch.take(time.Now())
				if flood {
					// A storm no terminal sends: the connection goes, so
					// its requests stop costing their decryption too.
					if c.tc != nil {
						c.s.tally("closed: window-change storm", c.tc.ip)
						_ = c.tc.Conn.Close()
					} else {
						_ = ch.Close()
					}
					continue
				}
				w, ok := parseWindow(r.Payload)
				if ok && keep {
					c.st.setWindow(w)
				}
				_ = r.Reply(ok && keep, nil)
				continue
			case "env":
				env++
				envBytes += len(r.Payload)
				if env > maxEnv || len(r.Payload) > maxEnvBytes || envBytes > maxEnvTotal {
					_ = r.Reply(false, nil)
					continue
				}
			}
			if refusedRequest(r.Type) {
				_ = r.Reply(false, nil)
				continue
			}
			out <- r
		}
	}()
	return ch, out, nil
}

// Window-change bounds of one session channel: WinchRate a second
// (bursts of WinchBurst) are applied, those beyond answered no and
// ignored (the game shows at most four sizes a second anyway: sshterm's
// ResizeEvery); past WinchFloodRate a second (bursts of WinchFloodBurst)
// the connection is closed. A person dragging a window's corner sends
// some tens a second.
const (
	WinchRate       = 20
	WinchBurst      = 40
	WinchFloodRate  = 100
	WinchFloodBurst = 500
)

// winchLimiter is a channel's two window-change buckets. Not safe for
// concurrent use: the channel's request loop owns it.
type winchLimiter struct {
	apply, flood tokenBucket
}

func newWinchLimiter(now time.Time) *winchLimiter {
	l := &winchLimiter{}
	l.apply.level(now, WinchRate, WinchBurst)
	l.flood.level(now, WinchFloodRate, WinchFloodBurst)
	return l
}

// take counts a window-change at now: keep if it is to be applied, flood
// if the channel sends them faster than any terminal.
func (l *winchLimiter) take(now time.Time) (keep, flood bool) {
	if l.flood.level(now, WinchFloodRate, WinchFloodBurst) < 1 {
		return false, true
	}
	l.flood.tokens--
	if l.apply.level(now, WinchRate, WinchBurst) < 1 {
		return false, false
	}
	l.apply.tokens--
	return true, false
}

// parseWindow parses a window-change request: columns, rows, width and
// height in pixels.
func parseWindow(payload []byte) (ssh.Window, bool) {
	var m struct{ W, H, PW, PH uint32 }
	if err := gossh.Unmarshal(payload, &m); err != nil {
		return ssh.Window{}, false
	}
	return ssh.Window{Width: int(min(m.W, 1<<16)), Height: int(min(m.H, 1<<16))}, true
}

// refusedRequest lists the session requests refused before gliderlabs
// would accept them: agent forwarding (gliderlabs says yes to it by
// default) and X11 forwarding.
func refusedRequest(typ string) bool {
	switch typ {
	case "auth-agent-req@openssh.com", "auth-agent-req", "x11-req":
		return true
	}
	return false
}

// refuseForwarding rejects a port-forwarding channel with a message the
// client shows.
func refuseForwarding(_ *ssh.Server, conn *gossh.ServerConn, nc gossh.NewChannel, ctx ssh.Context) {
	if tc := connOf(ctx); tc != nil {
		tc.handshook(conn)
	}
	_ = nc.Reject(gossh.Prohibited, fmt.Sprintf("ttytanks: port forwarding is not allowed (%s)", nc.ChannelType()))
}
