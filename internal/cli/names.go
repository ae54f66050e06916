package cli

import (
	"fmt"
	"os"

	"ttytanks/proto"
)

// hostName is the default name of the player of serve --play: the login
// name with "-host", so that in the two-terminal demo it differs from the
// player who joins.
func hostName() string { return defaultName() + "-host" }

// defaultName is the login name, or "player".
func defaultName() string {
	if u := os.Getenv("USER"); u != "" {
		return u
	}
	return "player"
}

// playerName sanitises a --name value.
func playerName(s string) (string, error) {
	n := proto.SanitizeName(s)
	if n == "" {
		return "", fmt.Errorf("--name %q has no printable characters", s)
	}
	return n, nil
}
