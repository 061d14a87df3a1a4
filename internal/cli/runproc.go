package cli

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
)

// isTTY reports whether w is a terminal.
func isTTY(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// startSelfProfile writes stampede's own CPU profile to path until stop.
func startSelfProfile(path string) (stop func(), err error) {
	out, err := os.Create(path)
	if err != nil {
		return nil, usagef("--self-profile: %v", err)
	}
	if err := pprof.StartCPUProfile(out); err != nil {
		out.Close()
		return nil, fmt.Errorf("--self-profile: %w", err)
	}
	return func() { pprof.StopCPUProfile(); out.Close() }, nil
}
