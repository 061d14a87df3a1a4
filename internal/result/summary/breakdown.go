package summary

import (
	"fmt"

	"github.com/stampede-bench/stampede/internal/metrics"
)

// errors writes the breakdown of sc's errors by message: what the seed
// users got from awk -F ',' '{print $NF}' | sort | uniq -c.
func (c *console) errors(sc *metrics.ScenarioSnapshot) {
	errs := sc.SortedErrors()
	if len(errs) == 0 {
		return
	}
	var sum int64
	for _, e := range errs {
		sum += e.N
	}
	requests := sc.Counters[metrics.Requests]
	what := "requests"
	if requests == 0 {
		requests, what = sc.Counters[metrics.Iterations], "iterations"
	}
	head := fmt.Sprintf("ERRORS BY MESSAGE  %d", sum)
	if requests > 0 {
		head += fmt.Sprintf(" of %d %s (%s)", requests, what, fmtPct(float64(sum)/float64(requests)))
	}
	c.line(subIndent + c.st.paint(head, bold))
	shown := errs[:min(len(errs), c.opts.TopErrors)]
	countW := len(fmt.Sprint(shown[0].N))
	for _, e := range shown {
		count := padLeft(fmt.Sprint(e.N), countW)
		pct := padLeft(fmtPct(float64(e.N)/float64(sum)), 7)
		lead := subIndent + "  " + count + "  " + pct + "  "
		c.wrapped(lead, e.Msg, red) // the whole cause: it is why the run failed
	}
	if rest := errs[len(shown):]; len(rest) > 0 {
		var n int64
		for _, e := range rest {
			n += e.N
		}
		c.line(subIndent + c.st.paint(fmt.Sprintf("  … %d more messages (%d errors, %s)", len(rest), n, fmtPct(float64(n)/float64(sum))), faint))
	}
	c.line("")
}

// notes lists the scenario's own notes; the run-wide ones
// (metrics.RunNotes) are listed once, by runNotes.
func (c *console) notes(sc *metrics.ScenarioSnapshot) {
	c.noteLines(metrics.OwnNotes(sc, metrics.RunNotes(c.snap)))
}

// runNotes lists, once, the notes every scenario of the run carries.
func (c *console) runNotes() {
	run := metrics.RunNotes(c.snap)
	if len(run) == 0 {
		return
	}
	c.header("RUN NOTES", "all scenarios")
	c.noteLines(run)
}

func (c *console) noteLines(notes []string) {
	if len(notes) == 0 {
		return
	}
	for _, n := range notes {
		for i, l := range wrap(n, c.opts.Width-width(subIndent)-6) {
			lead := "note: "
			if i > 0 {
				lead = "      "
			}
			c.line(subIndent + c.st.paint(lead, yellow) + l)
		}
	}
	c.line("")
}
