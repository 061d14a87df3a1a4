package kafka

import "github.com/stampede-bench/stampede/flags"

// BindFlags implements workload.FlagBinder: the options as run flags,
// with the family's options as defaults. A --kafka-profile setting applies
// to the options whose flags the user did not give and the program did
// not change from DefaultOptions.
func (f *Family) BindFlags(fs flags.Set) {
	o := &f.opts
	fs.StringVar(&o.Profile, "kafka-profile", o.Profile, "settings from the seed: high-throughput (RF 1, 1 partition, acks=1) or high-reliability (RF 3, 3 partitions, acks=all, min.insync.replicas=2, flush.messages=1); explicit flags win")
	fs.IntVar(&o.Brokers, "brokers", o.Brokers, "brokers of the embedded cluster (used without --target)")
	fs.IntVar(&o.Topics, "topics", o.Topics, "topics to spread the load over")
	fs.StringVar(&o.TopicPrefix, "topic-prefix", o.TopicPrefix, "topics are named PREFIX-0, PREFIX-1, ...")
	fs.Int32Var(&o.Partitions, flagPartitions, o.Partitions, "partitions per topic")
	fs.Int16Var(&o.ReplicationFactor, flagRF, o.ReplicationFactor, "replication factor of created topics")
	fs.IntVar(&o.Producers, "producers", o.Producers, "producer clients per topic, shared by the VUs")
	fs.IntVar(&o.Consumers, "consumers", o.Consumers, "consumers per topic (kafka.Consume: one VU each)")
	fs.StringVar(&o.Acks, flagAcks, o.Acks, "producer acks: 0, 1 or all")
	fs.DurationVar(&o.Linger, "linger", o.Linger, "producer linger (linger.ms)")
	fs.IntVar(&o.PerIteration, "messages-per-iteration", o.PerIteration, "kafka.Produce: messages an iteration sends before waiting for their acknowledgements (in flight = VUs × this)")
	fs.IntVar(&o.Window, "produce-window", o.Window, "kafka.Produce: messages a VU may have unacknowledged; >1: an iteration returns once its message is handed over (in flight = VUs × this; every message keeps its own latency)")
	fs.IntVar(&o.MaxInFlight, "max-in-flight", o.MaxInFlight, "produce requests in flight per broker (max.in.flight.requests.per.connection)")
	fs.Int32Var(&o.BatchBytes, "batch-bytes", o.BatchBytes, "largest record batch in bytes (batch.size)")
	fs.StringVar(&o.Compression, "compression-type", o.Compression, "producer compression: none, gzip, snappy, lz4, zstd")
	fs.StringVar(&o.Idempotence, flagIdempotence, o.Idempotence, "idempotent producer: auto (on with acks=all), true, false")
	fs.IntVar(&o.MessageSize, "message-size", o.MessageSize, "message value size in bytes")
	fs.StringVar(&o.Payload, "payload", o.Payload, "message values: random (incompressible) or compressible (text-like)")
	fs.IntVar(&o.MinInsyncReplicas, flagMinISR, o.MinInsyncReplicas, "topic config min.insync.replicas (0: broker default)")
	fs.Int64Var(&o.FlushMessages, flagFlushMsgs, o.FlushMessages, "topic config flush.messages (0: broker default)")
	fs.Int64Var(&o.FlushMs, "flush-ms", o.FlushMs, "topic config flush.ms (0: broker default)")
	fs.StringArrayVar(&o.TopicConfigs, "topic-config", o.TopicConfigs, "extra topic config KEY=VALUE (repeatable)")
	fs.BoolVar(&o.DeleteTopics, "delete-topics", o.DeleteTopics, "delete the topics this run created when it ends")
	fs.DurationVar(&o.DeliveryTimeout, "delivery-timeout", o.DeliveryTimeout, "longest a message may take to be acknowledged, retries included (delivery.timeout.ms)")
	fs.IntVar(&o.Retries, "produce-retries", o.Retries, "produce retries per batch (-1: until --delivery-timeout)")
	fs.DurationVar(&o.E2ETimeout, "e2e-timeout", o.E2ETimeout, "kafka.EndToEnd: a message not consumed within this is counted lost")
	fs.StringVar(&o.ConsumeFrom, "consume-from", o.ConsumeFrom, "kafka.Consume starts at the earliest or latest offset")
	fs.DurationVar(&o.ChurnInterval, "churn-interval", o.ChurnInterval, "create and delete an extra topic every interval during the load (0: off)")
	fs.BoolVar(&o.ChurnBrokers, "churn-brokers", o.ChurnBrokers, "embedded cluster: a broker joins when the churn window opens and leaves when it closes")
	fs.DurationVar(&o.ChurnStart, "churn-start", o.ChurnStart, "churn begins this long after the scenario starts")
	fs.DurationVar(&o.ChurnFor, "churn-for", o.ChurnFor, "churn lasts this long")
	fs.Int64Var(&o.MaxRateStart, "max-rate-start", o.MaxRateStart, "kafka.MaxRate: first rate tried, msgs/s")
	fs.DurationVar(&o.MaxRateStep, "max-rate-step", o.MaxRateStep, "kafka.MaxRate: how long each rate is held")
	fs.Float64Var(&o.MaxRateErrors, "max-rate-errors", o.MaxRateErrors, "kafka.MaxRate: highest tolerated error ratio")
	fs.Float64Var(&o.MaxRatePrecision, "max-rate-precision", o.MaxRatePrecision, "kafka.MaxRate: stop when the bracket is this narrow (relative)")
	fs.Int64Var(&o.EmbeddedRetention, "embedded-retention", o.EmbeddedRetention, "embedded cluster: bytes kept per partition")
	fs.BoolVar(&o.EmbeddedBlackhole, "embedded-blackhole", o.EmbeddedBlackhole, "embedded cluster: acknowledge but discard produced records (produce-only benchmarks)")
	// An option counts as given when its flag is, or when the program
	// changed it from the default before binding the flags.
	chosen := f.opts.ChangedFromDefaults()
	f.explicit = func(option string) bool { return fs.Changed(option) || chosen(option) }
}
