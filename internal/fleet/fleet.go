// Package fleet is the servers' shared directory in Redis: each server
// of a fleet registers itself and its rooms under a lease it renews, and
// reads the others' records to build one lobby for the fleet.
//
// The layout, under the prefix "ttytanks:" in the URL's database:
//
//	ttytanks:server:ID   a server's record (JSON), with a lease (PX)
//	ttytanks:servers     the set of IDs ever seen; IDs whose record has
//	                     expired are removed by whoever reads them
//
// A record expires Lease after its last renewal, so a server that dies
// leaves every lobby within Lease plus one refresh. Redis is the only
// shared part: a server that cannot reach it keeps serving its own rooms
// (View.Lost) and rejoins by itself when it can again.
package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"net/url"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"
)

// Timings of a member: renew the lease every Renew, read the others every
// Refresh; a record lives Lease after its last renewal.
const (
	DefaultLease   = 2 * time.Second
	DefaultRenew   = time.Second
	DefaultRefresh = 500 * time.Millisecond
)

// Bounds on what a member reads: the servers of a view, and one record's
// size (255 rooms take about 50 KB).
const (
	MaxServers = 256
	MaxRecord  = 64 << 10
)

// keyPrefix starts every key the fleet writes.
const keyPrefix = "ttytanks:"

// Server is one server's record: who it is, where to reach it, how full
// it is and its rooms.
type Server struct {
	// ID is the server's public UDP address (HOST:PORT, an IP literal):
	// unique in the fleet, and what a client dials.
	ID string `json:"id"`
	// Name is the operator's name for it (serve --fleet-name).
	Name string `json:"name"`
	// SSH is its public SSH address, "" without SSH play.
	SSH string `json:"ssh,omitempty"`
	// Key is its Ed25519 public key (32 bytes), Fingerprint the key's
	// fingerprint as ttytanks prints it.
	Key         []byte `json:"key"`
	Fingerprint string `json:"fingerprint"`
	// Players counts its seated players and spectators, of Capacity.
	Players  int  `json:"players"`
	Capacity int  `json:"capacity"`
	Draining bool `json:"draining,omitempty"`
	// Rooms are its rooms; a private room has no name, only its code's
	// hash.
	Rooms []Room `json:"rooms"`
	// Renewed is when the record was last written (the writer's clock).
	Renewed time.Time `json:"renewed"`
}

// Room is one room of a Server's record.
type Room struct {
	Name string `json:"name,omitempty"`
	// CodeHash is a private room's join code hashed (hex); "" for a
	// public room.
	CodeHash    string `json:"code_hash,omitempty"`
	Players     int    `json:"players"`
	Seats       int    `json:"seats"`
	Bots        int    `json:"bots"`
	Spectators  int    `json:"spectators"`
	State       int    `json:"state"`
	Round       int    `json:"round"`
	RoundsToWin int    `json:"rounds_to_win"`
	Leader      string `json:"leader,omitempty"`
	LeaderScore int    `json:"leader_score"`
	Closing     bool   `json:"closing,omitempty"`
	Ranked      bool   `json:"ranked,omitempty"`
}

// View is the fleet as a member last read it.
type View struct {
	// Lost says Redis could not be reached at the last try: Servers is
	// empty and the server is on its own.
	Lost bool
	// Err is why, when Lost.
	Err error
	// Servers are the other servers with a live record, by ID.
	Servers []Server
	// At is when the view was read.
	At time.Time
}

// Config configures a Member.
type Config struct {
	// URL is the Redis URL: redis://[user:password@]HOST:PORT/DB, or
	// rediss:// for TLS, or unix:///path.
	URL string
	// Password, if set, overrides the URL's.
	Password string
	// Self returns this server's record as of now (ID, addresses and key
	// fixed; load, draining and rooms current). It is called from the
	// member's goroutine once per renewal.
	Self func() Server
	// OnView is told every view read (from the member's goroutine).
	OnView func(View)
	// Lease, Renew and Refresh default to DefaultLease, DefaultRenew and
	// DefaultRefresh.
	Lease, Renew, Refresh time.Duration
	Logger                *slog.Logger
}

// Member is one server's membership of the fleet: its lease renewed, the
// others read, until Close.
type Member struct {
	cfg    Config
	rdb    *redis.Client
	id     string
	stop   context.CancelFunc
	done   chan struct{}
	view   atomic.Pointer[View]
	ops    atomic.Uint64 // Redis commands sent
	lostAt atomic.Int64  // unix ns of the first failure of a run of them; 0 while connected
	// overfull: more servers were listed than MaxServers (logged once).
	overfull atomic.Bool
	once     sync.Once
}

