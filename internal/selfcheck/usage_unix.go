//go:build unix

package selfcheck

import (
	"bytes"
	"os"
	"strconv"

	"github.com/stampede-bench/stampede/internal/cputime"
)

// ProcessUsage reads this process's CPU time (package cputime) and its
// resident memory from /proc/self/statm (Linux) or, elsewhere, from the Go
// runtime's view of mapped memory.
func ProcessUsage() (Usage, error) {
	u := Usage{CPU: cputime.Process(), RSS: residentBytes(), Throttle: readThrottle(osReadFile)}
	if b, err := os.ReadFile("/proc/stat"); err == nil {
		u.HostBusy, u.HostTotal = parseProcStat(b)
	}
	return u, nil
}

func residentBytes() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return runtimeBytes()
	}
	f := bytes.Fields(b)
	if len(f) < 2 {
		return runtimeBytes()
	}
	pages, err := strconv.ParseInt(string(f[1]), 10, 64)
	if err != nil {
		return runtimeBytes()
	}
	return pages * int64(os.Getpagesize())
}
