package admin

import (
	"ttytanks/netcode"
	"ttytanks/proto"
)

// The label values of the metrics: fixed sets, whatever the players do.

// transports are the values of the transport label.
var transports = [...]string{"udp", "ssh"}

// roomStates are the values of the state label, by netcode.RoomState.
var roomStates = [...]string{
	netcode.RoomWaiting: "waiting", netcode.RoomCountdown: "countdown",
	netcode.RoomPlaying: "playing", netcode.RoomResults: "results",
}

// refusalReasons are the values of the reason label of refusals, by
// proto.RejectReason (zero is no reason and has none).
var refusalReasons = [proto.MaxRejectReason + 1]string{
	proto.RejectVersion: "version", proto.RejectFull: "full", proto.RejectBadCookie: "bad-cookie",
	proto.RejectBadToken: "bad-token", proto.RejectBadName: "bad-name", proto.RejectNoMatch: "no-match",
	proto.RejectAddrLimit: "addr-limit", proto.RejectNoRoom: "no-room", proto.RejectRoomTaken: "room-taken",
	proto.RejectRoomFull: "room-full", proto.RejectSlowDown: "slow-down", proto.RejectDraining: "draining",
	proto.RejectKicked: "kicked", proto.RejectBusy: "busy", proto.RejectNameTaken: "name-taken",
}
