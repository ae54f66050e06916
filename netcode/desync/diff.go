package desync

import (
	"fmt"
	"reflect"
	"strings"

	"ttytanks/game"
)

// Diff is one field where two snapshots differ.
type Diff struct {
	// Field is the field's path, such as "Tanks[1].X".
	Field string
	// A and B are its values in the first and second snapshot.
	A, B string
}

// FirstDiff returns the first field, in declaration order (arrays by
// index), where a and b differ, and false when they are equal.
func FirstDiff(a, b *game.Snapshot) (Diff, bool) {
	return first(reflect.ValueOf(*a), reflect.ValueOf(*b), "")
}

func first(a, b reflect.Value, path string) (Diff, bool) {
	switch a.Kind() {
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			name := a.Type().Field(i).Name
			p := name
			if path != "" {
				p = path + "." + name
			}
			if d, ok := first(a.Field(i), b.Field(i), p); ok {
				return d, true
			}
		}
		return Diff{}, false
	case reflect.Array:
		for i := 0; i < a.Len(); i++ {
			if d, ok := first(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); ok {
				return d, true
			}
		}
		return Diff{}, false
	}
	if a.Interface() != b.Interface() {
		return Diff{Field: path, A: fmt.Sprint(a.Interface()), B: fmt.Sprint(b.Interface())}, true
	}
	return Diff{}, false
}

// Explain returns a report on e: whether the received snapshot hashes to
// the server's hash, and the first field where it differs from the
// client's own snapshot. differs is true when the snapshots differ.
func Explain(e *Evidence) (report string, differs bool) {
	var b strings.Builder
	got := game.Hash(&e.Received)
	fmt.Fprintf(&b, "tick %d: the received snapshot hashes to %016x, the server sent %016x", e.Tick, got, e.ServerHash)
	if got == e.ServerHash {
		b.WriteString(" (they agree now: this build hashes like the server)")
	}
	b.WriteString("\n")
	if e.Own == nil {
		b.WriteString("the client held no snapshot of its own for that tick\n")
		return b.String(), false
	}
	d, ok := FirstDiff(&e.Received, e.Own)
	if !ok {
		fmt.Fprintf(&b, "the client's own snapshot equals the received one (own hash %016x)\n", game.Hash(e.Own))
		return b.String(), false
	}
	fmt.Fprintf(&b, "first differing field: %s: received %s, own %s\n", d.Field, d.A, d.B)
	return b.String(), true
}
