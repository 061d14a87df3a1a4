package stampede

import (
	"github.com/stampede-bench/stampede/internal/workload/builtin"
	"github.com/stampede-bench/stampede/internal/workload/httpload"
	"github.com/stampede-bench/stampede/internal/workload/ldbc"
	"github.com/stampede-bench/stampede/internal/workload/mq"
	"github.com/stampede-bench/stampede/internal/workload/natsload"
)

// The built-in families, built from typed options without any flag
// library: start from the Default…Options function, change fields (each
// documents its unit, default and run flag), Validate, then make the
// family and name it in a Plan or a NewCatalog. A family made here binds
// its run flags when a command line is built around it; its options are
// the flags' defaults.

// GraphOptions are the graph/LDBC family's options (go.Go1Step,
// find_path.FindShortestPath, ...): data set, scale factor, batch size,
// parameter order, answer checks.
type GraphOptions = ldbc.Options

// DefaultGraphOptions returns the graph family's defaults.
func DefaultGraphOptions() GraphOptions { return ldbc.DefaultOptions() }

// GraphFamily returns the graph family with options o.
func GraphFamily(o GraphOptions) Family { return ldbc.New(o) }

// HTTPOptions are the http family's options: the request http.Request
// sends.
type HTTPOptions = httpload.Options

// DefaultHTTPOptions returns the http family's defaults (GET of the
// target URL).
func DefaultHTTPOptions() HTTPOptions { return httpload.DefaultOptions() }

// HTTPFamily returns the http family with options o.
func HTTPFamily(o HTTPOptions) Family { return httpload.New(o) }

// BuiltinOptions are the builtin family's options (builtin.Noop,
// builtin.Sleep).
type BuiltinOptions = builtin.Options

// DefaultBuiltinOptions returns the builtin family's defaults.
func DefaultBuiltinOptions() BuiltinOptions { return builtin.DefaultOptions() }

// BuiltinFamily returns the builtin family with options o.
func BuiltinFamily(o BuiltinOptions) Family { return builtin.New(o) }

// KafkaOptions are the kafka family's options, including its
// high-throughput and high-reliability profiles (KafkaOptions.Profile,
// ApplyProfile).
type KafkaOptions = mq.Options

// DefaultKafkaOptions returns the kafka family's defaults: the
// high-throughput profile.
func DefaultKafkaOptions() KafkaOptions { return mq.DefaultOptions() }

// KafkaFamily returns the kafka family with options o.
func KafkaFamily(o KafkaOptions) Family { return mq.New(o) }

// NATSOptions are the nats family's options, including its profiles.
type NATSOptions = natsload.Options

// DefaultNATSOptions returns the nats family's defaults: the
// high-throughput profile.
func DefaultNATSOptions() NATSOptions { return natsload.DefaultOptions() }

// NATSFamily returns the nats family with options o.
func NATSFamily(o NATSOptions) Family { return natsload.New(o) }
