// Package families is stampede's built-in workload families, built from
// typed options without any flag library, and the catalog of all of them
// (Builtins). The package stampede does not import it: a program that
// does not use a built-in family links none.
package families

import (
	"github.com/stampede-bench/stampede"
	"github.com/stampede-bench/stampede/internal/plugins"
	"github.com/stampede-bench/stampede/internal/workload/builtin"
	"github.com/stampede-bench/stampede/internal/workload/httpload"
	"github.com/stampede-bench/stampede/internal/workload/ldbc"
	"github.com/stampede-bench/stampede/internal/workload/mq"
	"github.com/stampede-bench/stampede/internal/workload/natsload"
)

// The built-in families, built from typed options without any flag
// library: start from the Default…Options function, change fields (each
// documents its unit, default and run flag), Validate, then make the
// family and name it in a stampede.Plan or a stampede.NewCatalog. A family made here binds
// its run flags when a command line is built around it; its options are
// the flags' defaults.

// GraphOptions are the graph/LDBC family's options (go.Go1Step,
// find_path.FindShortestPath, ...). Fields (default; run flag):
//
//	Data          string   // the LDBC data set directory ("": DATA_DIR/ldbc-sfSF, generated when missing; --data)
//	SF            float64  // scale factor of a generated data set (0.1; --sf)
//	BatchSize     int      // persons or edges per insert statement (100; --batch-size)
//	ParamOrder    string   // "roundrobin" (the default, shared by the VUs) or "random" (seeded; --param-order)
//	CheckSample   int      // check every Nth iteration of each VU against the reference, 0: none (100; --check-sample)
//	MaxDepth      int      // most hops of find_path.FindShortestPath, 1 to 12 (6; --max-depth)
//	ScenarioFiles []string // YAML files of custom graph scenarios (--scenario-file; docs/graph.md)
//	DateFormat    string   // "iso", "millis" or "auto" (either, per value) ("auto"; --date-format)
//	MaxRejected   string   // rows the embedded load may reject: a count or "0.1%" ("0"; --max-rejected)
type GraphOptions = ldbc.Options

// DefaultGraphOptions returns the graph family's defaults.
func DefaultGraphOptions() GraphOptions { return ldbc.DefaultOptions() }

// GraphFamily returns the graph family with options o.
func GraphFamily(o GraphOptions) stampede.Family { return ldbc.New(o) }

// HTTPOptions are the http family's options: the request http.Request
// sends. Fields (default; run flag):
//
//	Method       string   // GET; --method
//	Path         string   // path and query from "/" ("": the target URL's; --path)
//	Headers      []string // "Name: value" each (--header)
//	Body         string   // the request body (--body)
//	ParamsFile   string   // a CSV file whose columns fill {{column}} placeholders, a row per iteration (--params)
//	ExpectStatus int      // the status every response must have (0: any below 400; --expect-status)
type HTTPOptions = httpload.Options

// DefaultHTTPOptions returns the http family's defaults (GET of the
// target URL).
func DefaultHTTPOptions() HTTPOptions { return httpload.DefaultOptions() }

// HTTPFamily returns the http family with options o.
func HTTPFamily(o HTTPOptions) stampede.Family { return httpload.New(o) }

// BuiltinOptions are the builtin family's options (builtin.Noop,
// builtin.Sleep). Fields (default; run flag):
//
//	Sleep time.Duration // the pause of each builtin.Sleep iteration (1s; --sleep)
type BuiltinOptions = builtin.Options

// DefaultBuiltinOptions returns the builtin family's defaults.
func DefaultBuiltinOptions() BuiltinOptions { return builtin.DefaultOptions() }

// BuiltinFamily returns the builtin family with options o.
func BuiltinFamily(o BuiltinOptions) stampede.Family { return builtin.New(o) }

// KafkaOptions are the kafka family's options, including its
// high-throughput and high-reliability profiles (Profile, ApplyProfile):
// brokers of the embedded cluster, topics, partitions, replication,
// producers, consumers, acks, linger, batching, compression,
// idempotence, message size and payload. Each field's unit, default and
// run flag: `go doc github.com/stampede-bench/stampede/internal/workload/mq
// Options`, or `stampede run --help`.
type KafkaOptions = mq.Options

// DefaultKafkaOptions returns the kafka family's defaults: the
// high-throughput profile.
func DefaultKafkaOptions() KafkaOptions { return mq.DefaultOptions() }

// KafkaFamily returns the kafka family with options o.
func KafkaFamily(o KafkaOptions) stampede.Family { return mq.New(o) }

// NATSOptions are the nats family's options, including its profiles
// (Profile, ApplyProfile): nodes of the embedded cluster, streams,
// replicas, storage, publish mode and window, fsync, message size,
// consumers, stream limits and churn. Each field's unit, default and run
// flag: `go doc
// github.com/stampede-bench/stampede/internal/workload/natsload Options`,
// or `stampede run --help`.
type NATSOptions = natsload.Options

// DefaultNATSOptions returns the nats family's defaults: the
// high-throughput profile.
func DefaultNATSOptions() NATSOptions { return natsload.DefaultOptions() }

// NATSFamily returns the nats family with options o.
func NATSFamily(o NATSOptions) stampede.Family { return natsload.New(o) }

// Builtins returns a catalog of stampede's own families: graph/LDBC
// (go.Go1Step, find_path.FindShortestPath, ...), http, builtin (Noop,
// Sleep), kafka and nats, each made anew for every command (their options
// are the command's flags). Add a program's own families with Add.
func Builtins() *stampede.Catalog {
	c := stampede.NewCatalog()
	for _, f := range plugins.Constructors() {
		c.AddFunc(f)
	}
	return c
}
