package loadtest

import (
	"errors"
	"testing"

	"ttytanks/netcode"
	"ttytanks/proto"
)

// TestRetryable: the refusals of an admission limit, a busy server's
// among them, and silence are tried again; a refusal that would be the
// same on every try is not.
func TestRetryable(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{&netcode.RefusedError{Reason: proto.RejectBusy}, true},
		{&netcode.RefusedError{Reason: proto.RejectAddrLimit}, true},
		{&netcode.RefusedError{Reason: proto.RejectFull}, true},
		{&netcode.NoAnswerError{}, true},
		{&netcode.RefusedError{Reason: proto.RejectVersion}, false},
		{&netcode.RefusedError{Reason: proto.RejectNameTaken}, false},
		{&netcode.RefusedError{Reason: proto.RejectKicked}, false},
		{errors.New("socket closed"), false},
	} {
		if got := retryable(tc.err); got != tc.want {
			t.Errorf("retryable(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
