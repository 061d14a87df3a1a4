package mq

import (
	"github.com/stampede-bench/stampede/internal/metrics"
)

// Metric names of the kafka family. Times are µs like every time trend;
// sizes are bytes.
const (
	// MetricMessages counts messages acknowledged by the broker (acks=0:
	// handed to the socket). Its rate is msgs/s.
	MetricMessages = "messages"
	// MetricBytes counts acknowledged value bytes (MB/s = rate / 2^20).
	MetricBytes = "bytes"
	// MetricPublishLatency is send → acknowledgement.
	MetricPublishLatency = "publish_latency"
	// MetricPublishDelay is intended send → actual send under --rate: how
	// far the generator fell behind its schedule (coordinated omission).
	MetricPublishDelay = "publish_delay"
	// MetricE2ELatency is send → consumed, from the stamp in the header.
	MetricE2ELatency = "e2e_latency"
	// MetricConsumed and MetricConsumedBytes count consumed messages and
	// value bytes.
	MetricConsumed      = "consumed"
	MetricConsumedBytes = "consumed_bytes"
	// MetricConsumerLag is sampled after every poll: messages between a
	// consumer's position and the high watermarks of its partitions.
	MetricConsumerLag = "consumer_lag"
	// MetricBacklog is sampled every second: messages due (sent, or
	// scheduled under kafka.MaxRate) but not yet consumed.
	MetricBacklog = "backlog"
	// MetricThroughput is sampled every second: acknowledged msgs/s in
	// that second. Under churn it is split by phase.
	MetricThroughput = "msgs_per_s"
	// MetricTopicThroughput is sampled every second for every topic when
	// there are several: acknowledged msgs/s of one topic in one second.
	// Its spread (min, median, max) shows how evenly topics are served.
	MetricTopicThroughput = "topic_msgs_per_s"
	// MetricLost counts kafka.EndToEnd messages acknowledged, never
	// consumed, and confirmed absent from their partition at the end of
	// the scenario (offset at or past the log's end; the core's ledger);
	// MetricUnmatched consumed messages nobody waited for (duplicates).
	MetricLost      = "lost"
	MetricUnmatched = "unmatched"
	// MetricChurnOps counts topics created and deleted by churn.
	MetricChurnOps = "churn_ops"
	// MetricLeaderNodes (one sample per scenario) is how many brokers lead
	// at least one partition of the load topics, MetricPartitions how many
	// partitions the load writes (as read back): a node sweep reads them to
	// say when the layout, not the cluster, limits the curve. The nats
	// family records the same names for stream leaders and streams.
	MetricLeaderNodes = "leader_nodes"
	MetricPartitions  = "load_partitions"
	// MetricMaxRate is kafka.MaxRate's result: the highest sustained rate,
	// msgs/s (one sample).
	MetricMaxRate = "max_rate"
)

// maxPerTopicCounters is the most topics that get a messages{topic:NAME}
// counter each; beyond, summaries would drown in them and the per-topic
// spread is reported by topic_msgs_per_s and the scenario notes.
const maxPerTopicCounters = 20

// Churn phases.
const (
	PhaseBefore = "before"
	PhaseDuring = "during"
	PhaseAfter  = "after"
)

var phases = []string{PhaseBefore, PhaseDuring, PhaseAfter}

// ids are the registered metric IDs of one run.
type ids struct {
	messages, bytes, publishLatency, publishDelay metrics.ID
	e2e, consumed, consumedBytes, lag, backlog    metrics.ID
	throughput, lost, unmatched, churnOps, maxRat metrics.ID
	topicTput, leaderNodes, partitions            metrics.ID
	// perTopic[i] is messages{topic:NAME} of topic i.
	perTopic []metrics.ID
	// phaseMsgs[i] is messages{phase:P}; phaseTput[i] msgs_per_s{phase:P}.
	phaseMsgs, phaseTput [3]metrics.ID
}

// tagged is k6's name for a sub-metric, e.g. messages{topic:orders}.
func tagged(name, tag, value string) string { return name + "{" + tag + ":" + value + "}" }

