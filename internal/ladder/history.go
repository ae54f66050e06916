package ladder

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// MatchRecord is a recorded match with all its players.
type MatchRecord struct {
	ID        int64
	PlayedAt  time.Time // UTC, to the millisecond
	Room      string
	Rated     bool
	Recording string // "" for none
	Rounds    int
	Players   []MatchPlayerRecord // by slot
}

// MatchPlayerRecord is one player's row of a recorded match. Key is zero
// for a bot, a guest, a forgotten player, and a keyed player without a
// record in an unrated match.
type MatchPlayerRecord struct {
	MatchPlayer
	Standing int  // place by round wins: 1 the best
	Rated    bool // the player's rating changed in this match
	// RatingBefore, RatingAfter and RDAfter are the player's R either side
	// of the match and RD after it, 0 unless Rated.
	RatingBefore, RatingAfter, RDAfter float64
}

// History returns the last n matches the player of key played (rated or
// not), the latest first: by PlayedAt, matches of one time by the order
// they were recorded in.
func (s *Store) History(ctx context.Context, key Key, n int) ([]MatchRecord, error) {
	if n <= 0 {
		return nil, nil
	}
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true}) // the matches and their players from one snapshot
	if err != nil {
		return nil, fmt.Errorf("ladder: history: %w", err)
	}
	defer tx.Rollback()
	rows, err := s.query(ctx, tx, `SELECT m.id, m.played_at, m.room, m.rated, m.recording, m.rounds
FROM match_players AS mp JOIN matches AS m ON m.id = mp.match_id
WHERE mp.player_key = ?
ORDER BY m.played_at DESC, m.id DESC LIMIT ?`, key[:], n)
	if err != nil {
		return nil, fmt.Errorf("ladder: history: %w", err)
	}
	var ms []MatchRecord
	for rows.Next() {
		var m MatchRecord
		var at int64
		var recording sql.NullString
		if err := rows.Scan(&m.ID, &at, &m.Room, &m.Rated, &recording, &m.Rounds); err != nil {
			rows.Close()
			return nil, fmt.Errorf("ladder: history: %w", err)
		}
		m.PlayedAt, m.Recording = time.UnixMilli(at).UTC(), recording.String
		ms = append(ms, m)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("ladder: history: %w", err)
	}
	for i := range ms {
		if ms[i].Players, err = s.matchPlayers(ctx, tx, ms[i].ID); err != nil {
			return nil, err
		}
	}
	return ms, nil
}

// matchPlayers returns the rows of match id, by slot.
func (s *Store) matchPlayers(ctx context.Context, tx *sql.Tx, id int64) ([]MatchPlayerRecord, error) {
	rows, err := s.query(ctx, tx, `SELECT player_key, name, slot, standing, round_wins, kills, deaths, shots, hits, seconds,
	rating_before, rating_after, rd_after
FROM match_players WHERE match_id = ? ORDER BY slot`, id)
	if err != nil {
		return nil, fmt.Errorf("ladder: history: %w", err)
	}
	defer rows.Close()
	var ps []MatchPlayerRecord
	for rows.Next() {
		var p MatchPlayerRecord
		var key []byte
		var before, after, rd sql.NullFloat64
		if err := rows.Scan(&key, &p.Name, &p.Slot, &p.Standing, &p.RoundWins, &p.Kills, &p.Deaths, &p.Shots, &p.Hits, &p.Seconds,
			&before, &after, &rd); err != nil {
			return nil, fmt.Errorf("ladder: history: %w", err)
		}
		if key != nil && len(key) != len(p.Key) {
			return nil, fmt.Errorf("ladder: history: a player key of %d bytes", len(key))
		}
		copy(p.Key[:], key)
		p.Rated = before.Valid
		p.RatingBefore, p.RatingAfter, p.RDAfter = before.Float64, after.Float64, rd.Float64
		ps = append(ps, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("ladder: history: %w", err)
	}
	return ps, nil
}
