package agones

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// The watch's reconnection backoff: the first wait, doubled after each
// stream that ended with nothing read, up to the last.
const (
	watchBackoffFirst = 250 * time.Millisecond
	watchBackoffMax   = 8 * time.Second
)

// ErrStreamEnded means the watch's stream ended without an error of its
// own (the sidecar closed it).
var ErrStreamEnded = errors.New("agones: the watch stream ended")

// WatchGameServer calls fn with the GameServer each time Agones changes
// it, as GET /watch/gameserver streams it (one JSON object a change,
// {"result": GameServer}), until ctx ends; it then returns ctx's error.
// When a stream ends or fails, onErr (if not nil) is told why and the
// watch connects again after a backoff (250 ms, doubling to 8 s; back to
// 250 ms after a stream that delivered). fn and onErr run on the
// caller's goroutine.
func (c *Client) WatchGameServer(ctx context.Context, fn func(GameServer), onErr func(error)) error {
	wait := watchBackoffFirst
	for {
		got, err := c.watchOnce(ctx, fn)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if onErr != nil {
			onErr(err)
		}
		if got {
			wait = watchBackoffFirst
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		wait = min(2*wait, watchBackoffMax)
	}
}

// watchOnce reads one watch stream to its end; it reports whether it
// delivered a GameServer, and why the stream ended.
func (c *Client) watchOnce(ctx context.Context, fn func(GameServer)) (got bool, err error) {
	resp, err := c.send(ctx, http.MethodGet, "/watch/gameserver", nil)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	dec := json.NewDecoder(resp.Body)
	for {
		var m struct {
			Result *GameServer `json:"result"`
			Error  *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		switch err := dec.Decode(&m); {
		case errors.Is(err, io.EOF):
			return got, ErrStreamEnded
		case err != nil:
			return got, fmt.Errorf("agones: the watch stream: %w", err)
		case m.Error != nil:
			return got, fmt.Errorf("agones: the watch stream: error %d: %s", m.Error.Code, m.Error.Message)
		case m.Result != nil:
			got = true
			fn(*m.Result)
		}
	}
}
