package loadtest

// timers is a min-heap of a shard's client slots by when each is next
// due, in nanoseconds since the shard began: the loop's next wait ends at
// the earliest, and a client is advanced only when it is due, never
// looked at otherwise. A slot is in it at most once; pos says where (-1:
// not in it). Setting a slot's time is O(log n).
type timers struct {
	h   []timer
	pos []int32 // by slot
}

// timer is one slot's due time.
type timer struct {
	at   int64 // nanoseconds since the shard began
	slot int32
}

// newTimers returns an empty heap for n slots.
func newTimers(n int) timers {
	t := timers{h: make([]timer, 0, n), pos: make([]int32, n)}
	for i := range t.pos {
		t.pos[i] = -1
	}
	return t
}

// Len is how many slots are waiting.
func (t *timers) Len() int { return len(t.h) }

// peek returns the earliest timer; the heap must not be empty.
func (t *timers) peek() timer { return t.h[0] }

// at returns when slot is due, and whether it is waiting at all.
func (t *timers) at(slot int) (int64, bool) {
	i := t.pos[slot]
	if i < 0 {
		return 0, false
	}
	return t.h[i].at, true
}

// set makes slot due at at, adding it or moving it.
func (t *timers) set(slot int, at int64) {
	i := int(t.pos[slot])
	if i < 0 {
		i = len(t.h)
		t.h = append(t.h, timer{at: at, slot: int32(slot)})
		t.pos[slot] = int32(i)
		t.up(i)
		return
	}
	old := t.h[i].at
	t.h[i].at = at
	switch {
	case at < old:
		t.up(i)
	case at > old:
		t.down(i)
	}
}

// remove takes slot out, if it is in.
func (t *timers) remove(slot int) {
	i := int(t.pos[slot])
	if i < 0 {
		return
	}
	last := len(t.h) - 1
	t.swap(i, last)
	t.h = t.h[:last]
	t.pos[slot] = -1
	if i < last {
		t.down(i)
		t.up(i)
	}
}

func (t *timers) swap(i, j int) {
	t.h[i], t.h[j] = t.h[j], t.h[i]
	t.pos[t.h[i].slot] = int32(i)
	t.pos[t.h[j].slot] = int32(j)
}

func (t *timers) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if t.h[p].at <= t.h[i].at {
			return
		}
		t.swap(i, p)
		i = p
	}
}

func (t *timers) down(i int) {
	n := len(t.h)
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if c+1 < n && t.h[c+1].at < t.h[c].at {
			c++
		}
		if t.h[i].at <= t.h[c].at {
			return
		}
		t.swap(i, c)
		i = c
	}
}
