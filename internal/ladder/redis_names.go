package ladder

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/redis/go-redis/v9"

	"ttytanks/internal/rating"
)

// claimant is one player a write reads and may change: their record as
// read and as the write leaves it.
type claimant struct {
	key       Key
	rec       PlayerRecord
	fold      string // rec.Name folded
	exists    bool   // a record, read or made
	wasFold   string // the folded name read, and
	wasRanked bool   // whether the player was in P ranked
	changed   bool   // rec is to be written
}

// claims is what a write reads of its players and of the names they
// take, under WATCH, and how it leaves them, to be written in its MULTI.
type claims struct {
	players []claimant
	// holders holds the HEX of the key holding each folded name read or
	// changed, "" for none, as the write leaves it; touched lists the
	// names whose holder changed, in the order they did.
	holders map[string]string
	touched []string
}

// readClaims reads in tx the records of keys and the holders of folds.
func (b *RedisBoard) readClaims(ctx context.Context, tx *redis.Tx, keys []Key, folds []string) (*claims, error) {
	recs := make([]*redis.SliceCmd, len(keys))
	holders := make([]*redis.StringCmd, len(folds))
	if _, err := tx.Pipelined(ctx, func(pipe redis.Pipeliner) error {
		for i, k := range keys {
			recs[i] = pipe.HMGet(ctx, b.playerKey(k), playerFields...)
		}
		for i, f := range folds {
			holders[i] = pipe.Get(ctx, b.nameKey(f))
		}
		return nil
	}); err != nil && !errors.Is(err, redis.Nil) {
		return nil, err
	}
	c := &claims{players: make([]claimant, len(keys)), holders: map[string]string{}}
	for i, f := range folds {
		h, err := holders[i].Result()
		if err != nil && !errors.Is(err, redis.Nil) {
			return nil, err
		}
		c.holders[f] = h
	}
	for i, k := range keys {
		vals, err := recs[i].Result()
		if err != nil {
			return nil, err
		}
		rec, fold, ok, err := parsePlayer(k, vals)
		if err != nil {
			return nil, err
		}
		c.players[i] = claimant{key: k, rec: rec, fold: fold, exists: ok, wasFold: fold, wasRanked: ok && rec.Matches > 0}
		if ok {
			c.holders[fold] = keyHex(k) // P name:FOLD holds the key of the player whose fold is FOLD
		}
	}
	return c, nil
}

// claim gives name to player j as Store.claimName does: a new record of
// a new rating created at at for a player without one, a rename for one
// whose name differs byte for byte; ErrNameTaken if another key holds
// it. name's fold must have been read.
func (c *claims) claim(j int, name string, at time.Time) error {
	p := &c.players[j]
	fold := foldName(name)
	if h := c.holders[fold]; h != "" && h != keyHex(p.key) {
		return ErrNameTaken{Name: name}
	}
	switch {
	case !p.exists:
		p.rec = PlayerRecord{Key: p.key, Name: name, CreatedAt: time.UnixMilli(at.UnixMilli()).UTC(), Rating: rating.New()}
		p.exists = true
	case p.rec.Name != name:
		c.hold(p.fold, "")
		p.rec.Name = name
	default:
		return nil
	}
	p.fold, p.changed = fold, true
	c.hold(fold, keyHex(p.key))
	return nil
}

// hold makes h the holder of fold.
func (c *claims) hold(fold, h string) {
	if c.holders[fold] == h {
		return
	}
	c.holders[fold] = h
	if !slices.Contains(c.touched, fold) {
		c.touched = append(c.touched, fold)
	}
}

// write queues on pipe the changes of c: the names' holders, the
// changed records and their places in P ranked.
func (c *claims) write(ctx context.Context, pipe redis.Pipeliner, b *RedisBoard) {
	for _, f := range c.touched {
		if h := c.holders[f]; h == "" {
			pipe.Del(ctx, b.nameKey(f))
		} else {
			pipe.Set(ctx, b.nameKey(f), h, 0)
		}
	}
	for _, p := range c.players {
		if !p.changed {
			continue
		}
		pipe.HSet(ctx, b.playerKey(p.key), playerValues(p.rec, p.fold)...)
		if p.wasRanked {
			pipe.ZRem(ctx, b.rankedKey(), rankedMember(p.wasFold, p.key))
		}
		if p.rec.Matches > 0 {
			pipe.ZAdd(ctx, b.rankedKey(), redis.Z{Score: -p.rec.Rating.R, Member: rankedMember(p.fold, p.key)})
		}
	}
}
