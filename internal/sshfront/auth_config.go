package sshfront

import (
	"errors"

	"github.com/gliderlabs/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// keyExtension is the Permissions extension that carries the public key
// a connection authenticated with (its wire encoding). x/crypto returns
// the Permissions of the method that succeeded, so a key the client only
// offered, or one whose signature failed, is never taken for it.
const keyExtension = "ttytanks-publickey"

// errNoAuth refuses the "none" method: a client that says nothing of
// itself is asked for a key first, then keyboard-interactive.
var errNoAuth = errors.New("sshfront: offer a key or answer keyboard-interactive")

// authConfig is gliderlabs' ServerConfigCallback: the authentication of
// one connection. With AuthorizedKeys only those keys get in; without,
// any key does, and a client without one gets in by keyboard-interactive
// with no question. Either way "none" fails, so that OpenSSH offers its
// keys (it offers none once "none" succeeds) and a banned key is known.
// The key is read at the first channel (authedKey); a banned one is told
// so there, not refused here, so its player learns why.
func (s *Server) authConfig(ctx ssh.Context) *gossh.ServerConfig {
	progress := func(key gossh.PublicKey) {
		if tc := connOf(ctx); tc != nil {
			if key != nil {
				tc.offer(key)
			}
			s.progress(tc, stageAuthed)
		}
	}
	keys := s.cfg.AuthorizedKeys
	cfg := &gossh.ServerConfig{
		NoClientAuthCallback: func(gossh.ConnMetadata) (*gossh.Permissions, error) { return nil, errNoAuth },
		PublicKeyCallback: func(_ gossh.ConnMetadata, key gossh.PublicKey) (*gossh.Permissions, error) {
			if keys != nil && !keys.Allows(key) {
				return nil, errors.New("sshfront: key not authorized")
			}
			progress(key)
			return &gossh.Permissions{Extensions: map[string]string{keyExtension: string(key.Marshal())}}, nil
		},
	}
	if keys == nil {
		cfg.KeyboardInteractiveCallback = func(_ gossh.ConnMetadata, ask gossh.KeyboardInteractiveChallenge) (*gossh.Permissions, error) {
			// No question: some clients expect an info request before
			// the success.
			if _, err := ask("", "", nil, nil); err != nil {
				return nil, err
			}
			progress(nil)
			return &gossh.Permissions{}, nil
		}
	}
	return cfg
}

// authedKey is the public key conn authenticated with, or nil.
func authedKey(conn *gossh.ServerConn) gossh.PublicKey {
	if conn == nil || conn.Permissions == nil {
		return nil
	}
	wire, ok := conn.Permissions.Extensions[keyExtension]
	if !ok {
		return nil
	}
	key, err := gossh.ParsePublicKey([]byte(wire))
	if err != nil {
		return nil
	}
	return key
}
