package kafka

import (
	"fmt"

	"github.com/stampede-bench/stampede/internal/workload/msgload"
)

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

// report writes a producing scenario's notes at teardown: the core's
// report (throughput, per-topic spread, churn phases) in kafka words.
func (b *base) report() {
	if !b.produces() {
		return
	}
	b.Report(msgload.Words{Part: "topic", SpreadHow: msgload.SpreadHow("topic", b.maxVUs, len(b.topics)), Fault: b.churnText()})
}

// churnText describes the churn window and its operations.
func (b *base) churnText() string {
	if !b.churn() {
		return ""
	}
	o := &b.opts
	var what []string
	if o.ChurnInterval > 0 {
		what = append(what, "a topic created and one deleted every "+o.ChurnInterval.String())
	}
	if o.ChurnBrokers {
		what = append(what, "a broker joining at the start and leaving at the end")
	}
	return msgload.ChurnText(o.ChurnStart, o.ChurnFor, what, b.ChurnOps.Load(), b.ChurnErrs.Load())
}

// fmtRate formats a rate with thousands separators (msgload.FmtRate).
func fmtRate(r float64) string { return msgload.FmtRate(r) }
