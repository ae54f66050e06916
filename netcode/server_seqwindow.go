package netcode

// seqWindow tells new datagram sequence numbers from repeats: it remembers
// the newest number seen and which of the 64 before it were seen too (the
// sliding window of RFC 4303's anti-replay check).
//
// Two rules keep a forged number from locking the real sender out: a jump
// of more than maxSeqJump ahead is taken but does not move the window (an
// honest client never skips that many: after a few seconds of silence it
// reconnects, which starts a new window), and a number older than the
// window is not called a repeat: whatever it carries is judged by its
// ticks instead (an old datagram's inputs are long stale). The zero value
// has seen nothing.
type seqWindow struct {
	newest uint32
	mask   uint64 // bit i: newest − i was seen
	any    bool
}

// maxSeqJump is the largest forward jump that moves the window: 68 s of
// datagrams at 60 a second, far beyond the 20 s a silent seat is kept.
const maxSeqJump = 4096

// fresh records seq and reports whether it was not seen before. Sequence
// numbers wrap; they are compared by signed difference.
func (w *seqWindow) fresh(seq uint32) bool {
	if !w.any {
		w.newest, w.mask, w.any = seq, 1, true
		return true
	}
	d := int32(seq - w.newest)
	switch {
	case d > maxSeqJump:
		return true // implausible: taken, not remembered
	case d > 0:
		if d >= 64 {
			w.mask = 0
		} else {
			w.mask <<= uint(d)
		}
		w.mask |= 1
		w.newest = seq
		return true
	case -d >= 64:
		return true // older than the window: the ticks decide
	}
	bit := uint64(1) << uint(-d)
	if w.mask&bit != 0 {
		return false
	}
	w.mask |= bit
	return true
}

// has reports whether seq was seen, without recording it.
func (w *seqWindow) has(seq uint32) bool {
	if !w.any {
		return false
	}
	d := int32(seq - w.newest)
	if d > 0 || -d >= 64 {
		return false
	}
	return w.mask&(uint64(1)<<uint(-d)) != 0
}

// newer reports whether seq is newer than every number the window moved
// to (true when it has seen nothing).
func (w *seqWindow) newer(seq uint32) bool {
	d := int32(seq - w.newest)
	return !w.any || (d > 0 && d <= maxSeqJump)
}

// reset forgets every number.
func (w *seqWindow) reset() { *w = seqWindow{} }
