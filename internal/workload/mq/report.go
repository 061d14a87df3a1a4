package mq

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/internal/workload/msgload"
)

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// report writes the scenario's notes at teardown: the per-topic spread
// when there are several topics, and the throughput per churn phase.
func (b *base) report() {
	if !b.started.Load() {
		return
	}
	elapsed := time.Since(b.startWall)
	if b.produces() && elapsed > 0 {
		n := b.acked.Load()
		b.note("throughput %s msgs/s, %.1f MB/s (MB = 2^20) acknowledged over %s; %d failed",
			fmtRate(float64(n)/elapsed.Seconds()), float64(b.ackedBytes.Load())/(1<<20)/elapsed.Seconds(), elapsed.Round(time.Millisecond), b.failed.Load())
	}
	if b.produces() && len(b.topics) > 1 {
		b.note("%s", topicSpread(b.topics, b.perTopic, elapsed))
	}
	if b.churn() {
		b.note("%s", b.churnReport(elapsed))
	}
}

type topicCount struct {
	name string
	n    int64
}

// topicSpread summarizes per-topic acknowledged messages: total, and the
// lowest, median and highest topic in msgs/s.
func topicSpread(topics []string, counts []atomicInt, elapsed time.Duration) string {
	tc := make([]topicCount, len(topics))
	var total int64
	for i := range topics {
		tc[i] = topicCount{topics[i], counts[i].Load()}
		total += tc[i].n
	}
	sort.SliceStable(tc, func(i, j int) bool { return tc[i].n < tc[j].n })
	sec := elapsed.Seconds()
	rate := func(n int64) string { return fmtRate(float64(n) / sec) }
	lo, med, hi := tc[0], tc[len(tc)/2], tc[len(tc)-1]
	return sprintf("per topic (%d topics): min %s msgs/s (%s), median %s, max %s (%s); total %s msgs/s, %d messages",
		len(tc), rate(lo.n), lo.name, rate(med.n), rate(hi.n), hi.name, rate(total), total)
}

// churnReport gives msgs/s before, during and after the churn window,
// from the per-phase counters kept by the VUs.
func (b *base) churnReport(elapsed time.Duration) string {
	o := &b.opts
	spans := [3]time.Duration{o.ChurnStart, o.ChurnFor, elapsed - o.ChurnStart - o.ChurnFor}
	var parts []string
	var base float64
	var baseLo, baseHi float64
	for i, p := range phases {
		if spans[i] <= 0 {
			parts = append(parts, p+" -")
			continue
		}
		r := float64(b.phaseAcked[i].Load()) / spans[i].Seconds()
		s := sprintf("%s %s msgs/s", p, fmtRate(r))
		lo, hi, n := spread(b.phaseSecs[i])
		if n > 0 {
			s += sprintf(" [per second %s–%s, %d s]", fmtRate(lo), fmtRate(hi), n)
		}
		if i == 0 {
			base, baseLo, baseHi = r, lo, hi
		} else if base > 0 {
			s += sprintf(" (%+.1f%%", (r/base-1)*100)
			if n > 0 && baseHi > 0 && lo <= baseHi && hi >= baseLo {
				s += ", within the per-second spread"
			}
			s += ")"
		}
		parts = append(parts, s)
	}
	var what []string
	if o.ChurnInterval > 0 {
		what = append(what, "a topic created and one deleted every "+o.ChurnInterval.String())
	}
	if o.ChurnBrokers {
		what = append(what, "a broker joining at the start and leaving at the end")
	}
	return sprintf("churn from %s for %s (%s): %d operations, %d errors; %s, %s, %s",
		o.ChurnStart, o.ChurnFor, strings.Join(what, ", "), b.churnOps.Load(), b.churnErrs.Load(), parts[0], parts[1], parts[2])
}

// fmtRate formats a rate with thousands separators (msgload.FmtRate).
func fmtRate(r float64) string { return msgload.FmtRate(r) }

// spread returns the lowest and highest of xs and their count.
func spread(xs []float64) (lo, hi float64, n int) { return msgload.Spread(xs) }
