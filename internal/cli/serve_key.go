package cli

import (
	"crypto/ed25519"
	"fmt"
	"log/slog"

	"ttytanks/known"
)

// loadServerKey loads the server's key from path (serve --key; "": the
// default path), creating it on first start, and logs its fingerprint,
// which it returns too.
func loadServerKey(path string, logger *slog.Logger) (ed25519.PrivateKey, string, error) {
	if path == "" {
		var err error
		if path, err = known.DefaultKeyPath(); err != nil {
			return nil, "", err
		}
	}
	key, created, err := known.LoadOrCreateKey(path)
	if err != nil {
		return nil, "", fmt.Errorf("--key: %w", err)
	}
	fingerprint := known.Fingerprint(key.Public().(ed25519.PublicKey))
	logger.Info("server key", "file", path, "created", created, "fingerprint", fingerprint)
	return key, fingerprint, nil
}
