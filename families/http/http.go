// Package http is the http family (http.Request): one templated HTTP
// request per iteration.
//
// Build it from typed options without any flag library: start from
// DefaultOptions, change fields (each documents its unit, default and run
// flag), Validate, then name New(opts) in a stampede.Plan or a
// stampede.NewCatalog. A program that imports this package links this
// family and its drivers only. The family binds its run flags when a
// command line (cmdline.Main) is built around it; its options are the
// flags' defaults.
package http

import (
	"github.com/stampede-bench/stampede"
	"github.com/stampede-bench/stampede/families/http/httpopt"
	family "github.com/stampede-bench/stampede/internal/workload/http"
)

// Options are the http family's options: the request http.Request
// sends. Fields (default; run flag):
//
//	Method       string   // GET; --method
//	Path         string   // path and query from "/" ("": the target URL's; --path)
//	Headers      []string // "Name: value" each (--header)
//	Body         string   // the request body (--body)
//	ParamsFile   string   // a CSV file whose columns fill {{column}} placeholders, a row per iteration (--params)
//	ExpectStatus int      // the status every response must have (0: any below 400; --expect-status)
type Options = httpopt.Options

// DefaultOptions returns the http family's defaults (GET of the
// target URL).
func DefaultOptions() Options { return httpopt.DefaultOptions() }

// New returns the http family with options o.
func New(o Options) stampede.Family { return family.New(o) }
