package cli

import (
	"net"
	"os"
)

// sdNotify tells systemd how the service goes (Type=notify): READY=1 once
// it serves, STOPPING=1 when it drains or stops, STATUS=… for
// systemctl status. It writes one datagram to $NOTIFY_SOCKET and does
// nothing without one (not under systemd).
func sdNotify(state string) error {
	name := os.Getenv("NOTIFY_SOCKET")
	if name == "" {
		return nil
	}
	if name[0] == '@' {
		name = "\x00" + name[1:] // an abstract socket
	}
	c, err := net.DialUnix("unixgram", nil, &net.UnixAddr{Name: name, Net: "unixgram"})
	if err != nil {
		return err
	}
	defer c.Close()
	_, err = c.Write([]byte(state))
	return err
}
