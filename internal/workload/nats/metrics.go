package nats

import (
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/workload/msgload"
)

// Metric names of the nats family: those of the messaging core
// (msgload), which mean the same in the kafka family, and the family's
// own. Times are µs, sizes bytes.
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
	// MetricStreamThroughput is sampled every second per stream when
	// there are several: its spread shows how evenly streams are served.
	MetricStreamThroughput = "stream_msgs_per_s"
	// MetricPublishRetries counts publishes sent again after "no
	// responders" (--nats-publish-retries), each retry once.
	MetricPublishRetries = "publish_retries"
	// MetricServerCPU is sampled every second on the embedded cluster:
	// CPU of all nats-server processes, per cent of this machine's cores.
	MetricServerCPU = "server_cpu"
)

// ids are the registered metric IDs of one run: the core's and the
// family's own.
type ids struct {
	msgload.IDs
	e2e, consumed, lag, lost, cpu, retries, overdue metrics.ID
}

func registerMetrics(reg *metrics.Registry, names []string, o *Options, embedded bool) *ids {
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
		msgload.RegisterPublish(reg, &m.IDs, o.Streams, MetricStreamThroughput, faulting(o))
		m.retries = msgload.AddCounter(reg, MetricPublishRetries, metrics.UnitNone)
	}
	if consume {
		m.consumed = msgload.AddCounter(reg, MetricConsumed, metrics.UnitNone)
		m.e2e = msgload.AddTrend(reg, MetricE2ELatency, metrics.UnitMicros)
		m.lag = msgload.AddTrend(reg, MetricConsumerLag, metrics.UnitNone)
	}
	if e2e {
		m.lost = msgload.AddCounter(reg, MetricLost, metrics.UnitNone)
		m.overdue = msgload.AddCounter(reg, MetricOverdue, metrics.UnitNone)
	}
	if maxRate {
		m.MaxRate = msgload.AddTrend(reg, MetricMaxRate, metrics.UnitNone)
	}
	if embedded {
		m.cpu = msgload.AddTrend(reg, MetricServerCPU, metrics.UnitNone)
	}
	return m
}
