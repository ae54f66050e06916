package ladder

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"ttytanks/internal/rating"
)

// PlayerRecord is a player's record: name, rating, place and the sums of
// their rated matches.
type PlayerRecord struct {
	Key       Key
	Name      string
	CreatedAt time.Time // when the key first took a name
	Rating    rating.Rating
	// Rank is 1 plus the number of players with a higher rating, among
	// players of at least one rated match; 0 for a player of none.
	Rank          int
	Matches       int // rated matches played
	Wins          int // rated matches won outright: more round wins than anyone else
	RoundWins     int
	Kills         int
	Deaths        int
	Shots         int
	Hits          int
	SecondsPlayed int
}

// Accuracy returns Hits/Shots, or 0 before the first shot.
func (p PlayerRecord) Accuracy() float64 {
	if p.Shots == 0 {
		return 0
	}
	return float64(p.Hits) / float64(p.Shots)
}

// playerColumns are the columns scanPlayer reads, in its order.
const playerColumns = `key, name, created_at, rating, rd, sigma, matches, wins, round_wins, kills, deaths, shots, hits, seconds_played`

// scanPlayer reads playerColumns, then any extra destinations.
func scanPlayer(row interface{ Scan(...any) error }, extra ...any) (PlayerRecord, error) {
	var p PlayerRecord
	var key []byte
	var created int64
	dest := append([]any{&key, &p.Name, &created, &p.Rating.R, &p.Rating.RD, &p.Rating.Sigma,
		&p.Matches, &p.Wins, &p.RoundWins, &p.Kills, &p.Deaths, &p.Shots, &p.Hits, &p.SecondsPlayed}, extra...)
	if err := row.Scan(dest...); err != nil {
		return p, err
	}
	if len(key) != len(p.Key) {
		return p, fmt.Errorf("ladder: a player key of %d bytes", len(key))
	}
	copy(p.Key[:], key)
	p.CreatedAt = time.UnixMilli(created).UTC()
	return p, nil
}

// Player returns the record of the player of key, and false if there is
// none.
func (s *Store) Player(ctx context.Context, key Key) (PlayerRecord, bool, error) {
	row := s.db.QueryRowContext(ctx, `SELECT `+playerColumns+`,
	CASE WHEN matches > 0
		THEN 1 + (SELECT count(*) FROM players AS q WHERE q.matches > 0 AND q.rating > p.rating)
		ELSE 0 END
FROM players AS p WHERE key = ?`, key[:])
	var rank int
	p, err := scanPlayer(row, &rank)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return PlayerRecord{}, false, nil
	case err != nil:
		return PlayerRecord{}, false, fmt.Errorf("ladder: player: %w", err)
	}
	p.Rank = rank
	return p, true, nil
}

// Top returns at most n players of at least one rated match, from the
// offset-th best (0 the best): by rating, highest first, players of equal
// rating by name. Players of equal rating share a Rank.
func (s *Store) Top(ctx context.Context, n, offset int) ([]PlayerRecord, error) {
	if n <= 0 {
		return nil, nil
	}
	if offset < 0 {
		return nil, fmt.Errorf("ladder: top: offset %d", offset)
	}
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true}) // the page and the first rank from one snapshot
	if err != nil {
		return nil, fmt.Errorf("ladder: top: %w", err)
	}
	defer tx.Rollback()
	rows, err := s.query(ctx, tx, `SELECT `+playerColumns+` FROM players WHERE matches > 0
ORDER BY rating DESC, name_fold LIMIT ? OFFSET ?`, n, offset)
	if err != nil {
		return nil, fmt.Errorf("ladder: top: %w", err)
	}
	defer rows.Close()
	var top []PlayerRecord
	for rows.Next() {
		p, err := scanPlayer(rows)
		if err != nil {
			return nil, fmt.Errorf("ladder: top: %w", err)
		}
		top = append(top, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("ladder: top: %w", err)
	}
	if len(top) == 0 {
		return nil, nil
	}
	var higher int
	if err := s.scanRow(ctx, tx, `SELECT count(*) FROM players WHERE matches > 0 AND rating > ?`, []any{top[0].Rating.R}, &higher); err != nil {
		return nil, fmt.Errorf("ladder: top: %w", err)
	}
	rankPage(top, offset, higher)
	return top, nil
}

