package recording

// bitWriter appends bits to a byte slice, least significant bit first
// within each byte. The last byte is padded with zero bits.
type bitWriter struct {
	b []byte
	n uint // bits used in the last byte (0 means a new byte is needed)
}

// write appends the low width bits of v.
func (w *bitWriter) write(v uint8, width uint) {
	for i := uint(0); i < width; i++ {
		if w.n == 0 {
			w.b = append(w.b, 0)
		}
		w.b[len(w.b)-1] |= (v >> i & 1) << w.n
		w.n = (w.n + 1) & 7
	}
}

// bitReader reads bits written by bitWriter. Reads past the end return
// zero bits and set over.
type bitReader struct {
	b    []byte
	pos  uint // bit position
	over bool
}

// read returns the next width bits.
func (r *bitReader) read(width uint) uint8 {
	var v uint8
	for i := uint(0); i < width; i++ {
		if r.pos >= uint(len(r.b))*8 {
			r.over = true
			return 0
		}
		v |= (r.b[r.pos/8] >> (r.pos & 7) & 1) << i
		r.pos++
	}
	return v
}

// paddingClean reports whether every bit after pos is zero and no byte
// beyond the last partly used one remains.
func (r *bitReader) paddingClean() bool {
	if (r.pos+7)/8 != uint(len(r.b)) {
		return false
	}
	if r.pos&7 == 0 {
		return true
	}
	return r.b[len(r.b)-1]>>(r.pos&7) == 0
}
