package statsfile

import (
	"os"
	"path/filepath"
)

// writeFileAtomic replaces file with data, mode 0600: written to a
// temporary file beside it and renamed over it, so a reader (loadtest
// --server-stats, every second) never sees half a file.
func writeFileAtomic(file string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename, nothing is left to remove
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}
