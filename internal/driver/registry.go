package driver

import (
	"context"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"
)

// Options tune a driver for a run.
type Options struct {
	// PoolSize is the number of connections to keep: the run's VU count.
	PoolSize int
	// Timeout bounds each operation; 0 means none.
	Timeout time.Duration
	// Getenv resolves credentials from the environment (may be nil).
	Getenv func(string) string
	// InsecureSkipTLSVerify accepts any server certificate (k6's
	// --insecure-skip-tls-verify). Drivers without TLS ignore it.
	InsecureSkipTLSVerify bool
	// UserAgent is the HTTP User-Agent header; empty means the driver's
	// default ("stampede").
	UserAgent string
}

// Opener creates a driver for a parsed target URL.
type Opener func(ctx context.Context, target *url.URL, opts Options) (Driver, error)

// Registry maps URL schemes to driver openers. Build one per process.
type Registry struct {
	openers map[string]Opener
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{openers: map[string]Opener{}} }

// Register adds an opener for each scheme.
func (r *Registry) Register(o Opener, schemes ...string) {
	for _, s := range schemes {
		r.openers[strings.ToLower(s)] = o
	}
}

// Schemes lists the registered schemes, sorted.
func (r *Registry) Schemes() []string {
	out := make([]string, 0, len(r.openers))
	for s := range r.openers {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// ParseTarget parses and checks a target URL. Errors never echo the
// password.
func (r *Registry) ParseTarget(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return nil, fmt.Errorf("bad target URL %q: want SCHEME://..., schemes: %s", Redact(raw), strings.Join(r.Schemes(), ", "))
	}
	if _, ok := r.openers[strings.ToLower(u.Scheme)]; !ok {
		return nil, fmt.Errorf("unknown target scheme %q in %s (known: %s)", u.Scheme, Redact(raw), strings.Join(r.Schemes(), ", "))
	}
	return u, nil
}

// Open opens a driver for target.
func (r *Registry) Open(ctx context.Context, target *url.URL, opts Options) (Driver, error) {
	o, ok := r.openers[strings.ToLower(target.Scheme)]
	if !ok {
		return nil, fmt.Errorf("unknown target scheme %q", target.Scheme)
	}
	return o(ctx, target, opts)
}

// Redact returns a URL string with any password and secret-looking query
// parameters replaced by "xxxxx", safe for logs, summaries and reports.
func Redact(raw string) string {
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
	return RedactURL(u)
}

// RedactURL is Redact for a parsed URL.
func RedactURL(u *url.URL) string {
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
