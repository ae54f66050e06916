package netcode

import (
	"encoding/binary"
	"errors"
	"io"
	"net"
	"net/netip"
	"sync"
	"time"

	"ttytanks/netcode/transport"
)

// Lobby drives a LobbyClient on a transport and the wall clock; it is
// safe for concurrent use, and implements the lobby screen's source.
type Lobby struct {
	mu   sync.Mutex
	c    *LobbyClient
	t    transport.Transport
	stop chan struct{}
	wake chan struct{}
	wg   sync.WaitGroup
	once sync.Once
}

// StartLobby asks server for its rooms over t until Close.
func StartLobby(server netip.AddrPort, t transport.Transport, entropy io.Reader) (*Lobby, error) {
	if entropy == nil {
		entropy = systemEntropy()
	}
	var b [8]byte
	if _, err := io.ReadFull(entropy, b[:]); err != nil {
		return nil, err
	}
	l := &Lobby{c: NewLobbyClient(server, binary.LittleEndian.Uint64(b[:])), t: t, stop: make(chan struct{}), wake: make(chan struct{}, 1)}
	l.wg.Add(2)
	go l.receive()
	go l.run()
	return l, nil
}

// Rooms copies the newest room list into dst.
func (l *Lobby) Rooms(dst *RoomList) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.c.Rooms(dst)
}

// Close stops the lobby and closes its transport.
func (l *Lobby) Close() {
	l.once.Do(func() {
		close(l.stop)
		_ = l.t.Close()
		l.wg.Wait()
	})
}

func (l *Lobby) run() {
	defer l.wg.Done()
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-timer.C:
		case <-l.wake:
		}
		l.mu.Lock()
		for _, d := range l.c.Advance(time.Now()) {
			_ = l.t.Send(d.Addr, d.Data)
		}
		next := l.c.Deadline()
		l.mu.Unlock()
		timer.Reset(max(time.Until(next), time.Millisecond))
	}
}

func (l *Lobby) receive() {
	defer l.wg.Done()
	buf := make([]byte, transport.RecvBufSize)
	for {
		n, from, err := l.t.Recv(buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			select {
			case <-l.stop:
				return
			default:
				continue
			}
		}
		l.mu.Lock()
		for _, d := range l.c.Receive(time.Now(), from, buf[:n]) {
			_ = l.t.Send(d.Addr, d.Data)
		}
		l.mu.Unlock()
		select {
		case l.wake <- struct{}{}:
		default:
		}
	}
}
