package agonestest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
)

// gameServer is the stand-in's GameServer: its state, labels, Counters
// and Lists.
type gameServer struct {
	name     string
	state    string
	labels   map[string]string
	counters map[string]*counter
	lists    map[string]*list
}

type counter struct{ count, capacity int64 }

type list struct {
	capacity int64
	values   []string
}

// newGameServer returns a Scheduled GameServer with o's Counters (at 0)
// and Lists (empty).
func newGameServer(o Options) gameServer {
	g := gameServer{name: o.Name, state: "Scheduled", labels: map[string]string{},
		counters: map[string]*counter{}, lists: map[string]*list{}}
	for name, capacity := range o.Counters {
		g.counters[name] = &counter{capacity: capacity}
	}
	for name, capacity := range o.Lists {
		g.lists[name] = &list{capacity: capacity}
	}
	return g
}

// view is the GameServer as the gateway writes it.
func (g *gameServer) view() map[string]any {
	counters, lists := map[string]any{}, map[string]any{}
	for name, c := range g.counters {
		counters[name] = map[string]any{"count": int64String(c.count), "capacity": int64String(c.capacity)}
	}
	for name, l := range g.lists {
		lists[name] = map[string]any{"capacity": int64String(l.capacity), "values": append([]string{}, l.values...)}
	}
	return map[string]any{
		"object_meta": map[string]any{"name": g.name, "namespace": "default", "uid": "1234", "labels": g.labels, "annotations": map[string]string{}},
		"status": map[string]any{"state": g.state, "address": "127.0.0.1", "ports": []any{map[string]any{"name": "game", "port": 7777}},
			"counters": counters, "lists": lists},
	}
}

// apply carries out a checked call on the GameServer and returns the
// status and answer, or the sidecar's error message. Call it with s.mu
// held.
func (s *Sidecar) apply(op, name string, b map[string]any) (int, any, string) {
	g := &s.gs
	empty := map[string]any{}
	switch op {
	case OpReady, OpShutdown, OpAllocate:
		g.state = map[string]string{OpReady: "Ready", OpShutdown: "Shutdown", OpAllocate: "Allocated"}[op]
		s.changed()
		return http.StatusOK, empty, ""
	case OpHealth, OpSetAnnotation:
		return http.StatusOK, empty, ""
	case OpSetLabel:
		key, value := b["key"].(string), b["value"].(string)
		if !validLabel(key, value) {
			// The sidecar takes it and its update of the GameServer fails.
			s.t.Errorf("agonestest: label %q=%q is not a Kubernetes label with the prefix agones.dev/sdk-", key, value)
		}
		g.labels["agones.dev/sdk-"+key] = value
		s.changed()
		return http.StatusOK, empty, ""
	case OpGameServer:
		return http.StatusOK, g.view(), ""
	case OpGetCounter, OpUpdateCounter:
		c := g.counters[name]
		if c == nil {
			return http.StatusInternalServerError, nil, "counter not found: " + name
		}
		if op == OpUpdateCounter {
			if msg := c.update(b); msg != "" {
				return http.StatusInternalServerError, nil, msg
			}
			s.changed()
		}
		return http.StatusOK, map[string]any{"name": name, "count": int64String(c.count), "capacity": int64String(c.capacity)}, ""
	}
	l := g.lists[name]
	if l == nil {
		return http.StatusInternalServerError, nil, "list not found: " + name
	}
	switch op {
	case OpUpdateList:
		if v, ok := b["capacity"]; ok {
			l.capacity, _ = int64Of(v)
		}
		if v, ok := b["values"]; ok {
			vals, _ := stringsOf(v)
			l.values = dedup(vals)
		}
		if int64(len(l.values)) > l.capacity {
			l.values = l.values[:l.capacity]
		}
	case OpAddListValue:
		v := b["value"].(string)
		if int64(len(l.values)) >= l.capacity {
			return http.StatusInternalServerError, nil, fmt.Sprintf("out of range. No available capacity. Current Capacity: %d, List Size: %d", l.capacity, len(l.values))
		}
		if slices.Contains(l.values, v) {
			return http.StatusInternalServerError, nil, fmt.Sprintf("already exists. Value: %s already in List: %s", v, name)
		}
		l.values = append(l.values, v)
	case OpRemoveListValue:
		v := b["value"].(string)
		i := slices.Index(l.values, v)
		if i < 0 {
			return http.StatusInternalServerError, nil, fmt.Sprintf("not found. Value: %s not found in List: %s", v, name)
		}
		l.values = slices.Delete(l.values, i, i+1)
	}
	if op != OpGetList {
		s.changed()
	}
	return http.StatusOK, map[string]any{"name": name, "capacity": int64String(l.capacity), "values": append([]string{}, l.values...)}, ""
}

// update applies an UpdateCounter body as the sidecar does: the
// capacity, then the count, then the diff, each checked against the
// range 0..capacity. It returns the sidecar's message if it refuses.
func (c *counter) update(b map[string]any) string {
	capacity, count := c.capacity, c.count
	if v, ok := b["capacity"]; ok {
		capacity, _ = int64Of(v)
		if capacity < 0 {
			return fmt.Sprintf("out of range. Capacity must be greater than or equal to 0. Found Capacity: %d", capacity)
		}
	}
	if v, ok := b["count"]; ok {
		count, _ = int64Of(v)
	}
	if v, ok := b["countDiff"]; ok {
		d, _ := int64Of(v)
		count += d
	}
	if count < 0 || count > capacity {
		return fmt.Sprintf("out of range. Count must be within range [0,Capacity]. Found Count: %d, Capacity: %d", count, capacity)
	}
	c.capacity, c.count = capacity, count
	return ""
}

// watch streams the GameServer to one watcher: now, then at each change,
// one {"result": GameServer} a line, until the watcher goes, EndWatches
// or Close.
func (s *Sidecar) watch(w http.ResponseWriter, r *http.Request) {
	ch := make(chan struct{}, 1)
	s.mu.Lock()
	s.watchers[ch] = true
	end := s.endWatch
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.watchers, ch)
		s.mu.Unlock()
	}()
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w) // one object and a newline each
	fl, _ := w.(http.Flusher)
	send := func() bool {
		s.mu.Lock()
		v := s.gs.view()
		s.mu.Unlock()
		if err := enc.Encode(map[string]any{"result": v}); err != nil {
			return false
		}
		if fl != nil {
			fl.Flush()
		}
		return true
	}
	if !send() {
		return
	}
	for {
		select {
		case <-ch:
			if !send() {
				return
			}
		case <-end:
			return
		case <-s.closing:
			return
		case <-r.Context().Done():
			return
		}
	}
}

// dedup returns vs without repeats, in order.
func dedup(vs []string) []string {
	out := []string{}
	for _, v := range vs {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}
