package compare

import (
	"fmt"
	"strings"

	"github.com/stampede-bench/stampede/internal/metrics"
)

// verdictNotes returns the verdicts' notes (too few runs, ...), once when
// every metric has the same one, else prefixed with the metric.
func verdictNotes(ms []MetricResult) []string {
	var notes []string
	same := len(ms) > 0
	for _, m := range ms {
		same = same && m.Verdict.Note == ms[0].Verdict.Note
	}
	if same {
		if n := ms[0].Verdict.Note; n != "" {
			notes = append(notes, n)
		}
		return notes
	}
	for _, m := range ms {
		if m.Verdict.Note != "" {
			notes = append(notes, m.Metric.String()+": "+m.Verdict.Note)
		}
	}
	return notes
}

// runNotes remarks on runs of a side that lack the scenario, were
// interrupted or saw errors.
func runNotes(s Side, scs []*metrics.ScenarioSnapshot) []string {
	var absent, interrupted []int
	var errs, reqs int64
	for i, sc := range scs {
		switch {
		case sc == nil:
			absent = append(absent, i+1)
			continue
		case sc.Interrupted:
			interrupted = append(interrupted, i+1)
		}
		errs += sc.Counters[metrics.Errors]
		n := sc.Counters[metrics.Requests]
		if n == 0 {
			n = sc.Counters[metrics.Iterations]
		}
		reqs += n
	}
	var notes []string
	if len(absent) > 0 {
		notes = append(notes, fmt.Sprintf("%s: scenario not in %s", s.Name, runList(absent, len(scs))))
	}
	if len(interrupted) > 0 {
		notes = append(notes, fmt.Sprintf("%s: interrupted in %s", s.Name, runList(interrupted, len(scs))))
	}
	if errs > 0 {
		pct := 100 * float64(errs) / float64(max(reqs, 1))
		notes = append(notes, fmt.Sprintf("%s: %d errors in %d requests (%.2f%%)", s.Name, errs, reqs, pct))
	}
	return notes
}

// runList names runs: "run 3", "runs 1, 4", "all 5 runs".
func runList(runs []int, total int) string {
	if len(runs) == total && total > 1 {
		return fmt.Sprintf("all %d runs", total)
	}
	if len(runs) == 1 {
		return fmt.Sprintf("run %d", runs[0])
	}
	s := make([]string, len(runs))
	for i, r := range runs {
		s[i] = fmt.Sprint(r)
	}
	return "runs " + strings.Join(s, ", ")
}
