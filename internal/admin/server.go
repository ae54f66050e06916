package admin

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/common/expfmt"

	"ttytanks/netcode"
)

// Figures is one sample of what the admin listener reports: the game
// server's figures and those of the parts around it.
type Figures struct {
	Server netcode.ServerStats
	// SSHSessions counts the SSH sessions open (0 without --ssh).
	SSHSessions int
	// RecordingsWritten and RecordingsFailed count the match recordings
	// written and those that stopped on an error (0 without --record).
	RecordingsWritten, RecordingsFailed uint64
	// Fleet is set for a member of a fleet; RedisCommands counts the
	// commands it sent to the fleet's Redis.
	Fleet         bool
	RedisCommands uint64
}

// Config configures a Server.
type Config struct {
	// Sample takes the figures. The sampler calls it from one goroutine
	// every Every; it may wait for the game loop (the driver's Do), never
	// the requests.
	Sample func() Figures
	// Every is the time between samples (default a second): the age of
	// the figures a scrape sees, at most.
	Every time.Duration
	// LiveWithin is how old the newest sample may be, its ticks still
	// advancing, for /livez to say the loop ticks (default 5 s).
	LiveWithin time.Duration
	// Logger receives the listener's errors (nil: discarded).
	Logger *slog.Logger
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

// Server is the admin listener: /metrics, /livez and /readyz, served from
// the newest sample. Its methods are safe for concurrent use.
type Server struct {
	cfg      Config
	reg      *prometheus.Registry
	figs     figuresCollector
	http     *http.Server
	draining atomic.Bool
	// refreshMu makes Refresh one at a time.
	refreshMu sync.Mutex
	// last is the newest sample as the requests see it.
	last atomic.Pointer[sample]
}

// sample is one sample, its scrape encoded once for every request.
type sample struct {
	figs   Figures
	at     time.Time
	scrape []byte
	// gzipped is scrape compressed, once, for the scrapers that accept
	// gzip (Prometheus does): a fifth of the bytes to write each time.
	gzipped []byte
	// advanced reports whether the server's ticks grew since the sample
	// before.
	advanced bool
}

// scrapeType is the Content-Type of /metrics: the text format.
var scrapeType = string(expfmt.NewFormat(expfmt.TypeTextPlain))

// New returns an admin Server; Run starts its sampler, Serve its
// listener.
func New(cfg Config) (*Server, error) {
	if cfg.Sample == nil {
		return nil, errors.New("admin: no Sample")
	}
	if cfg.Every <= 0 {
		cfg.Every = time.Second
	}
	if cfg.LiveWithin <= 0 {
		cfg.LiveWithin = 5 * time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	s := &Server{cfg: cfg, reg: prometheus.NewRegistry()}
	if err := s.reg.Register(&s.figs); err != nil {
		return nil, err
	}
	s.reg.MustRegister(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), collectors.NewGoCollector())
	mux := http.NewServeMux()
	mux.HandleFunc("GET /metrics", s.metrics)
	mux.HandleFunc("GET /livez", s.livez)
	mux.HandleFunc("GET /readyz", s.readyz)
	s.http = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
		WriteTimeout: 10 * time.Second, IdleTimeout: time.Minute, MaxHeaderBytes: 8 << 10,
		ErrorLog: slog.NewLogLogger(cfg.Logger.Handler(), slog.LevelWarn)}
	return s, nil
}

// Handler returns the Server's HTTP handler.
func (s *Server) Handler() http.Handler { return s.http.Handler }

// Serve serves ln until Close; it returns nil after Close.
func (s *Server) Serve(ln net.Listener) error {
	if err := s.http.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Close stops the listener and the requests in flight.
func (s *Server) Close() error { return s.http.Close() }

// Run samples the figures now and every Every until ctx ends.
func (s *Server) Run(ctx context.Context) {
	t := time.NewTicker(s.cfg.Every)
	defer t.Stop()
	for {
		s.Refresh()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Refresh takes a sample now and encodes its scrape.
func (s *Server) Refresh() {
	s.refreshMu.Lock()
	defer s.refreshMu.Unlock()
	f := s.cfg.Sample()
	next := &sample{figs: f, at: s.cfg.Now()}
	if prev := s.last.Load(); prev != nil {
		next.advanced = f.Server.Ticks > prev.figs.Server.Ticks
	}
	s.figs.set(&next.figs)
	var buf bytes.Buffer
	if err := s.encode(&buf); err != nil {
		s.cfg.Logger.Error("admin: encoding the metrics", "err", err)
	}
	next.scrape = buf.Bytes()
	var z bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&z, gzip.BestSpeed)
	_, _ = zw.Write(next.scrape)
	if zw.Close() == nil {
		next.gzipped = z.Bytes()
	}
	s.last.Store(next)
}

// encode writes the registry's families in the text format.
func (s *Server) encode(buf *bytes.Buffer) error {
	mfs, err := s.reg.Gather()
	enc := expfmt.NewEncoder(buf, expfmt.NewFormat(expfmt.TypeTextPlain))
	for _, mf := range mfs {
		if e := enc.Encode(mf); e != nil && err == nil {
			err = e
		}
	}
	return err
}

// metrics serves the newest sample's scrape, gzipped to a scraper that
// accepts it; either was encoded once, by Refresh.
func (s *Server) metrics(w http.ResponseWriter, r *http.Request) {
	p := s.last.Load()
	if p == nil {
		http.Error(w, "no sample yet", http.StatusServiceUnavailable)
		return
	}
	h := w.Header()
	h.Set("Content-Type", scrapeType)
	h.Set("Vary", "Accept-Encoding")
	body := p.scrape
	if p.gzipped != nil && acceptsGzip(r.Header.Get("Accept-Encoding")) {
		body = p.gzipped
		h.Set("Content-Encoding", "gzip")
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	_, _ = w.Write(body)
}

// acceptsGzip reports whether an Accept-Encoding header value accepts
// gzip: named (or "*") with no q=0.
func acceptsGzip(v string) bool {
	for part := range strings.SplitSeq(v, ",") {
		name, params, _ := strings.Cut(part, ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name != "gzip" && name != "*" {
			continue
		}
		q := strings.ReplaceAll(strings.ToLower(params), " ", "")
		return !strings.HasPrefix(q, "q=0") || strings.HasPrefix(q, "q=0.") && strings.Trim(q[4:], "0") != ""
	}
	return false
}
