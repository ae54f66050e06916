package ladder

import (
	"crypto/ed25519"
	"fmt"
	"strings"
	"unicode"

	"ttytanks/proto"
)

// Key is a player's identity: an Ed25519 public key. The zero Key is no
// key: a guest's or a bot's.
type Key [ed25519.PublicKeySize]byte

// KeyOf returns pub as a Key, or ErrKey if it is not 32 bytes or is all
// zeros.
func KeyOf(pub ed25519.PublicKey) (Key, error) {
	var k Key
	if len(pub) != len(k) {
		return k, fmt.Errorf("%w: %d bytes", ErrKey, len(pub))
	}
	copy(k[:], pub)
	if k.IsZero() {
		return k, fmt.Errorf("%w: all zeros", ErrKey)
	}
	return k, nil
}

// IsZero reports whether k is the zero Key, no key.
func (k Key) IsZero() bool { return k == Key{} }

// ForgottenName is the name match_players shows for a player Forget has
// removed. No player may take it.
const ForgottenName = "(forgotten)"

// validName reports whether s may be a player's name: not empty, as
// proto.SanitizeName leaves it (printable, at most proto.MaxNameLen
// bytes), not ForgottenName in any case, and not starting with "~", the
// mark of a guest (PROTOCOL.md §4.15).
func validName(s string) bool {
	return s != "" && proto.SanitizeName(s) == s && foldName(s) != foldName(ForgottenName) && !strings.HasPrefix(s, "~")
}

// shownName reports whether s may stand for an unrated player (a bot, a
// guest "~name") in a match's record: any name a player may show.
func shownName(s string) bool { return s != "" && proto.SanitizeName(s) == s }

// foldName returns s with each rune replaced by the least rune of its
// case-folding orbit (unicode.SimpleFold), so that foldName(a) ==
// foldName(b) exactly when strings.EqualFold(a, b). SQLite's NOCASE folds
// ASCII only; players.name_fold holds this, and its UNIQUE constraint
// keeps "Émile" and "émile" to one key.
func foldName(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		b.WriteRune(least)
	}
	return b.String()
}
