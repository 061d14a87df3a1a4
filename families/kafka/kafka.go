// Package kafka is the kafka family: producers and consumers on an
// embedded Kafka stand-in (kfake) or a real cluster.
//
// Build it from typed options without any flag library: start from
// DefaultOptions, change fields (each documents its unit, default and run
// flag), Validate, then name New(opts) in a stampede.Plan or a
// stampede.NewCatalog. A program that imports this package links this
// family and its drivers only. The family binds its run flags when a
// command line (cmdline.Main) is built around it; its options are the
// flags' defaults.
package kafka

import (
	"github.com/stampede-bench/stampede"
	"github.com/stampede-bench/stampede/families/kafka/kafkaopt"
	family "github.com/stampede-bench/stampede/internal/workload/kafka"
)

// Options are the kafka family's options, including its
// high-throughput and high-reliability profiles (Profile, ApplyProfile):
// brokers of the embedded cluster, topics, partitions, replication,
// producers, consumers, acks, linger, batching, compression,
// idempotence, message size and payload. Each field's unit, default and
// run flag: `go doc github.com/stampede-bench/stampede/families/kafka/kafkaopt
// Options`, or `stampede run --help`.
type Options = kafkaopt.Options

// DefaultOptions returns the kafka family's defaults: the
// high-throughput profile.
func DefaultOptions() Options { return kafkaopt.DefaultOptions() }

// New returns the kafka family with options o.
func New(o Options) stampede.Family { return family.New(o) }
