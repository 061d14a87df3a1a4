package kafka

import (
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/workload/msgload"
)

// Metric names of the kafka family: those of the messaging core
// (msgload), which mean the same in the nats family, and the family's own.
// Times are µs like every time trend; sizes are bytes.
const (
	MetricMessages       = msgload.MetricMessages
	MetricBytes          = msgload.MetricBytes
	MetricPublishLatency = msgload.MetricPublishLatency
	MetricPublishDelay   = msgload.MetricPublishDelay
	MetricE2ELatency     = msgload.MetricE2ELatency
	MetricConsumed       = msgload.MetricConsumed
	MetricConsumerLag    = msgload.MetricConsumerLag
	MetricThroughput     = msgload.MetricThroughput
	MetricLost           = msgload.MetricLost
	MetricOverdue        = msgload.MetricOverdue
	MetricChurnOps       = msgload.MetricChurnOps
	MetricLeaderNodes    = msgload.MetricLeaderNodes
	MetricPartitions     = msgload.MetricPartitions
	MetricMaxRate        = msgload.MetricMaxRate
	// MetricConsumedBytes counts consumed value bytes.
	MetricConsumedBytes = "consumed_bytes"
	// MetricBacklog is sampled every second: messages due (sent, or
	// scheduled under kafka.MaxRate) but not yet consumed.
	MetricBacklog = "backlog"
	// MetricTopicThroughput is sampled every second for every topic when
	// there are several: acknowledged msgs/s of one topic in one second.
	// Its spread (min, median, max) shows how evenly topics are served.
	MetricTopicThroughput = "topic_msgs_per_s"
	// MetricUnmatched counts consumed kafka.EndToEnd messages nobody
	// waited for (duplicates).
	MetricUnmatched = "unmatched"
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

// ids are the registered metric IDs of one run: the core's and the
// family's own.
type ids struct {
	msgload.IDs
	e2e, consumed, consumedBytes, lag, backlog, lost, unmatched, overdue metrics.ID
}

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
	n.churn = churning(o) && n.produce
	return n
}

// registerMetrics adds what n needs to reg. IDs of metrics not needed stay
// unset and must not be recorded.
func registerMetrics(reg *metrics.Registry, topics []string, n needs) *ids {
	m := &ids{}
	if n.produce {
		msgload.RegisterPublish(reg, &m.IDs, len(topics), MetricTopicThroughput, n.churn)
		if len(topics) > 1 && len(topics) <= maxPerTopicCounters {
			for _, t := range topics {
				m.PerPart = append(m.PerPart, msgload.AddCounter(reg, msgload.Tagged(MetricMessages, "topic", t), metrics.UnitNone))
			}
		}
	}
	if n.consume {
		m.consumed = msgload.AddCounter(reg, MetricConsumed, metrics.UnitNone)
		m.consumedBytes = msgload.AddCounter(reg, MetricConsumedBytes, metrics.UnitBytes)
	}
	if n.e2e {
		m.e2e = msgload.AddTrend(reg, MetricE2ELatency, metrics.UnitMicros)
	}
	if n.lag {
		m.lag = msgload.AddTrend(reg, MetricConsumerLag, metrics.UnitNone)
	}
	if n.backlog {
		m.backlog = msgload.AddTrend(reg, MetricBacklog, metrics.UnitNone)
	}
	if n.lost {
		m.lost = msgload.AddCounter(reg, MetricLost, metrics.UnitNone)
		m.unmatched = msgload.AddCounter(reg, MetricUnmatched, metrics.UnitNone)
		m.overdue = msgload.AddCounter(reg, MetricOverdue, metrics.UnitNone)
	}
	if n.maxRate {
		m.MaxRate = msgload.AddTrend(reg, MetricMaxRate, metrics.UnitNone)
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
		out = append(out, PerSecond{Trend: msgload.Tagged(MetricThroughput, "phase", p), Counter: msgload.Tagged(MetricMessages, "phase", p), Sparse: true})
	}
	return out
}
