package cli

import (
	"os"
	"runtime/pprof"
)

// startCPUProfile starts serve --cpuprofile's profile of the whole run,
// written to file; the returned stop ends it and closes the file.
func startCPUProfile(file string) (stop func(), err error) {
	pf, err := os.Create(file)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(pf); err != nil {
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		_ = pf.Close()
	}, nil
}
