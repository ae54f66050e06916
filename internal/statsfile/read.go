package statsfile

import (
	"encoding/json"
	"fmt"
	"os"
	"time"
)

// ReadLoad reads the "load" of a stats file, which must have been
// written since the given time: a file left by an earlier server would
// report that server's figures.
func ReadLoad(file string, since time.Time) (*Load, error) {
	fi, err := os.Stat(file)
	if err != nil {
		return nil, err
	}
	if fi.ModTime().Before(since) {
		return nil, fmt.Errorf("%s was last written at %s, before this run began: is a serve --stats-json %s --stats-every 1s running?",
			file, fi.ModTime().Format(time.TimeOnly), file)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var st struct {
		Load *Load `json:"load"`
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if st.Load == nil || st.Load.WindowS == 0 {
		return nil, fmt.Errorf("%s holds no load figures yet (serve --stats-json FILE --stats-every 1s)", file)
	}
	return st.Load, nil
}