// needs says which metrics the selected scenarios record; only those are
// registered, so that summaries show no always-zero counters.
type needs struct {
	produce, consume, e2e, lag, backlog, lost, churn, maxRate bool
}

func needsOf(names []string, o *Options) needs {
	var n needs
	for _, s := range names {
		switch s {
		case ScenarioProduce:
			n.produce = true
		case ScenarioConsume:
			n.consume, n.e2e, n.lag = true, true, true
		case ScenarioEndToEnd:
			n.produce, n.consume, n.e2e, n.backlog, n.lost = true, true, true, true, true
		case ScenarioMaxRate:
			n.produce, n.backlog, n.maxRate = true, true, true
		}
	}
	n.churn = o.churning() && n.produce
	return n
}

// registerMetrics adds what n needs to reg. IDs of metrics not needed stay
// unset and must not be recorded.
func registerMetrics(reg *metrics.Registry, topics []string, n needs) *ids {
	trend := func(n string, u metrics.Unit) metrics.ID {
		return reg.MustAdd(metrics.Def{Name: n, Kind: metrics.KindTrend, Unit: u})
	}
	counter := func(n string, u metrics.Unit) metrics.ID {
		return reg.MustAdd(metrics.Def{Name: n, Kind: metrics.KindCounter, Unit: u})
	}
	m := &ids{}
	if n.produce {
		m.messages = counter(MetricMessages, metrics.UnitNone)
		m.bytes = counter(MetricBytes, metrics.UnitBytes)
		m.publishLatency = trend(MetricPublishLatency, metrics.UnitMicros)
		m.publishDelay = trend(MetricPublishDelay, metrics.UnitMicros)
		m.throughput = trend(MetricThroughput, metrics.UnitNone)
		m.leaderNodes = trend(MetricLeaderNodes, metrics.UnitNone)
		m.partitions = trend(MetricPartitions, metrics.UnitNone)
		if len(topics) > 1 {
			m.topicTput = trend(MetricTopicThroughput, metrics.UnitNone)
		}
		if len(topics) > 1 && len(topics) <= maxPerTopicCounters {
			for _, t := range topics {
				m.perTopic = append(m.perTopic, counter(tagged(MetricMessages, "topic", t), metrics.UnitNone))
			}
		}
	}
	if n.consume {
		m.consumed = counter(MetricConsumed, metrics.UnitNone)
		m.consumedBytes = counter(MetricConsumedBytes, metrics.UnitBytes)
	}
	if n.e2e {
		m.e2e = trend(MetricE2ELatency, metrics.UnitMicros)
	}
	if n.lag {
		m.lag = trend(MetricConsumerLag, metrics.UnitNone)
	}
	if n.backlog {
		m.backlog = trend(MetricBacklog, metrics.UnitNone)
	}
	if n.lost {
		m.lost = counter(MetricLost, metrics.UnitNone)
		m.unmatched = counter(MetricUnmatched, metrics.UnitNone)
	}
	if n.churn {
		m.churnOps = counter(MetricChurnOps, metrics.UnitNone)
		for i, p := range phases {
			m.phaseMsgs[i] = counter(tagged(MetricMessages, "phase", p), metrics.UnitNone)
			m.phaseTput[i] = trend(tagged(MetricThroughput, "phase", p), metrics.UnitNone)
		}
	}
	if n.maxRate {
		m.maxRat = trend(MetricMaxRate, metrics.UnitNone)
	}
	return m
}

// PerSecond names a trend sampled once a second as a count of a counter
// over that second (msgs_per_s of messages). Merging such trends across
// processes must add the counts second by second (stampede merge does).
type PerSecond struct {
	Trend, Counter string
	// Sparse trends cover only part of a run (a churn phase).
	Sparse bool
}

// PerSecondTrends lists the family's per-second trends.
// topic_msgs_per_s is not among them: its per-topic counts are not kept
// in the series when there are many topics.
func PerSecondTrends() []PerSecond {
	out := []PerSecond{{Trend: MetricThroughput, Counter: MetricMessages}}
	for _, p := range phases {
		out = append(out, PerSecond{Trend: tagged(MetricThroughput, "phase", p), Counter: tagged(MetricMessages, "phase", p), Sparse: true})
	}
	return out
}
