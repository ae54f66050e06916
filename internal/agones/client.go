package agones

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// PortEnv names the environment variable Agones sets to the port of the
// SDK sidecar's REST gateway.
const PortEnv = "AGONES_SDK_HTTP_PORT"

// DefaultPort is the gateway's port when PortEnv is not set.
const DefaultPort = 9358

// DefaultCallTimeout bounds each call but the watch's stream.
const DefaultCallTimeout = time.Second

// ErrPort means PortEnv does not hold a port number.
var ErrPort = errors.New("agones: " + PortEnv + " is not a port number")

// APIError is an answer of the gateway other than 200 OK: the call, the
// HTTP status, and the gRPC status's message the gateway put in its body
// (the status line's text if there was none).
type APIError struct {
	Method, Path string
	Status       int
	Message      string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("agones: %s %s: %d %s", e.Method, e.Path, e.Status, e.Message)
}

// Client calls the REST API of the Agones SDK sidecar (its grpc-gateway)
// with net/http. Every call but WatchGameServer is bounded by its
// timeout; each returns an error, never panics. Safe for concurrent use.
type Client struct {
	base    string // "http://localhost:9358", no trailing slash
	hc      *http.Client
	tr      *http.Transport
	timeout time.Duration
}

// NewClient returns a client of the gateway at base, a URL like
// "http://localhost:9358".
func NewClient(base string) *Client {
	// Its own transport, without a proxy: the sidecar is on this pod's
	// loopback, and an HTTP_PROXY in the environment is not for it.
	tr := &http.Transport{MaxIdleConns: 4, IdleConnTimeout: 30 * time.Second}
	return &Client{base: strings.TrimRight(base, "/"), hc: &http.Client{Transport: tr}, tr: tr, timeout: DefaultCallTimeout}
}

// BaseURL returns the gateway's URL as Agones tells it to the game
// server: http://localhost and the port in PortEnv (getenv reads it), or
// DefaultPort when that is empty. A value that is no port is ErrPort.
func BaseURL(getenv func(string) string) (string, error) {
	port := DefaultPort
	if v := getenv(PortEnv); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 65535 {
			return "", fmt.Errorf("%w: %q", ErrPort, v)
		}
		port = n
	}
	return "http://localhost:" + strconv.Itoa(port), nil
}

// SetTimeout sets the bound of each call (DefaultCallTimeout unless
// set). Call it before the client is used.
func (c *Client) SetTimeout(d time.Duration) { c.timeout = d }

// Close closes the client's idle connections.
func (c *Client) Close() { c.tr.CloseIdleConnections() }

// empty is the body of the calls that take google.protobuf.Empty.
var empty = struct{}{}

// Ready tells Agones the game server takes players (POST /ready).
func (c *Client) Ready(ctx context.Context) error {
	return c.call(ctx, http.MethodPost, "/ready", empty, nil)
}

// Health sends one health ping (POST /health).
func (c *Client) Health(ctx context.Context) error {
	return c.call(ctx, http.MethodPost, "/health", empty, nil)
}

// Shutdown tells Agones the game server is done (POST /shutdown): the
// GameServer goes to Shutdown and its pod is deleted.
func (c *Client) Shutdown(ctx context.Context) error {
	return c.call(ctx, http.MethodPost, "/shutdown", empty, nil)
}

// SetLabel sets a label on the GameServer (PUT /metadata/label); Agones
// prefixes key with "agones.dev/sdk-". Key and value must fit
// Kubernetes' label syntax with that prefix.
func (c *Client) SetLabel(ctx context.Context, key, value string) error {
	return c.call(ctx, http.MethodPut, "/metadata/label", keyValue{Key: key, Value: value}, nil)
}

// keyValue is the body of SetLabel (sdkKeyValue).
type keyValue struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// GameServer returns the GameServer (GET /gameserver).
func (c *Client) GameServer(ctx context.Context) (GameServer, error) {
	var gs GameServer
	err := c.call(ctx, http.MethodGet, "/gameserver", nil, &gs)
	return gs, err
}

// call makes one call within the client's timeout: body, unless nil, is
// sent as JSON; out, unless nil, takes the JSON answer.
func (c *Client) call(ctx context.Context, method, path string, body, out any) error {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	resp, err := c.send(ctx, method, path, body)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if out == nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxAnswer))
		return nil
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxAnswer)).Decode(out); err != nil {
		return fmt.Errorf("agones: %s %s: the answer: %w", method, path, err)
	}
	return nil
}

// maxAnswer bounds the bytes read of one answer (a GameServer with its
// lists is a few kilobytes; a list holds at most 1000 values).
const maxAnswer = 1 << 20

// send sends one request and returns the response if its status is 200
// OK; the caller closes its body.
func (c *Client) send(ctx context.Context, method, path string, body any) (*http.Response, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, fmt.Errorf("agones: %s %s: %w", method, path, err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return nil, fmt.Errorf("agones: %s %s: %w", method, path, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("agones: %s %s: %w", method, path, err)
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		return nil, apiError(method, path, resp)
	}
	return resp, nil
}

// apiError reads a failed call's answer: the gateway writes the gRPC
// status as {"code": 5, "message": "…", "details": []}.
func apiError(method, path string, resp *http.Response) error {
	e := &APIError{Method: method, Path: path, Status: resp.StatusCode, Message: http.StatusText(resp.StatusCode)}
	var st struct {
		Message string `json:"message"`
	}
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if json.Unmarshal(b, &st) == nil && st.Message != "" {
		e.Message = st.Message
	}
	return e
}
