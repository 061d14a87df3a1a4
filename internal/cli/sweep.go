package cli

import "strings"

// sweepInfoMap turns the hidden run flag --sweep-info KEY=VALUE (repeated)
// into options.json's sweep map (nil when absent).
func sweepInfoMap(kvs []string) map[string]string {
	if len(kvs) == 0 {
		return nil
	}
	out := make(map[string]string, len(kvs))
	for _, kv := range kvs {
		k, v, _ := strings.Cut(kv, "=")
		out[k] = v
	}
	return out
}