// Join parses cfg.URL and starts the membership; it fails only on a bad
// URL or config: an unreachable Redis is retried for ever, and the view
// says Lost meanwhile.
func Join(cfg Config) (*Member, error) {
	if cfg.Self == nil {
		return nil, errors.New("fleet: no Self")
	}
	opt, err := parseURL(cfg.URL, cfg.Password)
	if err != nil {
		return nil, err
	}
	if cfg.Lease <= 0 {
		cfg.Lease = DefaultLease
	}
	if cfg.Renew <= 0 {
		cfg.Renew = DefaultRenew
	}
	if cfg.Refresh <= 0 {
		cfg.Refresh = DefaultRefresh
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	// A lost Redis must cost a try, not the loop: short timeouts, no
	// retries (the next refresh is the retry), RESP2 (no push
	// notifications to negotiate).
	opt.DialTimeout = 400 * time.Millisecond
	opt.ReadTimeout = 400 * time.Millisecond
	opt.WriteTimeout = 400 * time.Millisecond
	opt.MaxRetries = -1
	opt.PoolSize = 2
	opt.Protocol = 2
	opt.DisableIdentity = true
	opt.MaintNotificationsConfig = &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}
	id := cfg.Self().ID
	if _, err := netip.ParseAddrPort(id); err != nil {
		return nil, fmt.Errorf("fleet: the server's ID %q is not an IP:port", id)
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &Member{cfg: cfg, rdb: redis.NewClient(opt), id: id, stop: cancel, done: make(chan struct{})}
	m.view.Store(&View{Lost: true, Err: errors.New("not read yet")})
	go m.run(ctx)
	return m, nil
}

// parseURL parses a fleet's Redis URL; password, if set, replaces the
// URL's. Its error never shows the password.
func parseURL(u, password string) (*redis.Options, error) {
	opt, err := redis.ParseURL(u)
	if err != nil {
		// net/url's errors quote the whole URL, password and all: only
		// the reason is told.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("--fleet %s is not a Redis URL like redis://[user:password@]HOST:PORT/DB: %v", Redact(u), err)
	}
	if password != "" {
		opt.Password = password
	}
	return opt, nil
}

// NewClient returns a client of the fleet's Redis at URL u (password as
// for Config) for its shared data, such as the ladder: unlike the
// membership's, its commands may wait a second and are tried twice.
func NewClient(u, password string) (*redis.Client, error) {
	opt, err := parseURL(u, password)
	if err != nil {
		return nil, err
	}
	opt.DialTimeout, opt.ReadTimeout, opt.WriteTimeout = time.Second, time.Second, time.Second
	opt.MaxRetries = 1
	opt.PoolSize = 4
	opt.Protocol = 2
	opt.DisableIdentity = true
	opt.MaintNotificationsConfig = &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}
	return redis.NewClient(opt), nil
}

func init() { redis.SetLogger(quietLogger{}) }

// quietLogger drops go-redis's own log lines: the member logs what
// matters (lost, back) once.
type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...any) {}

// View returns the newest view of the fleet.
func (m *Member) View() View { return *m.view.Load() }

// Ops returns the Redis commands the member has sent.
func (m *Member) Ops() uint64 { return m.ops.Load() }

// Close deletes the server's record (so it leaves every lobby at their
// next refresh) and stops the membership.
func (m *Member) Close() {
	m.once.Do(func() {
		m.stop()
		<-m.done
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		m.ops.Add(2)
		pipe := m.rdb.TxPipeline()
		pipe.Del(ctx, serverKey(m.id))
		pipe.SRem(ctx, keyPrefix+"servers", m.id)
		if _, err := pipe.Exec(ctx); err != nil {
			m.cfg.Logger.Warn("fleet: could not remove this server's record; it expires by itself", "err", err, "within", m.cfg.Lease)
		}
		_ = m.rdb.Close()
	})
}

func serverKey(id string) string { return keyPrefix + "server:" + id }

