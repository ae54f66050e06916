//go:build !linux

package transport

import (
	"errors"
	"net"
)

// mmsgConn is Linux's batch IO; elsewhere UDP sends and receives one
// datagram per call.
type mmsgConn struct{}

func newMmsgConn(*net.UDPConn) *mmsgConn { return nil }

func (*mmsgConn) RecvBatch([]Message) (int, error) { return 0, errors.ErrUnsupported }
func (*mmsgConn) SendBatch([]Datagram) error       { return errors.ErrUnsupported }
