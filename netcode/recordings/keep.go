package recordings

import (
	"fmt"
	"strconv"
	"strings"
)

// Keep bounds what a Dir keeps: at most Files recordings, or at most
// Bytes bytes of them (zero means no bound of that kind). The oldest go
// first.
type Keep struct {
	Files int
	Bytes int64
}

// ParseKeep parses a --record-keep value: a count of files such as "50",
// or a total size such as "100MB" (units B, KB, MB, GB, TB, powers of
// 1024; "KiB" and friends are accepted too).
func ParseKeep(s string) (Keep, error) {
	t := strings.TrimSpace(strings.ToUpper(s))
	if n, err := strconv.Atoi(t); err == nil {
		if n < 1 {
			return Keep{}, fmt.Errorf("recordings: keep %q: want at least 1 file", s)
		}
		return Keep{Files: n}, nil
	}
	units := []struct {
		suffix string
		mult   int64
	}{{"TIB", 1 << 40}, {"GIB", 1 << 30}, {"MIB", 1 << 20}, {"KIB", 1 << 10},
		{"TB", 1 << 40}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"B", 1}}
	for _, u := range units {
		num, ok := strings.CutSuffix(t, u.suffix)
		if !ok {
			continue
		}
		n, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
		if err != nil || n <= 0 || n*float64(u.mult) > 1<<62 {
			break
		}
		return Keep{Bytes: int64(n * float64(u.mult))}, nil
	}
	return Keep{}, fmt.Errorf("recordings: keep %q: want a file count like 50 or a size like 100MB", s)
}

// String returns the bound as ParseKeep reads it.
func (k Keep) String() string {
	switch {
	case k.Files > 0:
		return strconv.Itoa(k.Files)
	case k.Bytes%(1<<20) == 0 && k.Bytes > 0:
		return strconv.FormatInt(k.Bytes>>20, 10) + "MB"
	case k.Bytes%(1<<10) == 0 && k.Bytes > 0:
		return strconv.FormatInt(k.Bytes>>10, 10) + "KB"
	case k.Bytes > 0:
		return strconv.FormatInt(k.Bytes, 10) + "B"
	}
	return "unlimited"
}
