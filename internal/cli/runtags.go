package cli

import (
	"sort"
	"strings"
)

// isReservedTag reports whether name is a tag stampede (or k6) sets on
// samples itself: a --tag of that name would replace the run's own value
// (--tag scenario=x would relabel every scenario), so it is refused.
func isReservedTag(name string) bool {
	switch name {
	case "scenario", "group", "check", "name", "method", "status", "url", "proto", "subproto",
		"expected_response", "error", "error_code", "tls_version", "vu", "iter", "metric", "result":
		return true
	}
	return strings.HasPrefix(name, "__")
}

// checkTagNames refuses reserved tag names (see isReservedTag).
func checkTagNames(tags map[string]string) error {
	var bad []string
	for k := range tags {
		if isReservedTag(k) {
			bad = append(bad, k)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Strings(bad)
	return usagef("--tag %s=…: %q is a tag stampede sets itself on every sample; pick another name", bad[0], bad[0])
}
