package selfcheck

import "runtime/metrics"

// runtimeBytes is the memory the Go runtime has mapped and not released:
// an approximation of the resident size where /proc is missing.
func runtimeBytes() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[1].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64() - s[1].Value.Uint64())
}
