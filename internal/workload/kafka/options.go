package kafka

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stampede-bench/stampede/families/kafka/kafkaopt"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/internal/workload/kafka/kafkaconf"
)

// Options are the kafka family's settings, declared in the public
// package kafkaopt. Each field's comment gives its unit, its default
// (DefaultOptions) and the run flag that sets it. Start from
// DefaultOptions, change fields, then Validate.
type Options = kafkaopt.Options

// Flag names whose values a profile may set, as kafkaopt's profile table
// spells them (TestProfileSettingsAreFlags).
const (
	flagPartitions  = "partitions"
	flagRF          = "replication-factor"
	flagAcks        = "acks"
	flagMinISR      = "min-insync-replicas"
	flagFlushMsgs   = "flush-messages"
	flagIdempotence = "idempotence"
)

// DefaultOptions returns the defaults of a bare `stampede run
// kafka.Produce`: the high-throughput profile.
func DefaultOptions() Options { return kafkaopt.DefaultOptions() }

// acks is the parsed --acks of o.
func acks(o *Options) (kgo.Acks, error) { return kafkaconf.Acks(o.Acks) }

// codec is the parsed --compression-type of o.
func codec(o *Options) (kgo.CompressionCodec, error) { return kafkaconf.Codec(o.Compression) }

// idempotent resolves --idempotence: Kafka allows idempotence only with
// acks=all.
func idempotent(o *Options) (bool, error) { return kafkaconf.Idempotent(o.Acks, o.Idempotence) }

// topicConfigs collects the topic configs set by options and
// --topic-config, the latter winning.
func topicConfigs(o *Options) (map[string]string, error) {
	return kafkaconf.TopicConfigs(o.MinInsyncReplicas, o.FlushMessages, o.FlushMs, o.TopicConfigs)
}

// topicNames lists the load topics.
func topicNames(o *Options) []string { return workload.NumberedNames(o.TopicPrefix, o.Topics) }

// producerOpts are the franz-go producer settings of o (validated).
func producerOpts(o *Options, maxInflight int) []kgo.Opt {
	acks, _ := acks(o)
	codec, _ := codec(o)
	idem, _ := idempotent(o)
	opts := []kgo.Opt{
		kgo.RequiredAcks(acks),
		kgo.ProducerLinger(o.Linger),
		kgo.ProducerBatchMaxBytes(o.BatchBytes),
		kgo.ProducerBatchCompression(codec),
		kgo.RecordDeliveryTimeout(o.DeliveryTimeout),
		kgo.MaxBufferedRecords(max(50000, 2*maxInflight*o.PerIteration*o.Window)),
		kgo.RetryBackoffFn(retryBackoff),
	}
	if !idem {
		// With idempotence franz-go keeps Kafka's 5 in flight itself.
		opts = append(opts, kgo.DisableIdempotentWrite(), kgo.MaxProduceRequestsInflightPerBroker(o.MaxInFlight))
	}
	if o.Retries >= 0 {
		opts = append(opts, kgo.RecordRetries(o.Retries))
	}
	return opts
}

// describe is a one-line account of the client settings and of what the
// run asked the cluster for, for notes; the topics as they are come from
// readBack.
func describe(o *Options) string {
	idem, _ := idempotent(o)
	cfgs, _ := topicConfigs(o)
	keys := make([]string, 0, len(cfgs))
	for k := range cfgs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var kv []string
	for _, k := range keys {
		kv = append(kv, k+"="+cfgs[k])
	}
	s := fmt.Sprintf("kafka profile %s: client settings acks=%s, idempotence=%t, linger=%s, compression=%s, %d-byte %s messages, %d producer(s)/topic; asked for %d topic(s) × %d partition(s), RF %d",
		o.Profile, o.Acks, idem, o.Linger, o.Compression, o.MessageSize, o.Payload, o.Producers, o.Topics, o.Partitions, o.ReplicationFactor)
	if len(kv) > 0 {
		s += ", topic configs " + strings.Join(kv, ",")
	}
	return s + " (what the cluster holds is the read-back note)"
}

// retryBackoff is Kafka's client default (retry.backoff.ms 100,
// retry.backoff.max.ms 1000, exponential with ±20% jitter) rather than
// franz-go's 250ms..5s: a failed broker shows as errors within about the
// delivery timeout.
func retryBackoff(tries int) time.Duration {
	d := 100 * time.Millisecond
	for i := 1; i < tries && d < time.Second; i++ {
		d *= 2
	}
	d = min(d, time.Second)
	return time.Duration(float64(d) * (0.8 + 0.4*rand.Float64()))
}

// churning tells whether the run changes the cluster during the load.
func churning(o *Options) bool { return o.ChurnInterval > 0 || o.ChurnBrokers }
