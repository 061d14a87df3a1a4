package http

import (
	"fmt"
	"strings"
)

// envPrefix starts a k6-style environment placeholder: {{__ENV.NAME}}.
const envPrefix = "__ENV."

// expandEnv replaces every {{__ENV.NAME}} in s with NAME's value from
// lookup (-e/--env values, then the process environment), as k6 scripts
// read __ENV.NAME. The value is inserted as is. An unknown NAME is an error.
func expandEnv(s string, lookup func(string) (string, bool)) (string, error) {
	var b strings.Builder
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			b.WriteString(s)
			return b.String(), nil // compile reports the unclosed {{
		}
		name := strings.TrimSpace(s[i+2 : i+j])
		key, isEnv := strings.CutPrefix(name, envPrefix)
		b.WriteString(s[:i])
		if !isEnv {
			b.WriteString(s[i : i+j+2]) // a --params column: compile's business
		} else {
			v, ok := lookup(key)
			if !ok {
				return "", fmt.Errorf("placeholder {{%s}}: %s is not set (give it with -e %s=VALUE)", name, key, key)
			}
			b.WriteString(v)
		}
		s = s[i+j+2:]
	}
}
