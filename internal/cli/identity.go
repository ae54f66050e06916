package cli

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/spf13/pflag"

	"ttytanks/known"
	"ttytanks/proto"
)

// identityFlags are how a client command says who the player is: the
// player key (made on the first run), or --guest.
type identityFlags struct {
	keyPath string
	guest   bool
}

func (f *identityFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.keyPath, "player-key", "", "your player key, which proves who you are to a server's ladder, made on first use (default $XDG_STATE_HOME/ttytanks/player_ed25519, mode 0600)")
	fs.BoolVar(&f.guest, "guest", false, "play as a guest: no player key, unranked, your name shown as ~name")
}

// registerReader registers the flags as top and me read them: they use
// a player key that exists and never make one.
func (f *identityFlags) registerReader(fs *pflag.FlagSet, cmd string) {
	fs.StringVar(&f.keyPath, "player-key", "", "your player key, which proves who you are to the server; "+cmd+" never makes one (default $XDG_STATE_HOME/ttytanks/player_ed25519)")
	if cmd == "top" {
		fs.BoolVar(&f.guest, "guest", false, "ask without your player key: the leaderboard alone, no line of your own")
	}
}

// check reports the flags' usage error: --guest plays without the key
// --player-key names.
func (f *identityFlags) check(fs *pflag.FlagSet) error {
	if f.guest && fs.Changed("player-key") {
		return errors.New("--guest plays without a player key: drop --player-key (or --guest)")
	}
	return nil
}

// keyError is err, of the key file --player-key names (or its default),
// in the player's words: the file and what is wrong with it, without the
// known package's prefix or a parser's message.
func keyError(err error) error {
	var kf *known.KeyFileError
	if errors.As(err, &kf) {
		return fmt.Errorf("--player-key %s %s", kf.Path, kf.Why)
	}
	return fmt.Errorf("--player-key: %w", err)
}

// load returns the player's key (nil with --guest), making it on first
// use; stderr hears of a key made.
func (f *identityFlags) load(stderr io.Writer) (ed25519.PrivateKey, error) {
	if f.guest {
		return nil, nil
	}
	path := f.keyPath
	if path == "" {
		var err error
		if path, err = known.DefaultPlayerKeyPath(); err != nil {
			return nil, err
		}
	}
	key, created, err := known.LoadOrCreateKey(path)
	if err != nil {
		return nil, keyError(err)
	}
	if created {
		fmt.Fprintf(stderr, "ttytanks: made your player key %s (%s): keep it to keep your name and rating\n", path, known.Fingerprint(key.Public().(ed25519.PublicKey)))
	}
	return key, nil
}

// loadIfMade returns the player's key if it has been made (nil, with
// path, when it has not, or with --guest), and makes none: top and me
// only read who the player is.
func (f *identityFlags) loadIfMade() (key ed25519.PrivateKey, path string, err error) {
	if f.guest {
		return nil, "", nil
	}
	path = f.keyPath
	if path == "" {
		if path, err = known.DefaultPlayerKeyPath(); err != nil {
			return nil, "", err
		}
	}
	key, err = known.LoadKey(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, path, nil
	}
	if err != nil {
		return nil, path, keyError(err)
	}
	return key, path, nil
}

// signer returns the Identify of a client that plays as key's holder
// (nil for a guest).
func signer(key ed25519.PrivateKey) func([32]byte) proto.Identity {
	if key == nil {
		return nil
	}
	return func(t [32]byte) proto.Identity { return proto.SignIdentity(key, t) }
}
