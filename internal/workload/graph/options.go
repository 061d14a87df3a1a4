package graph

import (
	"github.com/stampede-bench/stampede/families/graph/graphopt"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
	"github.com/stampede-bench/stampede/internal/workload/graph/loader"
)

// Options are the graph family's settings, declared in the public package
// graphopt. The flag of each is named in its comment.
type Options = graphopt.Options

// DefaultOptions returns the defaults of a bare `stampede run`.
func DefaultOptions() Options { return graphopt.DefaultOptions() }

// checkRanges checks the numeric and enumerated options: Validate of o
// with the others (scale factor, date format, rejection limit) at their
// defaults, which are valid, so that only the ranges can fail.
func checkRanges(o *Options) error {
	r := *o
	def := DefaultOptions()
	r.SF, r.DateFormat, r.MaxRejected = def.SF, def.DateFormat, def.MaxRejected
	return r.Validate()
}

// parse validates o and returns its parsed date format and rejection
// limit.
func parse(o *Options) (ldbcfile.DateFormat, loader.Limit, error) {
	var dates ldbcfile.DateFormat
	var limit loader.Limit
	if err := o.Validate(); err != nil {
		return dates, limit, err
	}
	dates, _ = ldbcfile.ParseDateFormat(o.DateFormat)
	limit, _ = loader.ParseLimit(o.MaxRejected)
	return dates, limit, nil
}
