package msgload

import "github.com/stampede-bench/stampede/internal/metrics"

// Metric names both messaging families record, defined once so that a
// name means the same in both. Times are µs like every time trend, sizes
// bytes; "acknowledged" is the broker's acknowledgement (a Kafka produce
// response, a NATS PubAck; with Kafka acks=0, handed to the socket).
const (
	// MetricMessages counts acknowledged messages (msgs/s = its rate).
	MetricMessages = "messages"
	// MetricBytes counts acknowledged payload bytes (MB/s = rate / 2^20).
	MetricBytes = "bytes"
	// MetricPublishLatency is a message's send → acknowledgement; under
	// an arrival-rate executor or a MaxRate schedule it counts from the
	// message's intended send time (coordinated omission: a VU that was
	// late because the broker stalled cannot hide the stall), and
	// publish_delay is the part before the actual send.
	MetricPublishLatency = "publish_latency"
	// MetricPublishDelay is intended send → actual send under an
	// arrival-rate executor or a MaxRate schedule: how far the generator
	// fell behind its schedule.
	MetricPublishDelay = "publish_delay"
	// MetricE2ELatency is send → consumed, from the send stamp the message
	// carries; like publish_latency it counts from the intended send time
	// under an arrival-rate executor.
	MetricE2ELatency = "e2e_latency"
	// MetricConsumed counts consumed messages.
	MetricConsumed = "consumed"
	// MetricConsumerLag is sampled after every poll or pull: messages
	// still waiting for the consumer in the broker.
	MetricConsumerLag = "consumer_lag"
	// MetricThroughput is sampled every second on the run clock (the
	// drain after -d included, a stalled second a sample of its own):
	// acknowledged msgs/s in that second. Under a fault window it is also
	// split by phase (msgs_per_s{phase:before|during|after}).
	MetricThroughput = "msgs_per_s"
	// MetricLost counts EndToEnd messages acknowledged, never consumed,
	// and confirmed absent by the broker at the end of the scenario (the
	// Ledger): a message the broker still holds is not lost.
	MetricLost = "lost"
	// MetricOverdue counts EndToEnd messages acknowledged but not
	// consumed within the end-to-end timeout; of them, only those the
	// broker confirms it does not hold count in MetricLost.
	MetricOverdue = "e2e_overdue"
	// MetricChurnOps counts the fault window's operations, failed ones
	// included (their errors are in the summary's errors): topics or
	// streams created and deleted, brokers or nodes leaving and joining,
	// node kills.
	MetricChurnOps = "churn_ops"
	// MetricLeaderNodes (one sample per scenario) is how many nodes lead
	// at least one of the load's partitions or streams, MetricPartitions
	// how many partitions or streams the load writes: a node sweep reads
	// them to say when the layout, not the cluster, limits the curve.
	MetricLeaderNodes = "leader_nodes"
	MetricPartitions  = "load_partitions"
	// MetricMaxRate is a MaxRate scenario's result: the highest sustained
	// rate, msgs/s (one sample).
	MetricMaxRate = "max_rate"
)

// IDs are the registered IDs of the metrics the core records; a family
// registers them (only those its scenarios need: an unset ID is not
// recorded) and adds its own.
type IDs struct {
	Messages, Bytes, PublishLatency, PublishDelay metrics.ID
	Throughput, LeaderNodes, Partitions, MaxRate  metrics.ID
	ChurnOps                                      metrics.ID
	// PartTput is the per-part msgs/s trend (topic_msgs_per_s,
	// stream_msgs_per_s) when there are several parts; PerPart[i] the
	// messages{topic:NAME} counter of part i (may be empty).
	PartTput metrics.ID
	PerPart  []metrics.ID
	// PhaseMsgs[p] is messages{phase:P}, PhaseTput[p] msgs_per_s{phase:P}.
	PhaseMsgs, PhaseTput [3]metrics.ID
}

// Tagged is k6's name for a sub-metric, e.g. messages{topic:orders}.
func Tagged(name, tag, value string) string { return name + "{" + tag + ":" + value + "}" }

// Registrar adds metric definitions (a *metrics.Registry).
type Registrar interface {
	MustAdd(d metrics.Def) metrics.ID
}

// RegisterPublish registers the metrics of publishing scenarios: messages,
// bytes, publish latency and delay, msgs_per_s, the layout samples, the
// per-part trend when parts > 1, and with fault the churn_ops counter and
// the per-phase counters and trends.
func RegisterPublish(reg Registrar, m *IDs, parts int, partTrend string, fault bool) {
	m.Messages = AddCounter(reg, MetricMessages, metrics.UnitNone)
	m.Bytes = AddCounter(reg, MetricBytes, metrics.UnitBytes)
	m.PublishLatency = AddTrend(reg, MetricPublishLatency, metrics.UnitMicros)
	m.PublishDelay = AddTrend(reg, MetricPublishDelay, metrics.UnitMicros)
	m.Throughput = AddTrend(reg, MetricThroughput, metrics.UnitNone)
	m.LeaderNodes = AddTrend(reg, MetricLeaderNodes, metrics.UnitNone)
	m.Partitions = AddTrend(reg, MetricPartitions, metrics.UnitNone)
	if parts > 1 {
		m.PartTput = AddTrend(reg, partTrend, metrics.UnitNone)
	}
	if fault {
		m.ChurnOps = AddCounter(reg, MetricChurnOps, metrics.UnitNone)
		for p := range m.PhaseMsgs {
			m.PhaseMsgs[p] = AddCounter(reg, Tagged(MetricMessages, "phase", PhaseName(p)), metrics.UnitNone)
			m.PhaseTput[p] = AddTrend(reg, Tagged(MetricThroughput, "phase", PhaseName(p)), metrics.UnitNone)
		}
	}
}

// AddTrend registers trend name in unit u.
func AddTrend(reg Registrar, name string, u metrics.Unit) metrics.ID {
	return reg.MustAdd(metrics.Def{Name: name, Kind: metrics.KindTrend, Unit: u})
}

// AddCounter registers counter name in unit u.
func AddCounter(reg Registrar, name string, u metrics.Unit) metrics.ID {
	return reg.MustAdd(metrics.Def{Name: name, Kind: metrics.KindCounter, Unit: u})
}
