// Package recordings keeps a server's match recordings in a directory:
// Dir is the netcode.Recorder behind "ttytanks serve --record DIR", which
// writes each match to its own file in the format of package
// proto/recording, and Store holds the directory within its Keep bound
// (--record-keep), deleting the oldest finished files.
//
// A Store is the directory and its Keep bound, shared by every room;
// the server asks for one Recorder per room (netcode.ServerConfig's
// NewRecorder), a Dir of the Store, and closes it when the room closes:
//
//	st, err := recordings.NewStore("recs", recordings.Keep{Bytes: 100 << 20}, logger)
//	if err != nil {
//		return err // the directory cannot be made or read
//	}
//	cfg.NewRecorder = func(room string) netcode.Recorder {
//		return st.Dir("ttytanks 1.0", logger.With("room", room)) // closed with its room: the match in progress ends interrupted
//	}
//
// The bound holds at all times, the matches in progress of every room
// counted (store.go); a Dir writes through an FS (fs.go), the operating
// system's or, in tests, one whose disk fills up.
package recordings
