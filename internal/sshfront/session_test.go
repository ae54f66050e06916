package sshfront

import (
	"net"
	"testing"
)

func TestConnectHint(t *testing.T) {
	if got := connectHint(&net.TCPAddr{Port: 2222}); got != "ssh -t -p 2222 HOST" {
		t.Errorf("port 2222: %q", got)
	}
	if got := connectHint(&net.TCPAddr{Port: 22}); got != "ssh -t HOST" {
		t.Errorf("port 22: %q", got)
	}
}
