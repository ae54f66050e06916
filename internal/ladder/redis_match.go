package ladder

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/redis/go-redis/v9"

	"ttytanks/internal/rating"
)

// redisMatch is a match as a RedisBoard keeps it, at P match:ID.
type redisMatch struct {
	ID        int64      `json:"id"`
	PlayedAt  int64      `json:"played_at"` // Unix ms
	Room      string     `json:"room"`
	Rated     bool       `json:"rated"`
	Recording string     `json:"recording,omitempty"`
	Rounds    int        `json:"rounds"`
	Players   []redisRow `json:"players"` // by slot
}

// redisRow is one player's row of a redisMatch: a MatchPlayerRecord.
type redisRow struct {
	Key          string  `json:"key,omitempty"` // HEX; "" as MatchPlayerRecord's zero Key
	Name         string  `json:"name"`
	Slot         int     `json:"slot"`
	Standing     int     `json:"standing"`
	RoundWins    int     `json:"round_wins"`
	Kills        int     `json:"kills"`
	Deaths       int     `json:"deaths"`
	Shots        int     `json:"shots"`
	Hits         int     `json:"hits"`
	Seconds      int     `json:"seconds"`
	Rated        bool    `json:"rated,omitempty"`
	RatingBefore float64 `json:"rating_before,omitempty"`
	RatingAfter  float64 `json:"rating_after,omitempty"`
	RDAfter      float64 `json:"rd_after,omitempty"`
}

// newRedisMatch returns match id, m, played at at (Unix ms), as out says
// it went, with the keys of the players known (who have a record).
func newRedisMatch(id int64, m Match, at int64, out Outcome, known []bool) redisMatch {
	r := redisMatch{ID: id, PlayedAt: at, Room: m.Room, Rated: out.Rated, Recording: m.Recording, Rounds: m.Rounds}
	for i, p := range m.Players {
		row := matchRow(p, out.Players[i], known[i])
		var key string
		if !row.Key.IsZero() {
			key = keyHex(row.Key)
		}
		r.Players = append(r.Players, redisRow{
			Key: key, Name: p.Name, Slot: p.Slot, Standing: row.Standing, RoundWins: p.RoundWins,
			Kills: p.Kills, Deaths: p.Deaths, Shots: p.Shots, Hits: p.Hits, Seconds: p.Seconds,
			Rated: row.Rated, RatingBefore: row.RatingBefore, RatingAfter: row.RatingAfter, RDAfter: row.RDAfter,
		})
	}
	slices.SortFunc(r.Players, func(a, b redisRow) int { return a.Slot - b.Slot })
	return r
}

// unmarshalMatch decodes v, a P match:ID as MGET returns it, into m.
func unmarshalMatch(v any, m *redisMatch) error {
	s, ok := v.(string)
	if !ok {
		return errors.New("no such match")
	}
	return json.Unmarshal([]byte(s), m)
}

// record returns m as History returns it.
func (m redisMatch) record() (MatchRecord, error) {
	r := MatchRecord{ID: m.ID, PlayedAt: time.UnixMilli(m.PlayedAt).UTC(), Room: m.Room, Rated: m.Rated,
		Recording: m.Recording, Rounds: m.Rounds, Players: make([]MatchPlayerRecord, len(m.Players))}
	for i, p := range m.Players {
		var key Key
		if p.Key != "" {
			var err error
			if key, err = parseKeyHex(p.Key); err != nil {
				return r, fmt.Errorf("match %d: %w", m.ID, err)
			}
		}
		r.Players[i] = MatchPlayerRecord{
			MatchPlayer: MatchPlayer{Key: key, Name: p.Name, Slot: p.Slot, RoundWins: p.RoundWins,
				Kills: p.Kills, Deaths: p.Deaths, Shots: p.Shots, Hits: p.Hits, Seconds: p.Seconds},
			Standing: p.Standing, Rated: p.Rated,
			RatingBefore: p.RatingBefore, RatingAfter: p.RatingAfter, RDAfter: p.RDAfter,
		}
	}
	return r, nil
}

