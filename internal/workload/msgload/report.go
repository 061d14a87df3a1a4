package msgload

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// Words are what a family calls the things the core's notes name.
type Words struct {
	// Ack names the acknowledgement after "acknowledged": "" (Kafka) or
	// "by PubAck" (NATS).
	Ack string
	// Part is "topic" or "stream".
	Part string
	// SpreadHow, when set, ends the per-part line: how the VUs were
	// spread over the parts (so whether the spread is measured).
	SpreadHow string
	// Fault describes the fault window ahead of its phase rates: "churn
	// from 5s for 10s (...): 3 operations, 0 errors" or a kill's events;
	// "" when there is none.
	Fault string
}

// Report writes a publishing scenario's notes at teardown: the
// throughput acknowledged over the scenario, the per-part spread with
// several parts, and the msgs/s before, during and after a fault window.
// It writes nothing for a scenario that never started.
func (c *Core) Report(w Words) {
	if !c.started.Load() {
		return
	}
	el := c.Elapsed()
	c.Note("%s", ThroughputLine(w.Ack, c.Acked.Load(), c.AckedBytes.Load(), c.Failed.Load(), el))
	if len(c.Parts) > 1 {
		counts := make([]int64, len(c.Parts))
		for i := range counts {
			counts[i] = c.PerPart[i].Load()
		}
		c.Note("%s", PartSpread(w.Part, c.Parts, counts, el, w.SpreadHow))
		lat := make([]int64, len(c.Parts))
		for i := range lat {
			lat[i] = c.PerPartLatency[i].Load()
		}
		if line := PartLatency(w.Part, c.Parts, counts, lat); line != "" {
			c.Note("%s", line)
		}
	}
	if c.Fault.On && w.Fault != "" {
		var acked [3]int64
		var secs [3][]float64
		for p := range acked {
			acked[p] = c.PhaseAcked[p].Load()
			if c.Rate != nil {
				secs[p] = c.Rate.PhaseRates(p)
			}
		}
		c.Note("%s; %s", w.Fault, PhaseRates(c.Fault.Spans(el), acked, secs))
	}
}

// ThroughputLine is "throughput X msgs/s, Y MB/s (MB = 2^20) acknowledged
// [by ...] over D; N failed".
func ThroughputLine(by string, acked, bytes, failed int64, el time.Duration) string {
	if by != "" {
		by = " " + by
	}
	sec := el.Seconds()
	return sprintf("throughput %s msgs/s, %.1f MB/s (MB = 2^20) acknowledged%s over %s; %d failed",
		FmtRate(float64(acked)/sec), float64(bytes)/(1<<20)/sec, by, el.Round(time.Millisecond), failed)
}

// PartSpread summarizes the acknowledged messages per topic or stream
// (part): the lowest, median and highest in msgs/s over el, the total,
// and how, when given.
func PartSpread(part string, names []string, counts []int64, el time.Duration, how string) string {
	type pc struct {
		name string
		n    int64
	}
	all := make([]pc, len(names))
	var total int64
	for i := range names {
		all[i] = pc{names[i], counts[i]}
		total += counts[i]
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].n < all[j].n })
	rate := func(n int64) string { return FmtRate(float64(n) / el.Seconds()) }
	lo, med, hi := all[0], all[len(all)/2], all[len(all)-1]
	s := sprintf("per %s (%d %ss): min %s msgs/s (%s), median %s, max %s (%s); total %s msgs/s, %d messages",
		part, len(all), part, rate(lo.n), lo.name, rate(med.n), rate(hi.n), hi.name, rate(total), total)
	if how != "" {
		s += "; " + how
	}
	return s
}

// PartLatency is "mean publish latency per stream (each from its own
// acknowledgements): min X (name), median Y, max Z (name)" from each
// part's acknowledged messages (counts) and the sum of their publish
// latencies in µs (sums); "" when no part has an acknowledged message.
// Parts without one are left out and counted.
func PartLatency(part string, names []string, counts, sums []int64) string {
	type pl struct {
		name string
		mean time.Duration
	}
	var all []pl
	for i := range names {
		if counts[i] > 0 {
			all = append(all, pl{names[i], time.Duration(sums[i] / counts[i] * int64(time.Microsecond))})
		}
	}
	if len(all) == 0 {
		return ""
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].mean < all[j].mean })
	lo, med, hi := all[0], all[len(all)/2], all[len(all)-1]
	s := sprintf("mean publish latency per %s (each from its own acknowledgements): min %s (%s), median %s, max %s (%s)",
		part, FmtLatency(lo.mean), lo.name, FmtLatency(med.mean), FmtLatency(hi.mean), hi.name)
	if n := len(names) - len(all); n > 0 {
		s += sprintf("; %d %s(s) without an acknowledged message", n, part)
	}
	return s
}

// Spans are the lengths of the phases before, during and after w in a
// scenario that lasted el.
func (w Window) Spans(el time.Duration) [3]time.Duration {
	length := w.For
	if length <= 0 {
		length = el
	}
	during := max(0, min(length, el-w.From))
	before := min(w.From, el)
	return [3]time.Duration{before, during, max(0, el-before-during)}
}

// PhaseRates is "before X msgs/s [per second a–b, n s], during Y msgs/s
// [...] (−z%, within the per-second spread), after ..." from the messages
// acknowledged in each phase (acked), the phases' lengths (spans) and
// their per-second samples (secs). A later phase's change is against
// before; "within the per-second spread" says when the per-second ranges
// overlap, so the change may be noise.
func PhaseRates(spans [3]time.Duration, acked [3]int64, secs [3][]float64) string {
	parts := make([]string, 0, 3)
	var base, baseLo, baseHi float64
	for i := range spans {
		name := PhaseName(i)
		if spans[i] <= 0 {
			parts = append(parts, name+" -")
			continue
		}
		r := float64(acked[i]) / spans[i].Seconds()
		s := sprintf("%s %s msgs/s", name, FmtRate(r))
		lo, hi, n := Spread(secs[i])
		if n > 0 {
			s += sprintf(" [per second %s–%s, %d s]", FmtRate(lo), FmtRate(hi), n)
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
	return strings.Join(parts, ", ")
}
