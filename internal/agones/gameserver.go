package agones

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// GameServer is the part of the GameServer resource the SDK serves (the
// sdkGameServer of sdk.swagger.json), with the gateway's field names.
type GameServer struct {
	ObjectMeta ObjectMeta       `json:"object_meta"`
	Status     GameServerStatus `json:"status"`
}

// ObjectMeta is the GameServer's Kubernetes metadata.
type ObjectMeta struct {
	Name        string            `json:"name"`
	Namespace   string            `json:"namespace"`
	UID         string            `json:"uid"`
	Labels      map[string]string `json:"labels"`
	Annotations map[string]string `json:"annotations"`
}

// GameServerStatus is the GameServer's status: its state ("Scheduled",
// "Ready", "Allocated", "Shutdown", …), address and ports, and the beta
// Counters and Lists by name.
type GameServerStatus struct {
	State    string                   `json:"state"`
	Address  string                   `json:"address"`
	Ports    []Port                   `json:"ports"`
	Counters map[string]CounterStatus `json:"counters"`
	Lists    map[string]ListStatus    `json:"lists"`
}

// The GameServer states the runner looks for.
const (
	StateReady     = "Ready"
	StateAllocated = "Allocated"
)

// Port is one of the GameServer's ports.
type Port struct {
	Name string `json:"name"`
	Port int32  `json:"port"`
}

// CounterStatus is a Counter as the GameServer's status holds it.
type CounterStatus struct {
	Count    Int64 `json:"count"`
	Capacity Int64 `json:"capacity"`
}

// ListStatus is a List as the GameServer's status holds it.
type ListStatus struct {
	Capacity Int64    `json:"capacity"`
	Values   []string `json:"values"`
}

// Int64 is an int64 as the gateway writes one: a JSON string of its
// decimal digits ("5"). It reads a bare number too.
type Int64 int64

// MarshalJSON writes n as a JSON string.
func (n Int64) MarshalJSON() ([]byte, error) {
	return strconv.AppendQuote(nil, strconv.FormatInt(int64(n), 10)), nil
}

// UnmarshalJSON reads a JSON string of decimal digits, or a number.
func (n *Int64) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	s := string(b)
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("agones: %s is not an int64", b)
	}
	*n = Int64(v)
	return nil
}
