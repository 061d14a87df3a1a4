package verdict

import (
	"fmt"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/metric"
)

// Counters are the figures of one scenario the verdict is decided from.
type Counters struct {
	// Ops are the operations (requests; the iterations when the scenario
	// made no request) and Failed those of them that failed (errors, or
	// requests_failed when larger; at most Ops).
	Ops, Failed int64
	// What names Ops in texts: "requests" or "iterations".
	What string
	// Wrong counts wrong answers: failures of the answer checks.
	Wrong int64
	// Scheduled is the number of iterations an arrival-rate schedule
	// planned over ScheduledOver (0 under the closed model).
	Scheduled     int64
	ScheduledOver time.Duration
	// Started counts the iterations that started: completed ones and Cut.
	Started int64
	// Dropped counts iterations dropped for want of a free VU.
	Dropped int64
	// Cut counts iterations still running when the graceful stop ended.
	Cut int64
	// Unreachable is the engine's note that the VUs spent more than 1% of
	// their time backing off after connection failures (few errors were
	// counted because the VUs waited); empty when there is none.
	Unreachable string
	// Top is the most frequent error message.
	Top metric.ErrorCount
	// Stopped is why stampede stopped the run early (a full disk:
	// metric.Snapshot.Stopped); empty otherwise.
	Stopped string
}

// CountersOf reads the verdict's counters from a scenario snapshot.
func CountersOf(sc *metric.ScenarioSnapshot) Counters {
	c := Counters{
		Ops: sc.Counters[metric.Requests], What: "requests",
		Scheduled: sc.Scheduled, ScheduledOver: sc.ScheduledOver,
		Started: sc.Counters[metric.Iterations] + sc.Cut,
		Dropped: sc.Counters[metric.DroppedIterations], Cut: sc.Cut,
	}
	if c.Ops == 0 {
		c.Ops, c.What = sc.Counters[metric.Iterations], "iterations"
	}
	// errors and requests_failed count the same operations (the engine
	// records a failure once, in both); errors also holds failures no
	// operation carries (a message lost end to end), so the larger is
	// taken, never more than the operations.
	c.Failed = sc.Counters[metric.Errors]
	if r := sc.Rates[metric.RequestsFailed]; r != nil && r.Passes > c.Failed {
		c.Failed = r.Passes // k6's Rate: a failure is a "pass"
	}
	c.Failed = min(c.Failed, c.Ops)
	for _, name := range []string{AnswerCheck, WriteCheck} {
		if r := sc.Rates[metric.CheckMetric(name).Name]; r != nil {
			c.Wrong += r.Fails
		}
	}
	if top := sc.SortedErrors(); len(top) > 0 {
		c.Top = top[0]
	}
	for _, n := range sc.Notes {
		if strings.HasPrefix(n, metric.UnreachableNote) {
			c.Unreachable = n
		}
	}
	return c
}

// Decide applies the rules of the package comment to c. Every rule that
// applies is a reason, the worst first; the status is that of the worst.
func Decide(c Counters) Scenario {
	v := Scenario{Status: Passed, Top: c.Top}
	add := func(r Rule, s Status, format string, args ...any) {
		v.Reason = append(v.Reason, Reason{Rule: r, Status: s, Text: fmt.Sprintf(format, args...)})
		if s.rank() > v.Status.rank() {
			v.Status = s
		}
	}
	what := c.What
	if what == "" {
		what = "operations"
	}
	switch {
	case c.Ops == 0:
		add(RuleNoSuccess, Failed, "no successful operation: no %s completed", what)
	case c.Failed >= c.Ops:
		add(RuleNoSuccess, Failed, "no successful operation: all %d %s failed", c.Ops, what)
	}
	if c.Wrong > 0 {
		add(RuleWrongAnswer, Failed, "%d wrong answers (checks against the reference failed)", c.Wrong)
	}
	if c.Ops > 0 && c.Failed < c.Ops && float64(c.Failed) > FailedOpsLimit*float64(c.Ops) {
		add(RuleFailedOps, Degraded, "%s of %d %s failed", pct(c.Failed, c.Ops), c.Ops, what)
	}
	if c.Scheduled > 0 && float64(c.Started) < (1-RateMissLimit)*float64(c.Scheduled) {
		if s := c.ScheduledOver.Seconds(); s > 0 {
			add(RuleRateMissed, Degraded, "rate missed: %s/s of the %s/s asked (%s)",
				num(float64(c.Started)/s), num(float64(c.Scheduled)/s), pct(c.Started, c.Scheduled))
		} else {
			add(RuleRateMissed, Degraded, "rate missed: %d of the %d scheduled iterations started (%s)", c.Started, c.Scheduled, pct(c.Started, c.Scheduled))
		}
	}
	if c.Scheduled > 0 && float64(c.Dropped) > DroppedLimit*float64(c.Scheduled) {
		add(RuleDropped, Degraded, "%d dropped iterations (%s of the %d scheduled): no free VU", c.Dropped, pct(c.Dropped, c.Scheduled), c.Scheduled)
	}
	if c.Unreachable != "" {
		add(RuleUnreachable, Degraded, "%s", c.Unreachable)
	}
	if c.Stopped != "" {
		add(RuleStopped, Degraded, "stopped early: %s", c.Stopped)
	}
	if c.Cut > 0 {
		add(RuleGraceful, Degraded, "%d iterations ran into the end of the graceful stop and were interrupted", c.Cut)
	}
	// The worst reasons first, in rule order otherwise.
	sortReasons(v.Reason)
	return v
}

func sortReasons(rs []Reason) {
	for i := 1; i < len(rs); i++ {
		for j := i; j > 0 && rs[j].Status.rank() > rs[j-1].Status.rank(); j-- {
			rs[j], rs[j-1] = rs[j-1], rs[j]
		}
	}
}

func pct(n, of int64) string { return fmt.Sprintf("%.2f%%", 100*float64(n)/float64(of)) }

// num formats a rate: no decimals from 100 up, two below.
func num(v float64) string {
	if v >= 100 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.2f", v)
}
