package recordings

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
)

// ErrOutgrow means a recording was not written because it would take the
// directory beyond its Keep bound although every finished recording has
// gone: the recording in progress alone is too large (or, with a count
// bound, every recording kept is a match in progress).
var ErrOutgrow = errors.New("recordings: the match would outgrow the --record-keep bound")

// Store is a directory of recordings and its Keep bound, shared by the
// Dirs of a server's rooms. It holds the bound at all times, counting the
// recordings in progress: before a byte is written it deletes the oldest
// finished recordings as needed, and refuses the write (ErrOutgrow) when
// none is left to delete. Every deletion is logged. A Store is safe for
// concurrent use.
type Store struct {
	fs   FS
	keep Keep
	log  *slog.Logger

	mu    sync.Mutex
	files []entry // by name: start time, so age
	total int64   // bytes of files
}

// entry is a recording: its name, its bytes on disk (or reserved for a
// write under way) and whether a Dir still writes it.
type entry struct {
	name string
	size int64
	live bool
}

// NewStore creates the directory path if needed and returns a Store of
// the recordings in it, bounded by keep; log receives every deletion.
func NewStore(path string, keep Keep, log *slog.Logger) (*Store, error) {
	if err := os.MkdirAll(path, 0o755); err != nil {
		return nil, fmt.Errorf("recordings: %w", err)
	}
	return NewStoreFS(OS(path), keep, log)
}

// NewStoreFS returns a Store of the recordings in fs.
func NewStoreFS(fs FS, keep Keep, log *slog.Logger) (*Store, error) {
	s := &Store{fs: fs, keep: keep, log: log}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.rescan(); err != nil {
		return nil, fmt.Errorf("recordings: %w", err)
	}
	return s, nil
}

// Bytes returns the total size of the recordings, in progress included,
// as the Store counts them.
func (s *Store) Bytes() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total
}

// rescan reads the directory again (an operator may have deleted or
// copied files): the recordings in progress keep their own counts.
func (s *Store) rescan() error {
	list, err := s.fs.List()
	if err != nil {
		return err
	}
	var files []entry
	var total int64
	for _, f := range list {
		if i := s.find(f.Name); i >= 0 && s.files[i].live {
			continue
		}
		files = append(files, entry{name: f.Name, size: f.Size})
		total += f.Size
	}
	for _, e := range s.files {
		if e.live {
			files = append(files, e)
			total += e.size
		}
	}
	slices.SortFunc(files, func(a, b entry) int { return strings.Compare(a.name, b.name) })
	s.files, s.total = files, total
	return nil
}

func (s *Store) find(name string) int {
	for i := range s.files {
		if s.files[i].name == name {
			return i
		}
	}
	return -1
}

// begin adds a recording in progress, name, deleting the oldest finished
// recordings if a count bound needs room for it.
func (s *Store) begin(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.rescan(); err != nil {
		s.log.Error("recording: listing the directory", "err", err)
	}
	if s.find(name) >= 0 {
		return fmt.Errorf("recordings: %s exists", name)
	}
	if s.keep.Files > 0 {
		s.deleteOldest(func() bool { return len(s.files)+1 > s.keep.Files })
		if len(s.files)+1 > s.keep.Files {
			return fmt.Errorf("%w: every one of the %d recordings kept is a match in progress", ErrOutgrow, len(s.files))
		}
	}
	s.files = append(s.files, entry{name: name, live: true})
	slices.SortFunc(s.files, func(a, b entry) int { return strings.Compare(a.name, b.name) })
	return nil
}

// grow reserves n more bytes for the recording in progress name,
// deleting the oldest finished recordings as the size bound needs; it
// fails with ErrOutgrow when they are all gone and n does not fit.
func (s *Store) grow(name string, n int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := s.find(name)
	if i < 0 {
		return fmt.Errorf("recordings: %s is not recorded", name)
	}
	if s.keep.Bytes > 0 {
		s.deleteOldest(func() bool { return s.total+int64(n) > s.keep.Bytes })
		if s.total+int64(n) > s.keep.Bytes {
			return fmt.Errorf("%w: %s would reach %d bytes, the directory %d of at most %d",
				ErrOutgrow, name, s.files[s.find(name)].size+int64(n), s.total+int64(n), s.keep.Bytes)
		}
		i = s.find(name)
	}
	s.files[i].size += int64(n)
	s.total += int64(n)
	return nil
}

// shrink gives back n bytes grow reserved for name that did not reach
// the disk.
func (s *Store) shrink(name string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i := s.find(name); i >= 0 {
		s.files[i].size -= int64(n)
		s.total -= int64(n)
	}
}

// finish marks name finished: it may be deleted from now on. removed
// says its file was deleted (or never made): it leaves the Store.
func (s *Store) finish(name string, removed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := s.find(name)
	if i < 0 {
		return
	}
	if removed {
		s.total -= s.files[i].size
		s.files = slices.Delete(s.files, i, i+1)
		return
	}
	s.files[i].live = false
}

// deleteOldest deletes the oldest finished recordings while over says
// the bound is exceeded, logging each.
func (s *Store) deleteOldest(over func() bool) {
	for i := 0; i < len(s.files) && over(); {
		e := s.files[i]
		if e.live {
			i++
			continue
		}
		if err := s.fs.Remove(e.name); err != nil && !errors.Is(err, os.ErrNotExist) {
			s.log.Error("recording: deleting an old recording", "file", e.name, "err", err)
			i++
			continue
		}
		s.log.Info("recording deleted", "file", e.name, "bytes", e.size, "reason", "--record-keep "+s.keep.String())
		s.total -= e.size
		s.files = slices.Delete(s.files, i, i+1)
	}
}
