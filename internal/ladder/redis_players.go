package ladder

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// playerFields are the fields of a P player:HEX hash, in the order the
// scripts return them; the scripts take name and fold by their places,
// first and second.
var playerFields = []string{"name", "fold", "created", "r", "rd", "sigma",
	"matches", "wins", "round_wins", "kills", "deaths", "shots", "hits", "seconds"}

// withFields returns args followed by playerFields: a script's ARGV.
func withFields(args ...any) []any {
	for _, f := range playerFields {
		args = append(args, f)
	}
	return args
}

// playerValues returns the hash of p, whose name folds to fold, as
// HSET's field, value, … pairs, in playerFields' order.
func playerValues(p PlayerRecord, fold string) []any {
	return []any{"name", p.Name, "fold", fold, "created", p.CreatedAt.UnixMilli(),
		"r", p.Rating.R, "rd", p.Rating.RD, "sigma", p.Rating.Sigma,
		"matches", p.Matches, "wins", p.Wins, "round_wins", p.RoundWins, "kills", p.Kills,
		"deaths", p.Deaths, "shots", p.Shots, "hits", p.Hits, "seconds", p.SecondsPlayed}
}

// parsePlayer returns the record of the player of key from the values of
// playerFields as HMGET returns them, and its folded name; false if the
// hash has no name, that is no such player.
func parsePlayer(key Key, vals []any) (p PlayerRecord, fold string, ok bool, err error) {
	if len(vals) != len(playerFields) {
		return p, "", false, fmt.Errorf("%d fields of a player, want %d", len(vals), len(playerFields))
	}
	if vals[0] == nil {
		return p, "", false, nil
	}
	s := make([]string, len(vals))
	for i, v := range vals {
		var isString bool
		if s[i], isString = v.(string); !isString {
			return p, "", false, fmt.Errorf("player %s: field %s is %T", keyHex(key), playerFields[i], v)
		}
	}
	p.Key, p.Name, fold = key, s[0], s[1]
	var created int64
	ints := []*int{&p.Matches, &p.Wins, &p.RoundWins, &p.Kills, &p.Deaths, &p.Shots, &p.Hits, &p.SecondsPlayed}
	floats := []*float64{&p.Rating.R, &p.Rating.RD, &p.Rating.Sigma}
	if created, err = strconv.ParseInt(s[2], 10, 64); err != nil {
		return p, "", false, fmt.Errorf("player %s: created: %w", keyHex(key), err)
	}
	for i, f := range floats {
		if *f, err = strconv.ParseFloat(s[3+i], 64); err != nil {
			return p, "", false, fmt.Errorf("player %s: %s: %w", keyHex(key), playerFields[3+i], err)
		}
	}
	for i, n := range ints {
		if *n, err = strconv.Atoi(s[6+i]); err != nil {
			return p, "", false, fmt.Errorf("player %s: %s: %w", keyHex(key), playerFields[6+i], err)
		}
	}
	p.CreatedAt = time.UnixMilli(created).UTC()
	return p, fold, true, nil
}

// ClaimName gives name to the player of key, as Store.ClaimName does: a
// new record of a new rating for a key without one, a rename for a key
// with one; ErrNameTaken if another key holds the name, and an error
// wrapping ErrKey or ErrName for a zero key or a name no player may have.
func (b *RedisBoard) ClaimName(ctx context.Context, key Key, name string) error {
	if err := checkClaim(key, name); err != nil {
		return err
	}
	if err := b.open(); err != nil {
		return err
	}
	fold, at := foldName(name), b.now()
	return b.watch(ctx, "claim name", func(tx *redis.Tx) error {
		c, err := b.readClaims(ctx, tx, []Key{key}, []string{fold})
		if err != nil {
			return fmt.Errorf("ladder: claim name: %w", err)
		}
		if err := c.claim(0, name, at); err != nil || !c.players[0].changed {
			return err
		}
		if _, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			c.write(ctx, pipe, b)
			return nil
		}); err != nil {
			return fmt.Errorf("ladder: claim name: %w", err)
		}
		return nil
	}, b.playerKey(key), b.nameKey(fold))
}

// playerScript returns the fields of KEYS[1], a player's hash, named by
// ARGV[2:] (playerFields), with the player's Rank by KEYS[2], P ranked;
// ARGV[1] is the player's HEX. Nil if there is no such player.
var playerScript = redis.NewScript(`
local f = redis.call('HMGET', KEYS[1], unpack(ARGV, 2))
if not f[1] then return false end
local rank = 0
local score = redis.call('ZSCORE', KEYS[2], f[2] .. '\0' .. ARGV[1])
if score then rank = 1 + redis.call('ZCOUNT', KEYS[2], '-inf', '(' .. score) end
return {rank, f}
`)

// Player returns the record of the player of key, and false if there is
// none. Its Rank is 1 plus the number of ranked players of a strictly
// higher rating, 0 for a player of no rated match.
func (b *RedisBoard) Player(ctx context.Context, key Key) (PlayerRecord, bool, error) {
	if err := b.open(); err != nil {
		return PlayerRecord{}, false, err
	}
	res, err := playerScript.Run(ctx, b.rdb, []string{b.playerKey(key), b.rankedKey()},
		withFields(keyHex(key))...).Slice()
	switch {
	case errors.Is(err, redis.Nil):
		return PlayerRecord{}, false, nil
	case err != nil:
		return PlayerRecord{}, false, fmt.Errorf("ladder: player: %w", err)
	}
	rank, isInt := res[0].(int64)
	vals, isSlice := res[1].([]any)
	if len(res) != 2 || !isInt || !isSlice {
		return PlayerRecord{}, false, fmt.Errorf("ladder: player: a reply of %v", res)
	}
	p, _, ok, err := parsePlayer(key, vals)
	if err != nil {
		return PlayerRecord{}, false, fmt.Errorf("ladder: player: %w", err)
	}
	if !ok {
		return PlayerRecord{}, false, nil
	}
	p.Rank = int(rank)
	return p, true, nil
}

