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
	// MetricLost counts kafka.EndToEnd messages never consumed within
	// --e2e-timeout; MetricUnmatched consumed messages nobody waited for
	// (duplicates, or late after a loss was counted).
	MetricLost      = "lost"
	MetricUnmatched = "unmatched"
	// MetricChurnOps counts topics created and deleted by churn.
	MetricChurnOps = "churn_ops"
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
	topicTput                                     metrics.ID
	// perTopic[i] is messages{topic:NAME} of topic i.
	perTopic []metrics.ID
	// phaseMsgs[i] is messages{phase:P}; phaseTput[i] msgs_per_s{phase:P}.
	phaseMsgs, phaseTput [3]metrics.ID
}

// tagged is k6's name for a sub-metric, e.g. messages{topic:orders}.
func tagged(name, tag, value string) string { return name + "{" + tag + ":" + value + "}" }

func registerMetrics(reg *metrics.Registry, topics []string, churn bool) *ids {
	trend := func(n string, u metrics.Unit) metrics.ID {
		return reg.MustAdd(metrics.Def{Name: n, Kind: metrics.KindTrend, Unit: u})
	}
	counter := func(n string, u metrics.Unit) metrics.ID {
		return reg.MustAdd(metrics.Def{Name: n, Kind: metrics.KindCounter, Unit: u})
	}
	m := &ids{
		messages:       counter(MetricMessages, metrics.UnitNone),
		bytes:          counter(MetricBytes, metrics.UnitBytes),
		publishLatency: trend(MetricPublishLatency, metrics.UnitMicros),
		publishDelay:   trend(MetricPublishDelay, metrics.UnitMicros),
		e2e:            trend(MetricE2ELatency, metrics.UnitMicros),
		consumed:       counter(MetricConsumed, metrics.UnitNone),
		consumedBytes:  counter(MetricConsumedBytes, metrics.UnitBytes),
		lag:            trend(MetricConsumerLag, metrics.UnitNone),
		backlog:        trend(MetricBacklog, metrics.UnitNone),
		throughput:     trend(MetricThroughput, metrics.UnitNone),
		lost:           counter(MetricLost, metrics.UnitNone),
		unmatched:      counter(MetricUnmatched, metrics.UnitNone),
		churnOps:       counter(MetricChurnOps, metrics.UnitNone),
		maxRat:         trend(MetricMaxRate, metrics.UnitNone),
	}
	if len(topics) > 1 {
		m.topicTput = trend(MetricTopicThroughput, metrics.UnitNone)
	}
	if len(topics) > 1 && len(topics) <= maxPerTopicCounters {
		for _, t := range topics {
			m.perTopic = append(m.perTopic, counter(tagged(MetricMessages, "topic", t), metrics.UnitNone))
		}
	}
	if churn {
		for i, p := range phases {
			m.phaseMsgs[i] = counter(tagged(MetricMessages, "phase", p), metrics.UnitNone)
			m.phaseTput[i] = trend(tagged(MetricThroughput, "phase", p), metrics.UnitNone)
		}
	}
	return m
}
