// Package tests holds the cross-package tests of ttytanks: matches over
// real UDP on 127.0.0.1, and end-to-end runs of the built binary.
package tests
