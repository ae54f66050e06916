// Package bad is a fixture of partcheck's own test: a part touched
// outside its files, a row written outside its own, a core that reads
// the clock and starts a goroutine.
package bad

// counter is a part: its fields are its own.
type counter struct{ n int }

func (c *counter) add() { c.n++ }

// row is read by anyone, written only here.
type row struct{ name string }

func (r *row) rename(n string) { r.name = n }

// wrapper embeds a counter.
type wrapper struct{ counter }
