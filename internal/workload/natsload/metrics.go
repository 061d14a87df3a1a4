package natsload

import "github.com/stampede-bench/stampede/internal/metrics"

// Metric names of the nats family; the names shared with the kafka family
// mean the same there. Times are µs, sizes bytes.
const (
	// MetricMessages counts messages whose PubAck arrived (msgs/s = rate).
	MetricMessages = "messages"
	MetricBytes    = "bytes"
	// MetricPublishLatency is publish → PubAck.
	MetricPublishLatency = "publish_latency"
	// MetricPublishDelay is intended send → actual send under --rate and
	// nats.MaxRate: how far the generator fell behind its schedule.
	MetricPublishDelay = "publish_delay"
	// MetricE2ELatency is publish → consumed, from the stamp in the payload.
	MetricE2ELatency = "e2e_latency"
	// MetricConsumed counts consumed (and acknowledged) messages.
	MetricConsumed = "consumed"
	// MetricConsumerLag is sampled after every pull: messages still
	// pending for the consumer on the server.
	MetricConsumerLag = "consumer_lag"
	// MetricThroughput is sampled every second: PubAcks in that second.
	MetricThroughput = "msgs_per_s"
	// MetricStreamThroughput is sampled every second per stream when
	// there are several: its spread shows how evenly streams are served.
	MetricStreamThroughput = "stream_msgs_per_s"
	// MetricLost counts nats.EndToEnd messages acknowledged, never
	// consumed, and confirmed absent from their stream at the end of the
	// scenario (a message the stream still holds is not lost).
	MetricLost = "lost"
	// MetricChurnOps counts streams created and deleted and node
	// leave/join events.
	MetricChurnOps = "churn_ops"
	// MetricPublishRetries counts publishes sent again after "no
	// responders" (--nats-publish-retries), each retry once.
	MetricPublishRetries = "publish_retries"
	// MetricOverdue counts nats.EndToEnd messages acknowledged but not
	// consumed within --nats-e2e-timeout; of them, only those the stream
	// confirms it does not hold count in MetricLost.
	MetricOverdue = "e2e_overdue"
	// MetricLeaderNodes (one sample per scenario) is how many nodes lead
	// at least one of the load's streams, MetricPartitions how many
	// streams the load writes: a node sweep reads them to say when the
	// layout, not the cluster, limits the curve. The kafka family records
	// the same names for partition leaders and partitions.
	MetricLeaderNodes = "leader_nodes"
	MetricPartitions  = "load_partitions"
	// MetricMaxRate is nats.MaxRate's result, msgs/s.
	MetricMaxRate = "max_rate"
	// MetricServerCPU is sampled every second on the embedded cluster:
	// CPU of all nats-server processes, per cent of this machine's cores.
	MetricServerCPU = "server_cpu"
)

// Churn phases.
var phases = []string{"before", "during", "after"}

type ids struct {
	messages, bytes, publishLatency, publishDelay, e2e   metrics.ID
	consumed, lag                                        metrics.ID
	throughput, streamTput, lost, churnOps, maxRate, cpu metrics.ID
	retries, overdue, leaderNodes, partitions            metrics.ID
	phaseMsgs, phaseTput                                 [3]metrics.ID
}

func tagged(name, tag, value string) string { return name + "{" + tag + ":" + value + "}" }

func registerMetrics(reg *metrics.Registry, names []string, o *Options, embedded bool) *ids {
	trend := func(n string, u metrics.Unit) metrics.ID {
		return reg.MustAdd(metrics.Def{Name: n, Kind: metrics.KindTrend, Unit: u})
	}
	counter := func(n string, u metrics.Unit) metrics.ID {
		return reg.MustAdd(metrics.Def{Name: n, Kind: metrics.KindCounter, Unit: u})
	}
	var produce, consume, e2e, maxRate bool
	for _, n := range names {
		switch n {
		case ScenarioPublish:
			produce = true
		case ScenarioConsume:
			consume = true
		case ScenarioEndToEnd:
			produce, consume, e2e = true, true, true
		case ScenarioMaxRate:
			produce, maxRate = true, true
		}
	}
	m := &ids{}
	if produce {
		m.messages = counter(MetricMessages, metrics.UnitNone)
		m.bytes = counter(MetricBytes, metrics.UnitBytes)
		m.publishLatency = trend(MetricPublishLatency, metrics.UnitMicros)
		m.publishDelay = trend(MetricPublishDelay, metrics.UnitMicros)
		m.retries = counter(MetricPublishRetries, metrics.UnitNone)
		m.leaderNodes = trend(MetricLeaderNodes, metrics.UnitNone)
		m.partitions = trend(MetricPartitions, metrics.UnitNone)
		m.throughput = trend(MetricThroughput, metrics.UnitNone)
		if o.Streams > 1 {
			m.streamTput = trend(MetricStreamThroughput, metrics.UnitNone)
		}
		if o.faulting() {
			m.churnOps = counter(MetricChurnOps, metrics.UnitNone)
			for i, p := range phases {
				m.phaseMsgs[i] = counter(tagged(MetricMessages, "phase", p), metrics.UnitNone)
				m.phaseTput[i] = trend(tagged(MetricThroughput, "phase", p), metrics.UnitNone)
			}
		}
	}
	if consume {
		m.consumed = counter(MetricConsumed, metrics.UnitNone)
		m.e2e = trend(MetricE2ELatency, metrics.UnitMicros)
		m.lag = trend(MetricConsumerLag, metrics.UnitNone)
	}
	if e2e {
		m.lost = counter(MetricLost, metrics.UnitNone)
		m.overdue = counter(MetricOverdue, metrics.UnitNone)
	}
	if maxRate {
		m.maxRate = trend(MetricMaxRate, metrics.UnitNone)
	}
	if embedded {
		m.cpu = trend(MetricServerCPU, metrics.UnitNone)
	}
	return m
}
