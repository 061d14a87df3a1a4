// Package redact hides credentials in what stampede writes out: a target
// URL's password and secret-looking query parameters, the values of
// secret HTTP headers. It imports the standard library only, so that
// every layer may use it, the driver interface included; which flags,
// tags and arguments of a command line are credentials is
// internal/secret's business.
package redact

import (
	"net/url"
	"strings"
)

// URL returns a URL string with any password and secret-looking query
// parameters replaced by "xxxxx", safe for logs, summaries and reports.
func URL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		// Unparsable: cut anything between "://" and "@".
		if i := strings.Index(raw, "://"); i >= 0 {
			if j := strings.LastIndex(raw, "@"); j > i {
				return raw[:i+3] + "xxxxx" + raw[j:]
			}
		}
		return raw
	}
	return ParsedURL(u)
}

// ParsedURL is URL for a parsed URL.
func ParsedURL(u *url.URL) string {
	c := *u
	if c.User != nil {
		if _, has := c.User.Password(); has {
			c.User = url.UserPassword(c.User.Username(), "xxxxx")
		}
	}
	if q := c.Query(); len(q) > 0 {
		changed := false
		for k := range q {
			if isSecretKey(k) {
				q.Set(k, "xxxxx")
				changed = true
			}
		}
		if changed {
			c.RawQuery = q.Encode()
		}
	}
	return c.String()
}

func isSecretKey(k string) bool {
	k = strings.ToLower(k)
	for _, s := range []string{"password", "passwd", "secret", "token", "key", "sasl"} {
		if strings.Contains(k, s) {
			return true
		}
	}
	return false
}
