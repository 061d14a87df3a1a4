package nats

import (
	"fmt"
	"runtime"

	"github.com/stampede-bench/stampede/internal/workload/msgload"
)

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

func cores() int { return max(1, runtime.NumCPU()) }

// report writes a publishing scenario's notes at teardown: the core's
// report (throughput, per-stream spread, fault phases) in nats words, and
// the publish retries.
func (b *base) report() {
	if !b.IsStarted() {
		return
	}
	b.Report(msgload.Words{Ack: "by PubAck", Part: "stream", SpreadHow: msgload.SpreadHow("stream", b.maxVUs, len(b.streams)), Fault: b.faultText()})
	if n := b.Retries.Load(); n > 0 {
		o := &b.opts
		b.Note("%d publish retries after \"no responders\" (no stream leader answered, as in an election): up to %d per message, %s apart (--nats-publish-retries, --nats-publish-retry-wait); each is counted in publish_retries and its wait is in the message's publish latency",
			n, o.PublishRetries, o.PublishRetryWait)
	}
}

// faultText describes the fault window: what --kill-node did, or the
// churn and its operations.
func (b *base) faultText() string {
	if !b.Fault.On {
		return ""
	}
	if b.kill.Enabled() {
		b.killMu.Lock()
		ev := b.killEv
		b.killMu.Unlock()
		return ev.Describe(b.kill)
	}
	o := &b.opts
	var what []string
	if o.ChurnInterval > 0 {
		what = append(what, "a stream created and one deleted every "+o.ChurnInterval.String())
	}
	if o.ChurnNodes {
		if b.cluster != nil {
			what = append(what, "a node leaving at the start and rejoining at the end")
		} else {
			what = append(what, "no node churn (needs the embedded cluster)")
		}
	}
	return msgload.ChurnText(o.ChurnStart, o.ChurnFor, what, b.ChurnOps.Load(), b.ChurnErrs.Load())
}

// fmtRate formats a rate with thousands separators (msgload.FmtRate).
func fmtRate(r float64) string { return msgload.FmtRate(r) }
