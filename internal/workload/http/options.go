package http

import "github.com/stampede-bench/stampede/families/http/httpopt"

// Options are the http family's settings (the request http.Request
// sends), declared in the public package httpopt.
type Options = httpopt.Options

// DefaultOptions returns the defaults: GET of the target URL.
func DefaultOptions() Options { return httpopt.DefaultOptions() }
