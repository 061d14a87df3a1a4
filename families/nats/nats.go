// Package nats is the nats family: JetStream publishers and consumers on
// an embedded NATS cluster or a real one.
//
// Build it from typed options without any flag library: start from
// DefaultOptions, change fields (each documents its unit, default and run
// flag), Validate, then name New(opts) in a stampede.Plan or a
// stampede.NewCatalog. A program that imports this package links this
// family and its drivers only. The family binds its run flags when a
// command line (cmdline.Main) is built around it; its options are the
// flags' defaults.
package nats

import (
	"github.com/stampede-bench/stampede"
	"github.com/stampede-bench/stampede/families/nats/natsopt"
	family "github.com/stampede-bench/stampede/internal/workload/nats"
)

// Options are the nats family's options, including its profiles
// (Profile, ApplyProfile): nodes of the embedded cluster, streams,
// replicas, storage, publish mode and window, fsync, message size,
// consumers, stream limits and churn. Each field's unit, default and run
// flag: `go doc
// github.com/stampede-bench/stampede/families/nats/natsopt Options`,
// or `stampede run --help`.
type Options = natsopt.Options

// DefaultOptions returns the nats family's defaults: the
// high-throughput profile.
func DefaultOptions() Options { return natsopt.DefaultOptions() }

// New returns the nats family with options o.
func New(o Options) stampede.Family { return family.New(o) }
