package netcode

// seqWindow tells new datagram sequence numbers from repeats: it remembers
// the newest number seen and which of the 64 before it were seen too (the
// sliding window of RFC 4303's anti-replay check). A number older than the
// window counts as seen. The zero value has seen nothing.
type seqWindow struct {
	newest uint32
	mask   uint64 // bit i: newest − i was seen
	any    bool
}

// fresh records seq and reports whether it was not seen before. Sequence
// numbers wrap; they are compared by signed difference.
func (w *seqWindow) fresh(seq uint32) bool {
	if !w.any {
		w.newest, w.mask, w.any = seq, 1, true
		return true
	}
	d := int32(seq - w.newest)
	switch {
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
		return false // too old to tell: treat as a replay
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
	switch {
	case d > 0:
		return false
	case -d >= 64:
		return true
	}
	return w.mask&(uint64(1)<<uint(-d)) != 0
}

// reset forgets every number.
func (w *seqWindow) reset() { *w = seqWindow{} }
