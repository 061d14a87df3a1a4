package profile

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// StartSelf writes this process's own CPU profile (stampede's, for
// --self-profile) to path until stop is called; path "" profiles nothing.
func StartSelf(path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	out, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(out); err != nil {
		out.Close()
		os.Remove(path)
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return func() { pprof.StopCPUProfile(); out.Close() }, nil
}
