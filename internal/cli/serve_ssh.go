package cli

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"runtime/debug"
	"sync/atomic"
	"time"
	"ttytanks/proto"

	"github.com/spf13/pflag"
	gossh "golang.org/x/crypto/ssh"

	"ttytanks/internal/sshfront"
	"ttytanks/netcode/transport"
	"ttytanks/tui"
	"ttytanks/tui/sshterm"
)

// sshFlags configure serve --ssh: the game served to ssh clients.
type sshFlags struct {
	addr           string
	hostKey        string
	idle           time.Duration
	idleSet        bool // --ssh-idle was given: else SSH sessions follow --idle
	max            int
	fps            int
	authorizedKeys string
}

func (f *sshFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.addr, "ssh", "", "also serve the game over SSH on this TCP address, e.g. :2222 (players run: ssh -p 2222 host)")
	fs.StringVar(&f.hostKey, "key", "", "the server's key file (Ed25519, created on first start): it signs every handshake and is the SSH host key (default $XDG_STATE_HOME/ttytanks/ssh_host_ed25519 or ~/.local/state/ttytanks/ssh_host_ed25519)")
	fs.StringVar(&f.hostKey, "ssh-host-key", "", "the same as --key")
	// Its default, --idle's value, is no constant: the zero value keeps
	// pflag from printing a second "(default …)".
	fs.DurationVar(&f.idle, "ssh-idle", 0, "end an SSH session after this long without a move, a shot or a lobby or results action, waiting in a room included (default: --idle's value)")
	fs.IntVar(&f.max, "ssh-max", sshfront.DefaultMaxSessions, "most concurrent SSH sessions; the next one is told the server is busy")
	fs.IntVar(&f.fps, "ssh-fps", sshterm.DefaultFPS, "display frames per second of SSH sessions (10-60)")
	fs.StringVar(&f.authorizedKeys, "ssh-authorized-keys", "", "admit only the public keys in this OpenSSH authorized_keys file (default: anyone, no password)")
}

func (f *sshFlags) check(fs *pflag.FlagSet) error {
	if f.addr == "" {
		for _, n := range []string{"ssh-idle", "ssh-max", "ssh-fps", "ssh-authorized-keys"} {
			if fs.Changed(n) {
				return fmt.Errorf("--%s is for SSH play: give --ssh ADDR too", n)
			}
		}
	}
	f.idleSet = fs.Changed("ssh-idle")
	if f.idleSet && f.idle <= 0 {
		return fmt.Errorf("--ssh-idle must be positive")
	}
	if f.max < 1 || f.max > 100000 {
		return fmt.Errorf("--ssh-max must be 1..100000")
	}
	if f.fps < 10 || f.fps > 60 {
		return fmt.Errorf("--ssh-fps must be 10..60")
	}
	return nil
}

// sessionIdle is the SSH sessions' idle limit: --ssh-idle if given, else
// the game server's --idle (0, never, is negative for sshfront).
func (f *sshFlags) sessionIdle(serverIdle time.Duration) time.Duration {
	switch {
	case f.idleSet:
		return f.idle
	case serverIdle > 0:
		return serverIdle
	}
	return -1
}

// start opens the SSH listener for the game server behind mux, with the
// server's key as its host key and idle (sessionIdle) as its sessions'
// idle limit; the returned server is serving. It also returns the ssh
// command players use, for the dashboard.
func (f *sshFlags) start(mux *transport.MuxTransport, priv ed25519.PrivateKey, ui tui.Options, idle time.Duration, fleet bool, logger *slog.Logger) (s *sshfront.Server, share string, err error) {
	key, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		return nil, "", err
	}
	var keys *sshfront.AuthorizedKeys
	if f.authorizedKeys != "" {
		if keys, err = sshfront.LoadAuthorizedKeys(f.authorizedKeys); err != nil {
			return nil, "", err
		}
	}
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return nil, "", fmt.Errorf("cannot listen on %s: %w", f.addr, err)
	}
	ui.Share = sshShare(f.addr, ln.Addr().(*net.TCPAddr).Port) // SSH players share the ssh command
	ui.FPS = f.fps
	gc := sshterm.Config{Net: mux.Network(), Game: mux.MemAddr(), UI: ui, Lobby: true,
		// A player who signs in with a key is known by it: this server
		// (or, in a fleet, any of its servers) takes its word for them.
		Vouch: func(id, t [32]byte) proto.Identity { return proto.VouchIdentity(priv, id, t) }}
	if fleet {
		// A front end of a fleet: its sessions play on the other servers
		// over UDP, as any client (those servers count them against this
		// host's address).
		gc.Outside = func() (transport.Transport, error) {
			u, err := transport.ListenUDP(":0")
			if err != nil {
				return nil, err
			}
			return u, nil
		}
	}
	sshGame, err := sshterm.NewGame(gc)
	if err == nil {
		s, err = sshfront.NewServer(sshfront.Config{HostKey: key, AuthorizedKeys: keys, Idle: idle, MaxSessions: f.max,
			Logger: logger, Play: func(ctx context.Context, p *sshfront.Session) (int, string, bool) { return sshGame.Play(ctx, p) }})
	}
	if err != nil {
		ln.Close()
		return nil, "", err
	}
	go func() {
		if err := s.Serve(ln); err != nil {
			logger.Error("ssh server stopped", "err", err)
		}
	}()
	gogc := os.Getenv("GOGC")
	if gogc == "" {
		debug.SetGCPercent(sshGCPercent)
		gogc = fmt.Sprint(sshGCPercent)
	}
	access := "anyone"
	if keys != nil {
		access = fmt.Sprintf("%d authorized keys", keys.Len())
	}
	logger.Info("ssh listening", "addr", ln.Addr().String(), "fingerprint", gossh.FingerprintSHA256(key.PublicKey()),
		"access", access, "idle", idle, "max", f.max, "fps", f.fps, "gogc", gogc)
	return s, ui.Share, nil
}

// sshGCPercent is the garbage collector's GOGC when serve serves SSH and
// the environment sets none: a heap grown to half again what is live
// before each collection, not twice. SSH sessions keep most of what they
// allocate for as long as they play (their clients, screens and
// connections) and make little garbage, so collecting sooner costs next
// to no CPU and holds a quarter less memory: 100 sessions at 80x24 peaked
// at 126 MB with it, 161 MB with GOGC=100, at the same 39% of a core.
const sshGCPercent = 50

// sshOrigin is the server's Origin with SSH play: SSH players count
// against their SSH client's address's limits. The SSH server starts
// after the game server, so the lookup goes through front, set once it
// does.
func sshOrigin(front *atomic.Pointer[sshfront.Server]) func(mem netip.AddrPort) (netip.Addr, bool) {
	return func(mem netip.AddrPort) (netip.Addr, bool) {
		if s := front.Load(); s != nil {
			return s.Origin(mem)
		}
		return netip.Addr{}, false
	}
}
