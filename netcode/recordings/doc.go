// Package recordings keeps a server's match recordings in a directory:
// Dir is the netcode.Recorder behind "ttytanks serve --record DIR", which
// writes each match to its own file in the format of package
// proto/recording and deletes the oldest files beyond a Keep bound.
//
// The server asks for one Recorder per room (netcode.ServerConfig's
// NewRecorder) and closes it when the room closes:
//
//	cfg.NewRecorder = func(room string) netcode.Recorder {
//		d, err := recordings.NewDir("recs", recordings.Keep{Files: 50}, "ttytanks 1.0", logger.With("room", room))
//		if err != nil {
//			return nil // the room plays unrecorded
//		}
//		return d // closed with its room: the match in progress ends interrupted
//	}
package recordings
