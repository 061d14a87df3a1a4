// Package httpopt holds the http family's options: the typed settings
// of the request http.Request sends, which package families/http names
// as http.Options.
package httpopt

import (
	"strings"

	"github.com/stampede-bench/stampede/internal/driver/httpdrv"
	"github.com/stampede-bench/stampede/internal/usage"
)

// Options are the http family's settings: the request http.Request sends.
// Path, Headers and Body may use {{column}} placeholders filled from
// ParamsFile and {{__ENV.KEY}} from the run's -e/--env variables or the
// environment.
type Options struct {
	// Method is the HTTP method (default GET; flag --method).
	Method string
	// Path is the request path and query, starting with / (default "":
	// the target URL's path and query; flag --path).
	Path string
	// Headers are request headers, "Name: value" each (flag --header,
	// repeatable).
	Headers []string
	// Body is the request body (default empty; flag --body).
	Body string
	// ParamsFile is a CSV file with a header line whose columns fill
	// {{column}} placeholders, one row per iteration, round-robin (default
	// none; flag --params).
	ParamsFile string
	// ExpectStatus, when not 0, checks that every response has this
	// status; 0 (the default) passes any status below 400 (flag
	// --expect-status).
	ExpectStatus int
	// Goroutines runs every VU in a goroutine of its own (k6's model).
	// By default plain-HTTP VUs under constant-vus, per-vu-iterations and
	// shared-iterations run as the steps of one event loop per processor
	// (wrk's model), which records the same metrics at less CPU and
	// memory per connection (flag --http-goroutines).
	Goroutines bool
}

// DefaultOptions returns the defaults: GET of the target URL.
func DefaultOptions() Options {
	return Options{Method: "GET"}
}

// Validate returns the first problem of o as a usage error. A path or
// header with placeholders is checked when the family opens, once they are
// filled (they need ParamsFile's columns and the environment).
//
// Requests are what the user typed: the method is an RFC 9110 token, a
// header name a token and its value free of CR, LF and NUL, the path free
// of whitespace and control characters, and --expect-status 100 to 599.
func (o *Options) Validate() error {
	if err := httpdrv.CheckMethod(o.Method); err != nil {
		return usage.Errorf("--%v", err)
	}
	if o.ExpectStatus != 0 {
		if httpdrv.CheckStatus(o.ExpectStatus) != nil {
			return usage.Errorf("--expect-status %d: HTTP status codes are 100 to 599", o.ExpectStatus)
		}
	}
	if o.Path != "" && !strings.Contains(o.Path, "{{") && !strings.HasPrefix(o.Path, "/") {
		return usage.Errorf("--path %q must start with /", o.Path)
	}
	if !strings.Contains(o.Path, "{{") {
		if err := httpdrv.CheckTarget(o.Path); err != nil {
			return usage.Errorf("--%v", err)
		}
	}
	for _, h := range o.Headers {
		if !strings.Contains(h, "{{") {
			if err := httpdrv.CheckHeader(h); err != nil {
				return usage.Errorf("--%v", err)
			}
		}
	}
	return nil
}
