package http

import "github.com/stampede-bench/stampede/flags"

// BindFlags implements workload.FlagBinder.
func (f *Family) BindFlags(fs flags.Set) {
	o := &f.opts
	fs.StringVar(&o.Method, "method", o.Method, "HTTP method")
	fs.StringVar(&o.Path, "path", o.Path, "request path and query, may use {{column}} from --params (default: the target URL's path)")
	fs.StringArrayVar(&o.Headers, "header", o.Headers, "request header 'Name: value' (repeatable, may use {{column}})")
	fs.StringVar(&o.Body, "body", o.Body, "request body, may use {{column}} from --params")
	fs.StringVar(&o.ParamsFile, "params", o.ParamsFile, "CSV file with a header line whose columns fill {{column}} placeholders, one row per iteration (round-robin)")
	fs.BoolVar(&o.Goroutines, "http-goroutines", o.Goroutines, "run each VU in a goroutine of its own (k6's model) instead of one event loop per processor for plain-HTTP VUs under constant-vus, per-vu-iterations and shared-iterations")
	fs.IntVar(&o.ExpectStatus, "expect-status", o.ExpectStatus, "check that every response has this status (default: any status below 400 passes)")
}
