package ladder

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"ttytanks/internal/rating"
)

// Match is a finished match, as RecordMatch records it.
type Match struct {
	PlayedAt  time.Time // when it ended; the zero Time is now. Kept to the millisecond
	Room      string
	Rounds    int    // rounds played
	Recording string // the recording's file name; "" for none
	Players   []MatchPlayer
}

// MatchPlayer is one player's part in a Match. Counts are of the whole
// match.
type MatchPlayer struct {
	Key       Key // the zero Key for a bot or a guest without a key
	Name      string
	Slot      int // the player's seat, unique in the match
	RoundWins int
	Kills     int
	Deaths    int
	Shots     int
	Hits      int // at most Shots
	Seconds   int // seconds on the field
	// Forfeit marks a player who left the match before its end: they
	// stand below every player who stayed, whatever their round wins.
	Forfeit bool
}

// score is what ranks p in a match: round wins, below everyone's for a
// forfeit.
func (p MatchPlayer) score() int {
	if p.Forfeit {
		return -1
	}
	return p.RoundWins
}

// Outcome is what RecordMatch did with a match: its id and, for each of
// its players, their place and ratings, for a results screen.
type Outcome struct {
	Match   int64 // the match's id
	Rated   bool
	Players []PlayerOutcome // in the order of Match.Players
}

// PlayerOutcome is one player's line of an Outcome.
type PlayerOutcome struct {
	Name     string
	Standing int  // place by round wins: 1 the best, equal round wins the same place
	Rated    bool // false for a bot or a guest, and in an unrated match
	// Before and After are the player's ratings either side of the match,
	// zero unless Rated.
	Before, After rating.Rating
}

