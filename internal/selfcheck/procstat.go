package selfcheck

import (
	"bytes"
	"strconv"
)

// parseProcStat reads the aggregate "cpu" line of /proc/stat: total time
// and busy time (all but idle and iowait; stolen time counts as busy, as
// it is lost to this machine), in clock ticks.
func parseProcStat(b []byte) (busy, total uint64) {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	f := bytes.Fields(line)
	if len(f) < 5 || string(f[0]) != "cpu" {
		return 0, 0
	}
	var idle uint64
	for i, x := range f[1:] {
		if i >= 8 { // guest times are already in user and nice
			break
		}
		v, err := strconv.ParseUint(string(x), 10, 64)
		if err != nil {
			return 0, 0
		}
		total += v
		if i == 3 || i == 4 { // idle, iowait
			idle += v
		}
	}
	return total - idle, total
}
