package agones

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
)

// The beta Counters and Lists (feature gate CountsAndLists) under
// /v1beta1. The gateway writes an int64 as a JSON string ("5"), so the
// bodies do too. The sidecar batches the changes it is sent and writes
// them to the GameServer about once a second; a Counter or List must be
// declared in the GameServer's spec, or its calls fail. The answers are
// not read: before Agones 1.54 UpdateCounter answered an empty Counter.

// MaxListCapacity is the most values a List may hold.
const MaxListCapacity = 1000

// CounterUpdate is an UpdateCounter request: each field that is not nil
// is set, the capacity first.
type CounterUpdate struct {
	Count, Capacity *int64
}

// UpdateCounter sets the Counter name's count or capacity (PATCH
// /v1beta1/counters/{name}). A count outside 0..capacity fails.
func (c *Client) UpdateCounter(ctx context.Context, name string, u CounterUpdate) error {
	body := map[string]string{}
	if u.Count != nil {
		body["count"] = strconv.FormatInt(*u.Count, 10)
	}
	if u.Capacity != nil {
		body["capacity"] = strconv.FormatInt(*u.Capacity, 10)
	}
	return c.call(ctx, http.MethodPatch, "/v1beta1/counters/"+url.PathEscape(name), body, nil)
}

// SetCounterCount sets the Counter name's count to n.
func (c *Client) SetCounterCount(ctx context.Context, name string, n int64) error {
	return c.UpdateCounter(ctx, name, CounterUpdate{Count: &n})
}

// AddListValue adds value to the List name (POST
// /v1beta1/lists/{name}:addValue); a value already there, or a full
// List, fails.
func (c *Client) AddListValue(ctx context.Context, name, value string) error {
	return c.call(ctx, http.MethodPost, "/v1beta1/lists/"+url.PathEscape(name)+":addValue", listValue{Value: value}, nil)
}

// RemoveListValue removes value from the List name (POST
// /v1beta1/lists/{name}:removeValue); a value not there fails.
func (c *Client) RemoveListValue(ctx context.Context, name, value string) error {
	return c.call(ctx, http.MethodPost, "/v1beta1/lists/"+url.PathEscape(name)+":removeValue", listValue{Value: value}, nil)
}

// SetListValues replaces the values of the List name with values (PATCH
// /v1beta1/lists/{name} with only "values" in the body, which the
// gateway takes as the update mask: the capacity stays). Values past the
// List's capacity are dropped by the sidecar.
func (c *Client) SetListValues(ctx context.Context, name string, values []string) error {
	if values == nil {
		values = []string{} // [], not null: an empty list
	}
	return c.call(ctx, http.MethodPatch, "/v1beta1/lists/"+url.PathEscape(name), listValues{Values: values}, nil)
}

// listValue is the body of AddListValue and RemoveListValue.
type listValue struct {
	Value string `json:"value"`
}

// listValues is the body of SetListValues.
type listValues struct {
	Values []string `json:"values"`
}
