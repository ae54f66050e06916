package ladder

import (
	"errors"
	"fmt"
)

// Errors of the Store and the RedisBoard.
var (
	// ErrSchemaNewer is a database whose schema_migrations records a
	// version newer than the migrations this program knows: it was written
	// by a newer ttytanks, and this one refuses to touch it.
	ErrSchemaNewer = errors.New("ladder: database schema is newer than this program")
	// ErrKey is a Key that cannot name a player: the zero Key, or a
	// public key of another length than 32 bytes.
	ErrKey = errors.New("ladder: not a player key")
	// ErrName is a name that is empty, not as proto.SanitizeName leaves it,
	// or the name forgotten players are shown under.
	ErrName = errors.New("ladder: not a player name")
	// ErrMatch is a Match that cannot be recorded: no players, a negative
	// count, more hits than shots, a slot or key twice.
	ErrMatch = errors.New("ladder: not a match")
	// ErrNoPlayer is a key the store holds no record of.
	ErrNoPlayer = errors.New("ladder: no such player")
	// ErrClosed is a call on a RedisBoard after its Close.
	ErrClosed = errors.New("ladder: board closed")
	// ErrContended is a RedisBoard write that found the records it read
	// changed by another writer before it could commit, at each of its
	// MaxAttempts tries, and so wrote nothing.
	ErrContended = errors.New("ladder: too many concurrent writes of the same records")
	// ErrNotWAL is a database SQLite would not put in WAL journal mode
	// (on a file system without shared memory, say).
	ErrNotWAL = errors.New("ladder: database not in WAL journal mode")
)

// ErrNameTaken is a name held by another key. Names compare without
// regard to case, as strings.EqualFold compares them.
type ErrNameTaken struct {
	Name string // the name asked for
}

func (e ErrNameTaken) Error() string {
	return fmt.Sprintf("ladder: the name %q is taken", e.Name)
}
