package netcode

import (
	"testing"

	"ttytanks/game"
	"ttytanks/proto"
)

// TestOnDesyncSeesTheEvidence: a State whose snapshot does not hash to its
// hash (one tank moved by one sub-tile after hashing) reaches OnDesync
// with the snapshot as received, the server's hash and the client's own
// snapshot of that tick; a good State does not call it. The bad State is
// sealed with the connection's server key, as a buggy server would send
// it: the client's own check is what is tested. The same State in the
// clear, as anyone else could send it, is dropped before any check.
func TestOnDesyncSeesTheEvidence(t *testing.T) {
	w := newWire(t, ServerConfig{Players: 2, StateEvery: 1})
	calls := 0
	var got, own game.Snapshot
	var gotHash uint64
	ownOK := false
	a := w.join(ClientConfig{OnDesync: func(r *game.Snapshot, h uint64, o *game.Snapshot) {
		calls++
		got, gotHash, ownOK = *r, h, o != nil
		if o != nil {
			own = *o
		}
	}})
	b := w.join(ClientConfig{})
	var good *proto.State
	for k := 0; k < 30; k++ {
		w.srv.Receive(w.now, w.addr[b], w.stepClient(b, right))
		w.stepClient(a, game.Input{})
		for _, d := range w.tick()[a] {
			if st := stateDown(t, a, d); st != nil {
				good = st
			}
		}
	}
	if calls != 0 || good == nil {
		t.Fatalf("OnDesync called %d times in a sound match (a State seen: %v)", calls, good != nil)
	}
	st := *good
	st.Snapshot.Tanks[0].X++
	dropped := a.Metrics().Dropped
	a.Receive(w.now, srvAddr, st.Append(nil))
	if calls != 0 || a.Metrics().Dropped != dropped+1 {
		t.Fatalf("a State in the clear: OnDesync called %d times, dropped %d → %d", calls, dropped, a.Metrics().Dropped)
	}
	a.Receive(w.now, srvAddr, sealDown(t, w.srv, a, st.Append(nil)))
	if calls != 1 || got != st.Snapshot || gotHash != st.Hash || !ownOK || own.Tick != st.Snapshot.Tick {
		t.Fatalf("OnDesync: %d calls, snapshot equal %v, hash %x (want %x), own %v at tick %d (want %d)",
			calls, got == st.Snapshot, gotHash, st.Hash, ownOK, own.Tick, st.Snapshot.Tick)
	}
}
