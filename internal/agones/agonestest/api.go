package agonestest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// route maps a request to its operation in the published API: ok false
// for a path the API has not, known true (with ok false) for a path it
// has under another method.
func route(method, path string) (op, name string, ok, known bool) {
	type r struct{ method, op string }
	fixed := map[string]r{
		"/ready": {"POST", OpReady}, "/health": {"POST", OpHealth}, "/shutdown": {"POST", OpShutdown},
		"/allocate": {"POST", OpAllocate}, "/metadata/label": {"PUT", OpSetLabel},
		"/metadata/annotation": {"PUT", OpSetAnnotation}, "/gameserver": {"GET", OpGameServer},
		"/watch/gameserver": {"GET", OpWatchGameServer},
	}
	if f, ok := fixed[path]; ok {
		return f.op, "", method == f.method, true
	}
	if name, ok := strings.CutPrefix(path, "/v1beta1/counters/"); ok && name != "" && !strings.Contains(name, "/") {
		switch method {
		case "GET":
			return OpGetCounter, name, true, true
		case "PATCH":
			return OpUpdateCounter, name, true, true
		}
		return "", name, false, true
	}
	if name, ok := strings.CutPrefix(path, "/v1beta1/lists/"); ok && name != "" && !strings.Contains(name, "/") {
		if n, ok := strings.CutSuffix(name, ":addValue"); ok {
			return OpAddListValue, n, method == "POST", true
		}
		if n, ok := strings.CutSuffix(name, ":removeValue"); ok {
			return OpRemoveListValue, n, method == "POST", true
		}
		switch method {
		case "GET":
			return OpGetList, name, true, true
		case "PATCH":
			return OpUpdateList, name, true, true
		}
		return "", name, false, true
	}
	return "", "", false, false
}

// serve takes one request: it checks it against the API, records it and
// answers as the sidecar would.
func (s *Sidecar) serve(w http.ResponseWriter, r *http.Request) {
	op, name, ok, known := route(r.Method, r.URL.Path)
	c := Call{At: time.Now(), Method: r.Method, Path: r.URL.Path, Op: op, Name: name}
	fail := func(status int, format string, args ...any) {
		msg := fmt.Sprintf(format, args...)
		s.t.Errorf("agonestest: %s %s: %s", r.Method, r.URL.Path, msg)
		c.Status = status
		s.record(c)
		grpcError(w, status, 3, msg)
	}
	switch {
	case !known:
		fail(http.StatusNotFound, "no such path in the REST API")
		return
	case !ok:
		fail(http.StatusMethodNotAllowed, "not a method of this path in the REST API")
		return
	}
	body, err := readBody(r, op)
	if err != nil {
		fail(http.StatusBadRequest, "%v", err)
		return
	}
	c.Body = body
	if err := checkBody(op, body); err != nil {
		fail(http.StatusBadRequest, "the body %v: %v", body, err)
		return
	}
	s.mu.Lock()
	if status := s.failing[op]; status != 0 {
		s.mu.Unlock()
		c.Status = status
		s.record(c)
		grpcError(w, status, 14, "unavailable (agonestest.Fail)")
		return
	}
	if op == OpWatchGameServer {
		s.mu.Unlock()
		c.Status = http.StatusOK
		s.record(c)
		s.watch(w, r)
		return
	}
	status, v, msg := s.apply(op, name, body)
	s.mu.Unlock()
	c.Status = status
	s.record(c)
	if status != http.StatusOK {
		grpcError(w, status, 2, msg) // the sidecar's plain errors are gRPC Unknown: HTTP 500
		return
	}
	answer(w, v)
}

// hasBody says which operations take a body (all that change something).
func hasBody(op string) bool {
	switch op {
	case OpGameServer, OpWatchGameServer, OpGetCounter, OpGetList:
		return false
	}
	return true
}

