package bad

import "time"

func use(c *counter, r *row, w *wrapper) (int, string) {
	c.n = 2     // a part's field, outside its files
	w.n++       // the same, reached through embedding
	_ = r.name  // a row's field read: allowed
	r.name = "" // a row's field written outside its files
	go func() {}()
	_ = time.Now()
	return c.n, r.name
}