// RecordMatch records m and returns its Outcome, all in one transaction:
// it records everything or nothing.
//
// A match of two or more players with a key (bots and guests have none)
// is rated: each keyed player's record is made or renamed to the name
// played under, their rating is updated by rating.Config.UpdateMatch
// against the others' with their round wins as standings, and the match's
// counts are added to their stats. If another key holds a keyed player's
// name, RecordMatch returns ErrNameTaken and records nothing; ClaimName at
// join time keeps that from happening. Bots and guests are recorded in
// the match, unrated. In an unrated match nobody's record changes; a
// keyed player's rows carry their key only if they have a record.
//
// RecordMatch returns an error wrapping ErrMatch or ErrName for an m it
// cannot take. The order of m.Players changes no rating.
func (s *Store) RecordMatch(ctx context.Context, m Match) (Outcome, error) {
	if err := checkMatch(m); err != nil {
		return Outcome{}, err
	}
	if m.PlayedAt.IsZero() {
		m.PlayedAt = s.now()
	}
	at := m.PlayedAt.UnixMilli()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Outcome{}, fmt.Errorf("ladder: record match: %w", err)
	}
	defer tx.Rollback()

	out, keyed := newOutcome(m)
	known := make([]bool, len(m.Players)) // the row carries the key
	if out.Rated {
		before := make([]rating.Rating, len(keyed))
		for j, i := range keyed {
			p := m.Players[i]
			if err := s.claimName(ctx, tx, p.Key, p.Name, at); err != nil {
				return Outcome{}, err
			}
			r, err := s.playerRating(ctx, tx, p.Key)
			if err != nil {
				return Outcome{}, err
			}
			before[j], known[i] = r, true
		}
		if err := rate(s.cfg, m, &out, keyed, before); err != nil {
			return Outcome{}, err
		}
	} else {
		for _, i := range keyed {
			err := s.scanRow(ctx, tx, `SELECT 1 FROM players WHERE key = ?`, []any{m.Players[i].Key[:]}, new(int))
			switch {
			case err == nil:
				known[i] = true
			case !errors.Is(err, sql.ErrNoRows):
				return Outcome{}, fmt.Errorf("ladder: record match: %w", err)
			}
		}
	}

	var recording any
	if m.Recording != "" {
		recording = m.Recording
	}
	res, err := s.exec(ctx, tx, `INSERT INTO matches (played_at, room, rated, recording, rounds) VALUES (?, ?, ?, ?, ?)`,
		at, m.Room, out.Rated, recording, m.Rounds)
	if err != nil {
		return Outcome{}, fmt.Errorf("ladder: record match: %w", err)
	}
	if out.Match, err = res.LastInsertId(); err != nil {
		return Outcome{}, fmt.Errorf("ladder: record match: %w", err)
	}
	for i, p := range m.Players {
		row := matchRow(p, out.Players[i], known[i])
		var key, before, after, rdAfter any
		if known[i] {
			key = p.Key[:]
		}
		if row.Rated {
			before, after, rdAfter = row.RatingBefore, row.RatingAfter, row.RDAfter
		}
		if _, err := s.exec(ctx, tx, `INSERT INTO match_players
(match_id, player_key, name, slot, standing, round_wins, kills, deaths, shots, hits, seconds, rating_before, rating_after, rd_after)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			out.Match, key, p.Name, p.Slot, row.Standing, p.RoundWins, p.Kills, p.Deaths, p.Shots, p.Hits, p.Seconds, before, after, rdAfter); err != nil {
			return Outcome{}, fmt.Errorf("ladder: record match: %w", err)
		}
		if !row.Rated {
			continue
		}
		o := out.Players[i]
		if _, err := s.exec(ctx, tx, `UPDATE players SET
rating = ?, rd = ?, sigma = ?, matches = matches + 1, wins = wins + ?, round_wins = round_wins + ?,
kills = kills + ?, deaths = deaths + ?, shots = shots + ?, hits = hits + ?, seconds_played = seconds_played + ?
WHERE key = ?`,
			o.After.R, o.After.RD, o.After.Sigma, won(m.Players, i), p.RoundWins,
			p.Kills, p.Deaths, p.Shots, p.Hits, p.Seconds, p.Key[:]); err != nil {
			return Outcome{}, fmt.Errorf("ladder: record match: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return Outcome{}, fmt.Errorf("ladder: record match: %w", err)
	}
	return out, nil
}

// checkMatch returns an error wrapping ErrMatch, ErrName or ErrKey unless
// m can be recorded.
func checkMatch(m Match) error {
	if len(m.Players) == 0 {
		return fmt.Errorf("%w: no players", ErrMatch)
	}
	if m.Rounds < 0 {
		return fmt.Errorf("%w: %d rounds", ErrMatch, m.Rounds)
	}
	for i, p := range m.Players {
		if p.Key.IsZero() && !shownName(p.Name) || !p.Key.IsZero() && !validName(p.Name) {
			return fmt.Errorf("%w: player %d: %q", ErrName, i, p.Name)
		}
		if min(p.Slot, p.RoundWins, p.Kills, p.Deaths, p.Shots, p.Hits, p.Seconds) < 0 {
			return fmt.Errorf("%w: player %d (%s): a negative count", ErrMatch, i, p.Name)
		}
		if p.Hits > p.Shots {
			return fmt.Errorf("%w: player %d (%s): %d hits of %d shots", ErrMatch, i, p.Name, p.Hits, p.Shots)
		}
		for _, q := range m.Players[:i] {
			if q.Slot == p.Slot {
				return fmt.Errorf("%w: slot %d twice", ErrMatch, p.Slot)
			}
			if !p.Key.IsZero() && q.Key == p.Key {
				return fmt.Errorf("%w: %s and %s have one key", ErrMatch, q.Name, p.Name)
			}
		}
	}
	return nil
}

// newOutcome returns m's Outcome before any rating (each player's name
// and standing, Rated if two or more players have a key) and the indexes
// in m.Players of its keyed players.
func newOutcome(m Match) (Outcome, []int) {
	out := Outcome{Players: make([]PlayerOutcome, len(m.Players))}
	keyed := make([]int, 0, len(m.Players))
	for i, p := range m.Players {
		out.Players[i] = PlayerOutcome{Name: p.Name, Standing: standing(m.Players, i)}
		if !p.Key.IsZero() {
			keyed = append(keyed, i)
		}
	}
	out.Rated = len(keyed) >= 2
	return out, keyed
}

// rate rates the keyed players of m, whose ratings before it are before
// (before[j] is player keyed[j]'s), by cfg.UpdateMatch with their round
// wins as standings, and marks them rated in out with both ratings.
func rate(cfg rating.Config, m Match, out *Outcome, keyed []int, before []rating.Rating) error {
	wins := make([]int, len(keyed))
	for j, i := range keyed {
		wins[j] = m.Players[i].score()
	}
	after, err := cfg.UpdateMatch(before, wins)
	if err != nil {
		return fmt.Errorf("ladder: record match: %w", err)
	}
	for j, i := range keyed {
		o := &out.Players[i]
		o.Rated, o.Before, o.After = true, before[j], after[j]
	}
	return nil
}

// matchRow returns the row a match records of p, whose line of the
// Outcome is o: with p's key if known (the player has a record), and the
// ratings if o is rated.
func matchRow(p MatchPlayer, o PlayerOutcome, known bool) MatchPlayerRecord {
	row := MatchPlayerRecord{MatchPlayer: p, Standing: o.Standing, Rated: o.Rated}
	if !known {
		row.Key = Key{}
	}
	if o.Rated {
		row.RatingBefore, row.RatingAfter, row.RDAfter = o.Before.R, o.After.R, o.After.RD
	}
	return row
}

// addMatch adds to r player i's part in the rated match of ps, after
// which their rating is after.
func (r *PlayerRecord) addMatch(ps []MatchPlayer, i int, after rating.Rating) {
	p := ps[i]
	r.Rating = after
	r.Matches++
	r.Wins += won(ps, i)
	r.RoundWins += p.RoundWins
	r.Kills += p.Kills
	r.Deaths += p.Deaths
	r.Shots += p.Shots
	r.Hits += p.Hits
	r.SecondsPlayed += p.Seconds
}

// standing returns player i's place in ps by round wins: 1 plus the
// number of players with more.
func standing(ps []MatchPlayer, i int) int {
	n := 1
	for _, q := range ps {
		if q.score() > ps[i].score() {
			n++
		}
	}
	return n
}

// won returns 1 if player i has more round wins than every other player
// of ps, bots and guests included, and 0 otherwise.
func won(ps []MatchPlayer, i int) int {
	for j, q := range ps {
		if ps[i].Forfeit || (j != i && q.score() >= ps[i].score()) {
			return 0
		}
	}
	return 1
}

// playerRating returns the rating of the player of key.
func (s *Store) playerRating(ctx context.Context, tx *sql.Tx, key Key) (rating.Rating, error) {
	var r rating.Rating
	err := s.scanRow(ctx, tx, `SELECT rating, rd, sigma FROM players WHERE key = ?`, []any{key[:]}, &r.R, &r.RD, &r.Sigma)
	if err != nil {
		return r, fmt.Errorf("ladder: rating: %w", err)
	}
	return r, nil
}
