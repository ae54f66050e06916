package recordings

import (
	"io"
	"os"
	"path/filepath"
	"strings"
)

// FS is the file system a Store keeps its recordings in: the operating
// system's (OS) in a server, a fake one in tests (a disk that fills up).
// Names are plain file names inside the Store's directory.
type FS interface {
	// List returns the recordings (names ending in Ext) and their sizes
	// in bytes, in any order.
	List() ([]FileInfo, error)
	// Create makes a new file, failing if one of that name exists.
	Create(name string) (io.WriteCloser, error)
	// Remove deletes a file.
	Remove(name string) error
}

// FileInfo is a recording in an FS: its name and size in bytes.
type FileInfo struct {
	Name string
	Size int64
}

// OS is the FS of a directory of the operating system's.
type OS string

// List lists the directory's regular files ending in Ext.
func (d OS) List() ([]FileInfo, error) {
	ents, err := os.ReadDir(string(d))
	if err != nil {
		return nil, err
	}
	var out []FileInfo
	for _, e := range ents {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), Ext) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // deleted meanwhile
		}
		out = append(out, FileInfo{e.Name(), info.Size()})
	}
	return out, nil
}

// Create creates name in the directory, exclusively, mode 0644.
func (d OS) Create(name string) (io.WriteCloser, error) {
	return os.OpenFile(filepath.Join(string(d), name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
}

// Remove deletes name from the directory.
func (d OS) Remove(name string) error { return os.Remove(filepath.Join(string(d), name)) }
