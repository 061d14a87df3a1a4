package httpload

import (
	"strings"

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
}

// DefaultOptions returns the defaults: GET of the target URL.
func DefaultOptions() Options {
	return Options{Method: "GET"}
}

// Validate returns the first problem of o as a usage error. A path or
// header with placeholders is checked when the family opens, once they are
// filled (they need ParamsFile's columns and the environment).
func (o *Options) Validate() error {
	if o.Path != "" && !strings.Contains(o.Path, "{{") && !strings.HasPrefix(o.Path, "/") {
		return usage.Errorf("--path %q must start with /", o.Path)
	}
	for _, h := range o.Headers {
		if !strings.Contains(h, "{{") && !strings.Contains(h, ":") {
			return usage.Errorf("--header %q: want 'Name: value'", h)
		}
	}
	return nil
}