// topScript returns the players of places ARGV[1] to ARGV[2] (from 0) of
// KEYS[1], P ranked: first the number of players who rate above the
// first, then for each its HEX and the fields of its hash (keys ARGV[3]
// HEX) named by ARGV[4:] (playerFields). Empty if the page is.
var topScript = redis.NewScript(`
local page = redis.call('ZRANGE', KEYS[1], ARGV[1], ARGV[2], 'WITHSCORES')
if #page == 0 then return {} end
local out = {redis.call('ZCOUNT', KEYS[1], '-inf', '(' .. page[2])}
for i = 1, #page, 2 do
	local hex = string.sub(page[i], -64)
	out[#out + 1] = hex
	out[#out + 1] = redis.call('HMGET', ARGV[3] .. hex, unpack(ARGV, 4))
end
return out
`)

// Top returns at most n players of at least one rated match, from the
// offset-th best (0 the best): by rating, highest first, players of equal
// rating by name, folded. Players of equal rating share a Rank. An n
// above MaxTop is taken as MaxTop. The page is read in one script, so
// that it and its ranks are of one moment.
func (b *RedisBoard) Top(ctx context.Context, n, offset int) ([]PlayerRecord, error) {
	if n <= 0 {
		return nil, nil
	}
	if offset < 0 {
		return nil, fmt.Errorf("ladder: top: offset %d", offset)
	}
	if err := b.open(); err != nil {
		return nil, err
	}
	n = min(n, MaxTop)
	res, err := topScript.Run(ctx, b.rdb, []string{b.rankedKey()},
		withFields(offset, offset+n-1, b.playerPrefix())...).Slice()
	if err != nil {
		return nil, fmt.Errorf("ladder: top: %w", err)
	}
	if len(res) == 0 {
		return nil, nil
	}
	higher, isInt := res[0].(int64)
	if !isInt || len(res)%2 != 1 {
		return nil, fmt.Errorf("ladder: top: a reply of %d values", len(res))
	}
	top := make([]PlayerRecord, 0, len(res)/2)
	for i := 1; i < len(res); i += 2 {
		h, _ := res[i].(string)
		key, err := parseKeyHex(h)
		if err != nil {
			return nil, fmt.Errorf("ladder: top: %w", err)
		}
		vals, _ := res[i+1].([]any)
		p, _, ok, err := parsePlayer(key, vals)
		if err != nil {
			return nil, fmt.Errorf("ladder: top: %w", err)
		}
		if !ok {
			return nil, fmt.Errorf("ladder: top: ranked player %s has no record", h)
		}
		top = append(top, p)
	}
	rankPage(top, offset, int(higher))
	return top, nil
}

// Forget deletes the record of the player of key and, in the same
// transaction, takes their key and name off their rows of past matches
// (the name becomes ForgottenName); the matches and the other players'
// rows stay. It returns ErrNoPlayer if there is no such record.
//
// Rows recorded without the key (a keyed player's unrated matches from
// before they had a record) cannot be told apart and keep their name.
func (b *RedisBoard) Forget(ctx context.Context, key Key) error {
	if err := b.open(); err != nil {
		return err
	}
	pk, hk, h := b.playerKey(key), b.historyKey(key), keyHex(key)
	fail := func(err error) error { return fmt.Errorf("ladder: forget: %w", err) }
	return b.watch(ctx, "forget", func(tx *redis.Tx) error {
		fold, err := tx.HGet(ctx, pk, "fold").Result()
		if errors.Is(err, redis.Nil) {
			return ErrNoPlayer
		} else if err != nil {
			return fail(err)
		}
		members, err := tx.ZRange(ctx, hk, 0, -1).Result()
		if err != nil {
			return fail(err)
		}
		keys := make([]string, len(members))
		for i, m := range members {
			id, err := strconv.ParseInt(m, 10, 64)
			if err != nil {
				return fail(fmt.Errorf("history member %q: %w", m, err))
			}
			keys[i] = b.matchKey(id)
		}
		records := make([][]byte, len(keys))
		if len(keys) > 0 {
			// Watched before they are read: another Forget may be
			// rewriting another row of the same matches.
			if err := tx.Watch(ctx, keys...).Err(); err != nil {
				return fail(err)
			}
			vals, err := tx.MGet(ctx, keys...).Result()
			if err != nil {
				return fail(err)
			}
			for i, v := range vals {
				var m redisMatch
				if err := unmarshalMatch(v, &m); err != nil {
					return fail(fmt.Errorf("%s: %w", keys[i], err))
				}
				for j := range m.Players {
					if r := &m.Players[j]; r.Key == h {
						r.Key, r.Name = "", ForgottenName
					}
				}
				if records[i], err = json.Marshal(m); err != nil {
					return fail(err)
				}
			}
		}
		if _, err := tx.TxPipelined(ctx, func(pipe redis.Pipeliner) error {
			for i, k := range keys {
				pipe.Set(ctx, k, records[i], 0)
			}
			pipe.Del(ctx, pk, hk, b.nameKey(fold))
			pipe.ZRem(ctx, b.rankedKey(), rankedMember(fold, key))
			return nil
		}); err != nil {
			return fail(err)
		}
		return nil
	}, pk, hk)
}
