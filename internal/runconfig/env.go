package runconfig

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/internal/usage"
)

// ApplyEnv sets every flag of fs that was not given (and that pick
// accepts; nil: every flag) from the environment variable prefix+NAME,
// upper case with dashes as underscores: STAMPEDE_VUS=100 for --vus,
// K6_WEB_DASHBOARD=true for --web-dashboard. A flag set once is Changed,
// so a later ApplyEnv with another prefix leaves it alone. A bad value is
// a usage error naming the variable.
func ApplyEnv(fs *pflag.FlagSet, getenv func(string) string, prefix string, pick func(name string) bool) error {
	var err error
	fs.VisitAll(func(fl *pflag.Flag) {
		if fl.Changed || err != nil || (pick != nil && !pick(fl.Name)) {
			return
		}
		key := prefix + strings.ToUpper(strings.ReplaceAll(fl.Name, "-", "_"))
		if v := getenv(key); v != "" {
			if serr := fs.Set(fl.Name, v); serr != nil {
				err = usage.Errorf("%s=%q: %v", key, v, serr)
			}
		}
	})
	return err
}

// ParseKV parses the KEY=VALUE values of flag (-e, --tag): a key is not
// empty and holds no space, brace, comma, quote or "="; nil without
// values. A bad one is a usage error.
func ParseKV(flag string, values []string) (map[string]string, error) {
	if len(values) == 0 {
		return nil, nil
	}
	m := map[string]string{}
	for _, v := range values {
		key, val, ok := strings.Cut(v, "=")
		key = strings.TrimSpace(key)
		if !ok || key == "" || strings.ContainsAny(key, " {},=\"") {
			return nil, usage.Errorf("%s %q: want KEY=VALUE", flag, v)
		}
		m[key] = val
	}
	return m, nil
}