func (m *Member) run(ctx context.Context) {
	defer close(m.done)
	var renewed time.Time
	t := time.NewTicker(m.cfg.Refresh)
	defer t.Stop()
	for {
		now := time.Now()
		renew := now.Sub(renewed) >= m.cfg.Renew-m.cfg.Refresh/2
		v, err := m.round(ctx, now, renew)
		if ctx.Err() != nil {
			return
		}
		if renew && err == nil {
			renewed = now
		}
		m.note(v, err)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// note stores a view and logs the moments the fleet is lost and found.
func (m *Member) note(v View, err error) {
	if err != nil {
		v = View{Lost: true, Err: err, At: v.At}
		if m.lostAt.CompareAndSwap(0, v.At.UnixNano()) {
			m.cfg.Logger.Warn("fleet lost: serving this server's rooms with a local lobby until Redis answers", "err", err)
		}
	} else if was := m.lostAt.Swap(0); was != 0 {
		m.cfg.Logger.Info("fleet found: one lobby again", "servers", len(v.Servers)+1, "after", v.At.Sub(time.Unix(0, was)).Round(time.Millisecond))
	}
	m.view.Store(&v)
	if m.cfg.OnView != nil {
		m.cfg.OnView(v)
	}
}

// round renews our record (if renew) and reads the others'.
func (m *Member) round(ctx context.Context, now time.Time, renew bool) (View, error) {
	v := View{At: now}
	ctx, cancel := context.WithTimeout(ctx, 800*time.Millisecond)
	defer cancel()
	pipe := m.rdb.Pipeline()
	if renew {
		self := m.cfg.Self()
		self.ID, self.Renewed = m.id, now.UTC()
		b, err := json.Marshal(&self)
		if err != nil {
			return v, err
		}
		pipe.Set(ctx, serverKey(m.id), b, m.cfg.Lease)
		pipe.SAdd(ctx, keyPrefix+"servers", m.id)
	}
	ids := pipe.SMembers(ctx, keyPrefix+"servers")
	n := pipe.Len()
	if _, err := pipe.Exec(ctx); err != nil {
		m.ops.Add(uint64(n))
		return v, err
	}
	m.ops.Add(uint64(n))
	var others []string
	for _, id := range ids.Val() {
		if id != m.id {
			others = append(others, id)
		}
	}
	if len(others) > MaxServers {
		// More than a fleet has: read the first MaxServers by ID, the same
		// ones on every server, and say so once.
		sort.Strings(others)
		others = others[:MaxServers]
		if m.overfull.CompareAndSwap(false, true) {
			m.cfg.Logger.Warn("fleet: more servers listed than a fleet holds; only the first are read", "listed", len(ids.Val()), "read", MaxServers)
		}
	}
	if len(others) == 0 {
		return v, nil
	}
	keys := make([]string, len(others))
	for i, id := range others {
		keys[i] = serverKey(id)
	}
	m.ops.Add(1)
	vals, err := m.rdb.MGet(ctx, keys...).Result()
	if err != nil {
		return v, err
	}
	var gone []any
	for i, val := range vals {
		s, ok := val.(string)
		if !ok {
			gone = append(gone, others[i]) // expired: its lease ran out
			continue
		}
		if len(s) > MaxRecord {
			m.cfg.Logger.Warn("fleet: a server's record is too large; it is ignored", "id", others[i], "bytes", len(s))
			continue
		}
		var rec Server
		if err := json.Unmarshal([]byte(s), &rec); err != nil || rec.ID != others[i] {
			m.cfg.Logger.Warn("fleet: a server's record does not parse; it is ignored", "id", others[i], "err", err)
			continue
		}
		v.Servers = append(v.Servers, rec)
	}
	if len(gone) > 0 {
		m.ops.Add(1)
		_ = m.rdb.SRem(ctx, keyPrefix+"servers", gone...).Err() // a race with a re-registration is repaired by its next SAdd
	}
	sort.Slice(v.Servers, func(i, j int) bool { return v.Servers[i].ID < v.Servers[j].ID })
	return v, nil
}

// Lost reports since when the fleet has been lost (zero while connected).
func (m *Member) Lost() time.Time {
	if ns := m.lostAt.Load(); ns != 0 {
		return time.Unix(0, ns)
	}
	return time.Time{}
}

// Redact returns url with its password hidden, for logs.
func Redact(url string) string {
	i := strings.Index(url, "://")
	at := strings.LastIndex(url, "@")
	if i < 0 || at < i {
		return url
	}
	cred := url[i+3 : at]
	if c := strings.Index(cred, ":"); c >= 0 {
		return url[:i+3] + cred[:c] + ":***" + url[at:]
	}
	return url
}
