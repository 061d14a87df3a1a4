package run

import (
	"sort"
	"strings"

	"github.com/stampede-bench/stampede/internal/usage"
)

// IsReservedTag reports whether name is a tag stampede (or k6) sets on
// samples itself: a --tag of that name would replace the run's own value
// (--tag scenario=x would relabel every scenario), so it is refused.
func IsReservedTag(name string) bool {
	switch name {
	case "scenario", "group", "check", "name", "method", "status", "url", "proto", "subproto",
		"expected_response", "error", "error_code", "tls_version", "vu", "iter", "metric", "result":
		return true
	}
	return strings.HasPrefix(name, "__")
}

// CheckTagNames refuses reserved tag names (see IsReservedTag).
func CheckTagNames(tags map[string]string) error {
	var bad []string
	for k := range tags {
		if IsReservedTag(k) {
			bad = append(bad, k)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Strings(bad)
	return usage.Errorf("--tag %s=…: %q is a tag stampede sets itself on every sample; pick another name", bad[0], bad[0])
}
