package summary

import (
	"fmt"
	"strings"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/threshold"
	"github.com/stampede-bench/stampede/verdict"
)

// overview is the table the seed users assembled by hand.
func (c *console) overview() {
	if len(c.snap.Scenarios) == 0 {
		return
	}
	c.header("OVERVIEW", "responseTime percentiles")
	head := []string{"scenario", "QPS", "p50", "p95", "p99", "errors"}
	rows := [][]string{head}
	for _, sc := range c.snap.Scenarios {
		requests := sc.Counters[metrics.Requests]
		if requests == 0 {
			requests = sc.Counters[metrics.Iterations]
		}
		r := []string{sc.Name, fmtNum(threshold.PerSecond(float64(requests), sc)), "-", "-", "-"}
		if t := sc.Trends[metrics.ResponseTime]; t != nil {
			s := t.Stats()
			r[2], r[3], r[4] = fmtMs(s.Med/1000), fmtMs(s.P95/1000), fmtMs(s.P99/1000)
		}
		errs := sc.Counters[metrics.Errors]
		e := fmt.Sprint(errs)
		if requests > 0 {
			e += " (" + fmtPct(float64(errs)/float64(requests)) + ")"
		}
		rows = append(rows, append(r, e))
	}
	// The columns keep their order whatever the errors (scripts read
	// summary.txt by column): a failing run says so below the table.
	failing := false
	for _, sc := range c.snap.Scenarios {
		failing = failing || metrics.FailureOf(sc) != nil
	}
	widths := make([]int, len(head))
	for i, r := range rows {
		for j, v := range r {
			if j == 0 && i > 0 && c.snap.Scenarios[i-1].Interrupted {
				v += "*"
			}
			widths[j] = max(widths[j], width(v))
		}
	}
	const gap = 2
	rest := 0
	for _, w := range widths[1:] {
		rest += gap + w
	}
	widths[0] = max(min(widths[0], c.opts.Width-width(subIndent)-rest), len(head[0]))
	interrupted := false
	for i, r := range rows {
		var b strings.Builder
		name := r[0]
		if i > 0 && c.snap.Scenarios[i-1].Interrupted {
			name, interrupted = clip(name, widths[0]-1)+"*", true
		}
		b.WriteString(pad(clip(name, widths[0]), widths[0]))
		for j := 1; j < len(r); j++ {
			b.WriteString(strings.Repeat(" ", gap))
			b.WriteString(padLeft(r[j], widths[j]))
		}
		s := b.String()
		if i == 0 {
			s = c.st.paint(s, bold)
		}
		c.line(subIndent + s)
	}
	if interrupted {
		c.line(subIndent + c.st.paint("* interrupted: measured until the stop", faint))
	}
	c.verdict()
	if failing {
		for _, l := range wrap(fmt.Sprintf("more than %s of the requests failed in some scenarios: QPS and percentiles include the failed requests", fmtPct(metrics.FailureThreshold)), c.opts.Width-width(subIndent)) {
			c.line(subIndent + c.st.paint(l, bold, red))
		}
	}
	c.line("")
}

// verdict ends the overview with the run's verdict (verdict.Of): "verdict:
// passed", or the status and each scenario that did not pass with its
// first reason.
func (c *console) verdict() {
	run := verdict.Of(c.snap)
	text := "verdict: " + string(run.Status)
	var parts []string
	for _, v := range run.Scenarios {
		if v.Status != verdict.Passed {
			parts = append(parts, v.Name+" "+v.Summary())
		}
	}
	if len(parts) > 0 {
		text += " (" + strings.Join(parts, "; ") + ")"
	}
	color := green
	switch run.Status {
	case verdict.Failed:
		color = red
	case verdict.Degraded:
		color = yellow
	}
	for _, l := range wrap(text, c.opts.Width-width(subIndent)) {
		c.line(subIndent + c.st.paint(l, bold, color))
	}
}
