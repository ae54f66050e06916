// Package recording is the file format of a match recording: a Header
// (the match's configuration, seed and players) followed by Blocks, each
// covering a run of ticks with every seat's inputs, the seat changes and
// results between them, hash checkpoints that form a chain, and a CRC-32C.
// RECORDING.md at the repository root documents every byte.
//
// The package does no IO of its own: a Writer writes to an io.Writer as a
// match is played, a Reader reads from an io.Reader block by block. The
// file is append-only and streamable: a recording cut off anywhere (a
// server that died mid-match) reads back up to its last complete block,
// and the Reader's error names the byte offset of the block it could not
// read. Decoding never panics and allocates at most MaxBlockLen bytes per
// block, whatever the input claims.
//
// Writing, with the server's Recorder calls:
//
//	w, err := recording.NewWriter(file, recording.Header{Rules: game.RulesVersion,
//		Seed: seed, Slots: slots, Start: start, Names: names})
//	...
//	w.Seat(slot, name, seated)     // a seat changes before the next step
//	w.Step(t, inputs, world.Hash()) // after each step; writes a block every second
//	w.End()                        // the match is over: the final block
//
// Reading:
//
//	r, err := recording.NewReader(file)
//	for {
//		k, err := r.Next() // io.EOF after the last block
//		...
//	}
package recording
