package agonestest

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"
)

// The operations of the API, as Call.Op names them.
const (
	OpReady           = "Ready"
	OpHealth          = "Health"
	OpShutdown        = "Shutdown"
	OpAllocate        = "Allocate"
	OpSetLabel        = "SetLabel"
	OpSetAnnotation   = "SetAnnotation"
	OpGameServer      = "GetGameServer"
	OpWatchGameServer = "WatchGameServer"
	OpGetCounter      = "GetCounter"
	OpUpdateCounter   = "UpdateCounter"
	OpGetList         = "GetList"
	OpUpdateList      = "UpdateList"
	OpAddListValue    = "AddListValue"
	OpRemoveListValue = "RemoveListValue"
)

// Call is one request the stand-in took.
type Call struct {
	At           time.Time
	Method, Path string
	// Op is the operation (OpReady, …); Name the Counter's or List's.
	Op, Name string
	// Body is the request's JSON body, decoded (nil if it had none).
	Body map[string]any
	// Status is the HTTP status answered.
	Status int
}

// Options configure a stand-in: the Counters and Lists its GameServer
// declares, by name, with their capacities.
type Options struct {
	Name     string // the GameServer's name (default "ttytanks-test")
	Counters map[string]int64
	Lists    map[string]int64
}

// Sidecar is a running stand-in. Its methods are safe for concurrent
// use.
type Sidecar struct {
	// URL is the gateway's base URL, http://127.0.0.1:PORT; Port its port.
	URL, Port string
	// Calls gets every call as it is taken (a full buffer drops them;
	// History keeps all).
	Calls <-chan Call

	t       testing.TB
	srv     *httptest.Server
	calls   chan Call
	closing chan struct{}

	mu       sync.Mutex
	history  []Call
	gs       gameServer
	failing  map[string]int // op → HTTP status to answer instead
	watchers map[chan struct{}]bool
	endWatch chan struct{} // closed by EndWatches
}

// New starts a stand-in on 127.0.0.1; it is closed when the test ends.
func New(t testing.TB, o Options) *Sidecar {
	t.Helper()
	if o.Name == "" {
		o.Name = "ttytanks-test"
	}
	calls := make(chan Call, 4096)
	s := &Sidecar{Calls: calls, t: t, calls: calls, closing: make(chan struct{}), failing: map[string]int{},
		watchers: map[chan struct{}]bool{}, endWatch: make(chan struct{})}
	s.gs = newGameServer(o)
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	_, s.Port, _ = net.SplitHostPort(s.srv.Listener.Addr().String())
	t.Cleanup(s.Close)
	return s
}

// Close ends the watch streams and stops the server.
func (s *Sidecar) Close() {
	s.mu.Lock()
	select {
	case <-s.closing:
		s.mu.Unlock()
		return
	default:
		close(s.closing)
	}
	s.mu.Unlock()
	s.srv.Close()
}

// History returns every call taken so far, in order.
func (s *Sidecar) History() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.history...)
}

// Next reads Calls until one of the operations ops arrives (any
// operation if none is given) and returns it; the test fails if none
// does within d.
func (s *Sidecar) Next(t testing.TB, d time.Duration, ops ...string) Call {
	t.Helper()
	return s.Await(t, d, fmt.Sprint(ops), func(c Call) bool { return len(ops) == 0 || slices.Contains(ops, c.Op) })
}

// Await reads Calls until one that match accepts arrives and returns
// it; the test fails, saying it waited for what, if none does within d.
func (s *Sidecar) Await(t testing.TB, d time.Duration, what string, match func(Call) bool) Call {
	t.Helper()
	timer := time.NewTimer(d)
	defer timer.Stop()
	for {
		select {
		case c := <-s.Calls:
			if match(c) {
				return c
			}
		case <-timer.C:
			t.Fatalf("agonestest: no call %s within %v", what, d)
			return Call{}
		}
	}
}

// Counter returns a Counter's count and capacity.
func (s *Sidecar) Counter(name string) (count, capacity int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.gs.counters[name]
	if c == nil {
		return 0, 0
	}
	return c.count, c.capacity
}

// List returns a List's values.
func (s *Sidecar) List(name string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.gs.lists[name]
	if l == nil {
		return nil
	}
	return append([]string(nil), l.values...)
}

// State returns the GameServer's state.
func (s *Sidecar) State() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gs.state
}

// Label returns the GameServer's label key (with its "agones.dev/sdk-"
// prefix).
func (s *Sidecar) Label(key string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gs.labels[key]
}

// SetState changes the GameServer's state, as Agones would (an
// allocation makes it Allocated), and tells the watchers.
func (s *Sidecar) SetState(state string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gs.state = state
	s.changed()
}

// EndWatches ends the watch streams open now, as a sidecar restart
// would.
func (s *Sidecar) EndWatches() {
	s.mu.Lock()
	defer s.mu.Unlock()
	close(s.endWatch)
	s.endWatch = make(chan struct{})
}

// Fail makes every call of op answer status (0: answer normally again).
func (s *Sidecar) Fail(op string, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if status == 0 {
		delete(s.failing, op)
		return
	}
	s.failing[op] = status
}

// changed tells the watchers the GameServer changed. Call it with s.mu
// held.
func (s *Sidecar) changed() {
	for w := range s.watchers {
		select {
		case w <- struct{}{}:
		default: // it has a change to send already
		}
	}
}

// record keeps a call and hands it to Calls.
func (s *Sidecar) record(c Call) {
	s.mu.Lock()
	s.history = append(s.history, c)
	s.mu.Unlock()
	select {
	case s.calls <- c:
	default:
	}
}

// answer writes v as the JSON answer with status 200.
func answer(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// grpcError writes an error answer as the gateway does: the HTTP status
// of the gRPC code, and the status as JSON.
func grpcError(w http.ResponseWriter, status, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"code": code, "message": msg, "details": []any{}})
}

// int64String is an int64 as the gateway writes one.
func int64String(n int64) string { return strconv.FormatInt(n, 10) }