// RecordMatch records m and returns its Outcome, as Store.RecordMatch
// does, in one transaction: all of it or nothing, whatever other servers
// write meanwhile.
//
// A match of two or more players with a key is rated: each keyed
// player's record is made or renamed to the name played under, their
// rating updated by rating.Config.UpdateMatch against the others' with
// their round wins as standings, and the match's counts added to their
// stats. If another key holds a keyed player's name, RecordMatch returns
// ErrNameTaken and records nothing. Bots and guests are recorded in the
// match, unrated. In an unrated match nobody's record changes; a keyed
// player's rows carry their key only if they have a record.
//
// RecordMatch returns an error wrapping ErrMatch or ErrName for an m it
// cannot take, and ErrContended if other writers kept changing its
// players' records. Match ids rise as they are taken, before the
// commit: a write that fails after taking one leaves a gap.
func (b *RedisBoard) RecordMatch(ctx context.Context, m Match) (Outcome, error) {
	if err := checkMatch(m); err != nil {
		return Outcome{}, err
	}
	if err := b.open(); err != nil {
		return Outcome{}, err
	}
	if m.PlayedAt.IsZero() {
		m.PlayedAt = b.now()
	}
	at := m.PlayedAt.UnixMilli()
	first, keyed := newOutcome(m)
	keys := make([]Key, len(keyed))
	var folds, watched []string
	for j, i := range keyed {
		keys[j] = m.Players[i].Key
		watched = append(watched, b.playerKey(keys[j]))
	}
	if first.Rated {
		for _, i := range keyed {
			f := foldName(m.Players[i].Name)
			folds = append(folds, f)
			watched = append(watched, b.nameKey(f))
		}
	}
	fail := func(err error) error { return fmt.Errorf("ladder: record match: %w", err) }
	var id int64 // taken by the first try that gets so far, kept by the rest
	var out Outcome
	err := b.watch(ctx, "record match", func(tx *redis.Tx) error {
		out = first
		out.Players = slices.Clone(first.Players)
		c, err := b.readClaims(ctx, tx, keys, folds)
		if err != nil {
			return fail(err)
		}
		known := make([]bool, len(m.Players)) // the row carries the key
		if out.Rated {
			before := make([]rating.Rating, len(keyed))
			for j, i := range keyed {
				if err := c.claim(j, m.Players[i].Name, m.PlayedAt); err != nil {
					return err
				}
				before[j], known[i] = c.players[j].rec.Rating, true
			}
			if err := rate(b.cfg, m, &out, keyed, before); err != nil {
				return err
			}
			for j, i := range keyed {
				c.players[j].rec.addMatch(m.Players, i, out.Players[i].After)
				c.players[j].changed = true
			}
		} else {
			for j, i := range keyed {
				known[i] = c.players[j].exists
			}
		}
		if id == 0 {
			if id, err = tx.Incr(ctx, b.matchIDKey()).Result(); err != nil {
				return fail(err)
			}
		}
		out.Match = id
		record, err := json.Marshal(newRedisMatch(id, m, at, out, known))
		if err != nil {
			return fail(err)
		}
		if _, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			c.write(ctx, pipe, b)
			pipe.Set(ctx, b.matchKey(id), record, 0)
			for i, p := range m.Players {
				if known[i] {
					pipe.ZAdd(ctx, b.historyKey(p.Key), redis.Z{Score: float64(at), Member: historyMember(id)})
				}
			}
			return nil
		}); err != nil {
			return fail(err)
		}
		return nil
	}, watched...)
	if err != nil {
		return Outcome{}, err
	}
	return out, nil
}

// historyScript returns the matches (P match:ID, ARGV[2] the prefix of
// their keys) of places 0 to ARGV[1] of KEYS[1], a P history:HEX, latest
// first.
var historyScript = redis.NewScript(`
local ids = redis.call('ZREVRANGE', KEYS[1], 0, ARGV[1])
if #ids == 0 then return {} end
local keys = {}
for i, id in ipairs(ids) do keys[i] = ARGV[2] .. string.gsub(id, '^0+', '') end
return redis.call('MGET', unpack(keys))
`)

// History returns the last n matches the player of key played (rated or
// not), the latest first: by PlayedAt, matches of one time by the order
// their ids were taken in. An n above MaxHistory is taken as MaxHistory.
func (b *RedisBoard) History(ctx context.Context, key Key, n int) ([]MatchRecord, error) {
	if n <= 0 {
		return nil, nil
	}
	if err := b.open(); err != nil {
		return nil, err
	}
	n = min(n, MaxHistory)
	res, err := historyScript.Run(ctx, b.rdb, []string{b.historyKey(key)}, n-1, b.matchPrefix()).Slice()
	if err != nil {
		return nil, fmt.Errorf("ladder: history: %w", err)
	}
	var ms []MatchRecord
	for _, v := range res {
		var m redisMatch
		if err := unmarshalMatch(v, &m); err != nil {
			return nil, fmt.Errorf("ladder: history: %w", err)
		}
		r, err := m.record()
		if err != nil {
			return nil, fmt.Errorf("ladder: history: %w", err)
		}
		ms = append(ms, r)
	}
	return ms, nil
}
