package driver

import (
	"context"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/internal/redact"
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

// Registry maps URL schemes to driver openers, and knows the schemes
// that families open by themselves (Accept). Build one per process.
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

// Accept makes ParseTarget accept schemes that no driver opens: the
// targets of families that dial them with clients of their own (the
// kafka and nats families parse kafka:// and nats:// themselves). Open
// refuses them; a scheme that has an opener keeps it.
func (r *Registry) Accept(schemes ...string) {
	for _, s := range schemes {
		s = strings.ToLower(s)
		if _, ok := r.openers[s]; !ok {
			r.openers[s] = nil
		}
	}
}

// Schemes lists the registered and accepted schemes, sorted.
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
		return nil, fmt.Errorf("bad target URL %q: want SCHEME://..., schemes: %s", redact.URL(raw), strings.Join(r.Schemes(), ", "))
	}
	if _, ok := r.openers[strings.ToLower(u.Scheme)]; !ok {
		return nil, fmt.Errorf("unknown target scheme %q in %s (known: %s)", u.Scheme, redact.URL(raw), strings.Join(r.Schemes(), ", "))
	}
	return u, nil
}

// Open opens a driver for target.
func (r *Registry) Open(ctx context.Context, target *url.URL, opts Options) (Driver, error) {
	o, ok := r.openers[strings.ToLower(target.Scheme)]
	if !ok {
		return nil, fmt.Errorf("unknown target scheme %q", target.Scheme)
	}
	if o == nil {
		return nil, fmt.Errorf("no driver opens %s:// targets: their family connects by itself", target.Scheme)
	}
	return o(ctx, target, opts)
}
