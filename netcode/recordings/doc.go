// Package recordings keeps a server's match recordings in a directory:
// Dir is the netcode.Recorder behind "ttytanks serve --record DIR", which
// writes each match to its own file in the format of package
// proto/recording and deletes the oldest files beyond a Keep bound.
//
//	d, err := recordings.NewDir("recs", recordings.Keep{Files: 50}, "ttytanks 1.0", logger)
//	cfg.Recorder = d // netcode.ServerConfig
//	defer d.Close()  // after the server stops: the match in progress ends interrupted
package recordings
