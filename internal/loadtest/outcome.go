package loadtest

import (
	"errors"
	"strings"

	"ttytanks/netcode"
	"ttytanks/proto"
)

// retryable reports whether a session that ended with err should be
// tried again: refusals an admission limit gives (a busy server opens
// rooms again once its tick is back under half its budget), and silence
// (a shed handshake is not answered).
func retryable(err error) bool {
	var refused *netcode.RefusedError
	if errors.As(err, &refused) {
		switch refused.Reason {
		case proto.RejectFull, proto.RejectRoomFull, proto.RejectSlowDown, proto.RejectAddrLimit, proto.RejectBadCookie, proto.RejectBusy:
			return true
		}
		return false
	}
	var none *netcode.NoAnswerError
	return errors.As(err, &none)
}

// errKind names an error for the report.
func errKind(err error) string {
	var refused *netcode.RefusedError
	var ended *netcode.EndedError
	var gone *netcode.GoneError
	switch {
	case errors.As(err, &refused):
		return "refused: " + refused.Reason.String()
	case errors.As(err, &ended):
		return "ended: " + ended.Error()
	case errors.As(err, &gone):
		return "lost the server"
	case err == nil:
		return "closed"
	}
	return strings.SplitN(err.Error(), ":", 2)[0]
}