// readBody reads a request's JSON body: required, as application/json,
// one object, for the operations that take one; none for the others.
func readBody(r *http.Request, op string) (map[string]any, error) {
	raw, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	if !hasBody(op) {
		if len(raw) != 0 {
			return nil, errors.New("a body where the API takes none")
		}
		return nil, nil
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return nil, fmt.Errorf("Content-Type %q, want application/json", r.Header.Get("Content-Type"))
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil || m == nil {
		return nil, fmt.Errorf("the body %q is not a JSON object", raw)
	}
	if dec.More() {
		return nil, fmt.Errorf("the body %q has more than one JSON value", raw)
	}
	return m, nil
}

// checkBody checks a body against the operation's schema in the
// swagger files: its keys, and their types as the gateway encodes them
// (an int64 as a string of digits).
func checkBody(op string, b map[string]any) error {
	switch op {
	case OpReady, OpHealth, OpShutdown, OpAllocate:
		return keys(b, nil, nil) // sdkEmpty: {}
	case OpSetLabel, OpSetAnnotation:
		if err := keys(b, []string{"key", "value"}, []string{"key", "value"}); err != nil {
			return err
		}
		return strings2(b, "key", "value")
	case OpUpdateCounter:
		if len(b) == 0 {
			return errors.New("an update of nothing (the sidecar refuses it)")
		}
		if err := keys(b, []string{"count", "capacity", "countDiff"}, nil); err != nil {
			return err
		}
		for k := range b {
			if _, err := int64Of(b[k]); err != nil {
				return fmt.Errorf("%q: %v", k, err)
			}
		}
	case OpUpdateList:
		if len(b) == 0 {
			return errors.New("an update of nothing: the update mask is taken from the body's keys")
		}
		if err := keys(b, []string{"capacity", "values"}, nil); err != nil {
			return err
		}
		if v, ok := b["capacity"]; ok {
			if n, err := int64Of(v); err != nil || n < 0 || n > 1000 {
				return fmt.Errorf(`"capacity" %v: want 0..1000 as a string (%v)`, v, err)
			}
		}
		if v, ok := b["values"]; ok {
			if _, err := stringsOf(v); err != nil {
				return fmt.Errorf(`"values": %v`, err)
			}
		}
	case OpAddListValue, OpRemoveListValue:
		if err := keys(b, []string{"value"}, []string{"value"}); err != nil {
			return err
		}
		return strings2(b, "value")
	}
	return nil
}

// keys checks that b's keys are among allowed and include required.
func keys(b map[string]any, allowed, required []string) error {
	for k := range b {
		found := false
		for _, a := range allowed {
			found = found || k == a
		}
		if !found {
			return fmt.Errorf("key %q is not in the API's schema (it has %v)", k, allowed)
		}
	}
	for _, k := range required {
		if _, ok := b[k]; !ok {
			return fmt.Errorf("no %q", k)
		}
	}
	return nil
}

// strings2 checks that b's keys ks hold strings.
func strings2(b map[string]any, ks ...string) error {
	for _, k := range ks {
		if _, ok := b[k].(string); !ok {
			return fmt.Errorf("%q is %T, want a string", k, b[k])
		}
	}
	return nil
}

// int64Of reads an int64 written as the gateway writes one: a JSON
// string of decimal digits.
func int64Of(v any) (int64, error) {
	s, ok := v.(string)
	if !ok {
		return 0, fmt.Errorf("%v is %T, want an int64 as a JSON string", v, v)
	}
	return strconv.ParseInt(s, 10, 64)
}

// stringsOf reads an array of strings.
func stringsOf(v any) ([]string, error) {
	a, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%T, want an array of strings", v)
	}
	out := make([]string, 0, len(a))
	for _, it := range a {
		s, ok := it.(string)
		if !ok {
			return nil, fmt.Errorf("an item %v is %T, want a string", it, it)
		}
		out = append(out, s)
	}
	return out, nil
}

// labelValueRE is Kubernetes' syntax of a label value (and of a label
// key's name part), at most 63 bytes.
var labelValueRE = regexp.MustCompile(`^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$`)

// validLabel reports whether a label set through the SDK (its key
// prefixed "agones.dev/sdk-") is one Kubernetes takes.
func validLabel(key, value string) bool {
	name := "sdk-" + key
	return key != "" && len(name) <= 63 && labelValueRE.MatchString(name) && len(value) <= 63 && labelValueRE.MatchString(value)
}
