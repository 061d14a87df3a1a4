package cli

import (
	"sort"
	"strings"

	"github.com/stampede-bench/stampede/internal/driver"
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

// isSecretTag reports whether a tag's value is a credential: its name
// looks like one (token, key, secret, password, auth, session, credential:
// the rule of secret headers) or was given with --secret-tag.
func isSecretTag(name string, marked []string) bool {
	return driver.IsSecretHeader(name, marked...)
}

// redactTags returns tags with the value of every secret tag replaced by
// xxxxx: the value then reaches no output (streams, summary, report,
// Prometheus, InfluxDB), only the name does.
func redactTags(tags map[string]string, marked []string) map[string]string {
	if len(tags) == 0 {
		return tags
	}
	out := make(map[string]string, len(tags))
	for k, v := range tags {
		if isSecretTag(k, marked) {
			v = "xxxxx"
		}
		out[k] = v
	}
	return out
}

// markedTags returns the tag names given with --secret-tag in args.
func markedTags(args []string) []string {
	var out []string
	for i, a := range args {
		if a == "--secret-tag" && i+1 < len(args) {
			out = append(out, args[i+1])
		}
		if v, ok := strings.CutPrefix(a, "--secret-tag="); ok {
			out = append(out, v)
		}
	}
	return out
}

// redactTagArgs hides the values of secret tags (--tag apitoken=…) in
// recorded arguments.
func redactTagArgs(args []string) []string {
	marked := markedTags(args)
	out := append([]string(nil), args...)
	hide := func(kv string) string {
		k, _, ok := strings.Cut(kv, "=")
		if !ok || !isSecretTag(strings.TrimSpace(k), marked) {
			return kv
		}
		return k + "=xxxxx"
	}
	for i, a := range out {
		switch {
		case i > 0 && args[i-1] == "--tag":
			out[i] = hide(a)
		case strings.HasPrefix(a, "--tag="):
			out[i] = "--tag=" + hide(a[len("--tag="):])
		}
	}
	return out
}

// namesSecret reports whether a flag's value is a name or a path rather
// than a secret, although the flag's name says "secret": --secret-header
// X-Custom names a header; the value is the header's, not X-Custom.
func namesSecret(flag string) bool {
	name, _, _ := strings.Cut(strings.TrimLeft(flag, "-"), "=")
	switch name {
	case "secret-header", "secret-tag", "secret-file":
		return true
	}
	return false
}
