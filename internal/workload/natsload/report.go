package natsload

import (
	"fmt"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/internal/workload/msgload"
)

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

func cores() int { return max(1, runtime.NumCPU()) }

// report writes a publishing scenario's notes at teardown.
func (b *base) report() {
	if !b.started.Load() {
		return
	}
	el := time.Since(b.startWall)
	o := &b.opts
	n := b.acked.Load()
	b.note("throughput %s msgs/s, %.1f MB/s (MB = 2^20) acknowledged by PubAck over %s; %d failed",
		fmtRate(float64(n)/el.Seconds()), float64(b.ackedBytes.Load())/(1<<20)/el.Seconds(), el.Round(time.Millisecond), b.failed.Load())
	if len(b.streams) > 1 {
		b.note("%s", b.streamSpread(el))
	}
	if n := b.retries.Load(); n > 0 {
		b.note("%d publish retries after \"no responders\" (no stream leader answered, as in an election): up to %d per message, %s apart (--nats-publish-retries, --nats-publish-retry-wait); each is counted in publish_retries and its wait is in the message's publish latency",
			n, o.PublishRetries, o.PublishRetryWait)
	}
	if b.churn() {
		b.note("%s", b.churnReport(el))
	}
}

func (b *base) streamSpread(el time.Duration) string {
	type sc struct {
		name string
		n    int64
	}
	all := make([]sc, len(b.streams))
	var total int64
	for i, s := range b.streams {
		all[i] = sc{s, b.perStream[i].Load()}
		total += all[i].n
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].n < all[j].n })
	rate := func(n int64) string { return fmtRate(float64(n) / el.Seconds()) }
	lo, med, hi := all[0], all[len(all)/2], all[len(all)-1]
	how := "each VU writes one stream (VU i → stream i mod S), so the spread is measured"
	if !b.pinned() {
		how = "fewer VUs than streams: the VUs rotate over the streams, so per-stream counts are equal by construction"
	}
	return sprintf("per stream (%d streams): min %s msgs/s (%s), median %s, max %s (%s); total %s msgs/s; %s",
		len(all), rate(lo.n), lo.name, rate(med.n), rate(hi.n), hi.name, rate(total), how)
}

func (b *base) churnReport(el time.Duration) string {
	o := &b.opts
	during := min(b.winFor, el-b.winFrom)
	spans := [3]time.Duration{b.winFrom, during, el - b.winFrom - during}
	var parts []string
	var base float64
	for i, p := range phases {
		if spans[i] <= 0 {
			parts = append(parts, p+" -")
			continue
		}
		r := float64(b.phaseAcked[i].Load()) / spans[i].Seconds()
		s := sprintf("%s %s msgs/s", p, fmtRate(r))
		if b.rate != nil {
			if lo, hi, n := msgload.Spread(b.rate.PhaseRates(i)); n > 0 {
				s += sprintf(" [per second %s–%s, %d s]", fmtRate(lo), fmtRate(hi), n)
			}
		}
		if i == 0 {
			base = r
		} else if base > 0 {
			s += sprintf(" (%+.1f%%)", (r/base-1)*100)
		}
		parts = append(parts, s)
	}
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
	if b.kill.Enabled() {
		b.killMu.Lock()
		ev := b.killEv
		b.killMu.Unlock()
		return sprintf("%s; %s", ev.Describe(b.kill), strings.Join(parts, ", "))
	}
	return sprintf("churn from %s for %s (%s): %d operations, %d errors; %s",
		o.ChurnStart, o.ChurnFor, strings.Join(what, ", "), b.churnOps.Load(), b.churnErrs.Load(), strings.Join(parts, ", "))
}

// fmtRate formats a rate with thousands separators (msgload.FmtRate).
func fmtRate(r float64) string { return msgload.FmtRate(r) }