// rankPage sets the Ranks of top, a page of the leaderboard from the
// offset-th best, of which higher players rate above the first.
func rankPage(top []PlayerRecord, offset, higher int) {
	top[0].Rank = 1 + higher
	for i := 1; i < len(top); i++ {
		top[i].Rank = offset + i + 1 // everyone before it rates higher …
		if top[i].Rating.R == top[i-1].Rating.R {
			top[i].Rank = top[i-1].Rank // … unless it ties with the one before
		}
	}
}

// ClaimName gives name to the player of key: a key without a record takes
// a free name and gets a record of a new player's rating; a key with one
// renames itself. It returns ErrNameTaken if another key holds the name
// (names compare as strings.EqualFold does), and an error wrapping ErrKey
// or ErrName for a zero key or a name no player may have.
func (s *Store) ClaimName(ctx context.Context, key Key, name string) error {
	if err := checkClaim(key, name); err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("ladder: claim name: %w", err)
	}
	defer tx.Rollback()
	if err := s.claimName(ctx, tx, key, name, s.now().UnixMilli()); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("ladder: claim name: %w", err)
	}
	return nil
}

// checkClaim returns an error wrapping ErrKey or ErrName unless key may
// claim name.
func checkClaim(key Key, name string) error {
	if key.IsZero() {
		return fmt.Errorf("%w: the zero key", ErrKey)
	}
	if !validName(name) {
		return fmt.Errorf("%w: %q", ErrName, name)
	}
	return nil
}

// claimName is ClaimName inside tx, of a valid key and name, with at the
// created_at of a new record (Unix milliseconds).
func (s *Store) claimName(ctx context.Context, tx *sql.Tx, key Key, name string, at int64) error {
	fold := foldName(name)
	var holder []byte
	err := s.scanRow(ctx, tx, `SELECT key FROM players WHERE name_fold = ?`, []any{fold}, &holder)
	switch {
	case err == nil && !bytes.Equal(holder, key[:]):
		return ErrNameTaken{Name: name}
	case err != nil && !errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("ladder: claim name: %w", err)
	}
	r := rating.New()
	if _, err := s.exec(ctx, tx, `INSERT INTO players (key, name, name_fold, created_at, rating, rd, sigma)
VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (key) DO UPDATE SET name = excluded.name, name_fold = excluded.name_fold
	WHERE name != excluded.name COLLATE BINARY`,
		key[:], name, fold, at, r.R, r.RD, r.Sigma); err != nil {
		return fmt.Errorf("ladder: claim name: %w", err)
	}
	return nil
}

// Forget deletes the record of the player of key and, in the same
// transaction, takes their key and name off their rows of past matches
// (the name becomes ForgottenName); the matches and the other players'
// rows stay. Deleted content is overwritten (secure_delete) and the WAL is
// then checkpointed and truncated, so that neither file keeps a copy;
// backups do. It returns ErrNoPlayer if there is no such record.
//
// Rows recorded without the key (a keyed player's unrated matches from
// before they had a record) cannot be told apart and keep their name.
func (s *Store) Forget(ctx context.Context, key Key) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("ladder: forget: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE match_players SET player_key = NULL, name = ? WHERE player_key = ?`, ForgottenName, key[:]); err != nil {
		return fmt.Errorf("ladder: forget: %w", err)
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM players WHERE key = ?`, key[:])
	if err != nil {
		return fmt.Errorf("ladder: forget: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("ladder: forget: %w", err)
	} else if n == 0 {
		return ErrNoPlayer
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("ladder: forget: %w", err)
	}
	var busy, frames, done int
	if err := s.db.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &frames, &done); err != nil {
		return fmt.Errorf("ladder: forgotten, but the WAL was not checkpointed: %w", err)
	}
	if busy != 0 {
		return fmt.Errorf("ladder: forgotten, but a reader kept the WAL from being checkpointed; the next checkpoint clears it")
	}
	return nil
}
