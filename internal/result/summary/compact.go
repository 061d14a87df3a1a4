package summary

import (
	"fmt"
	"sort"
	"strings"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/metric"
)

// Summary modes (ConsoleOptions.Mode, --summary-mode), as k6 v1 names
// them.
const (
	// ModeCompact is k6 v1's default: the run's totals in k6's sections
	// (TOTAL RESULTS: checks, HTTP, EXECUTION, NETWORK, then the other
	// metrics), each scenario's errors, target readings and notes, and
	// the OVERVIEW table.
	ModeCompact = "compact"
	// ModeFull is ModeCompact with every scenario's own metrics block.
	ModeFull = "full"
	// ModeLegacy is the layout before k6 v1: one metrics block per
	// scenario, then the OVERVIEW.
	ModeLegacy = "legacy"
)

// CheckMode validates a --summary-mode value ("" is ModeCompact).
func CheckMode(mode string) error {
	switch mode {
	case "", ModeCompact, ModeFull, ModeLegacy:
		return nil
	}
	return fmt.Errorf("--summary-mode %q: want compact, full or legacy", mode)
}

// section is one of k6's groups of the TOTAL RESULTS block.
type section struct {
	title string
	has   func(name string) bool
}

func baseName(name string) string {
	base, _, _ := strings.Cut(name, "{")
	return base
}

var sections = []section{
	{"HTTP", func(n string) bool { return strings.HasPrefix(baseName(n), "http_") }},
	{"EXECUTION", func(n string) bool {
		switch baseName(n) {
		case metrics.IterationDuration, metrics.Iterations, metrics.VUs, metrics.VUsMax, metrics.DroppedIterations:
			return true
		}
		return false
	}},
	{"NETWORK", func(n string) bool {
		b := baseName(n)
		return b == metrics.DataSent || b == metrics.DataReceived
	}},
}

// custom tells the metrics of no k6 section (stampede's own: responseTime,
// latency, requests, rows, ...), shown last as k6 shows custom metrics.
func custom(n string) bool {
	if baseName(n) == metrics.Checks {
		return false
	}
	for _, s := range sections {
		if s.has(n) {
			return false
		}
	}
	return true
}

// totals writes k6 v1's TOTAL RESULTS block over every scenario.
func (c *console) totals() {
	total := metric.Total(c.snap)
	c.header("TOTAL RESULTS", "")
	c.totalChecks(total)
	for _, s := range append(sections, section{"CUSTOM", custom}) {
		if !hasAny(total, s.has) {
			continue
		}
		c.line(subIndent + s.title)
		c.filter = s.has
		c.metrics(total)
		c.filter = nil
		c.line("")
	}
}

// totalChecks writes checks_total, checks_succeeded and checks_failed,
// then each named check with its mark, as k6 v1 does.
func (c *console) totalChecks(total *metrics.ScenarioSnapshot) {
	r := total.Rates[metrics.Checks]
	if r == nil || r.Passes+r.Fails == 0 {
		return
	}
	n := r.Passes + r.Fails
	rows := [][2]string{
		{"checks_total", pad(fmtNum(float64(n)), 8) + " " + fmtNum(float64(n)/total.Duration().Seconds()) + "/s"},
		{"checks_succeeded", pad(fmtPct(r.Value()), 8) + " " + fmt.Sprintf("%d out of %d", r.Passes, n)},
		{"checks_failed", pad(fmtPct(float64(r.Fails)/float64(n)), 8) + " " + fmt.Sprintf("%d out of %d", r.Fails, n)},
	}
	for _, row := range rows {
		c.line(subIndent + row[0] + c.st.paint(strings.Repeat(".", 20-len(row[0]))+":", faint) + " " + c.st.paint(row[1], cyan))
	}
	c.line("")
	var names []string
	for metric := range total.Rates {
		if name, ok := metrics.CheckName(metric); ok {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return
	}
	sort.Strings(names)
	for _, name := range names {
		cr := total.Rates[metrics.CheckMetric(name).Name]
		if cr.Fails == 0 {
			c.line(subIndent + c.st.paint(succMark, green) + " " + clip(name, c.opts.Width-len(subIndent)-2))
			continue
		}
		c.line(subIndent + c.st.paint(failMark, red) + " " + clip(name, c.opts.Width-len(subIndent)-2))
		c.line(subIndent + "  ↳  " + fmtPct(cr.Value()) + " — " + succMark + " " + fmtNum(float64(cr.Passes)) + " / " + failMark + " " + fmtNum(float64(cr.Fails)))
	}
	c.line("")
}

func hasAny(sc *metrics.ScenarioSnapshot, has func(string) bool) bool {
	for n := range sc.Trends {
		if has(n) {
			return true
		}
	}
	for n := range sc.Counters {
		if has(n) {
			return true
		}
	}
	for n := range sc.Rates {
		if _, named := metrics.CheckName(n); !named && has(n) {
			return true
		}
	}
	for n := range sc.Gauges {
		if has(n) {
			return true
		}
	}
	return false
}

// scenarioRemarks writes what compact mode keeps of a scenario: its
// errors by message, target readings and notes, under its name.
func (c *console) scenarioRemarks(sc *metrics.ScenarioSnapshot) {
	if len(sc.Errors) == 0 && len(sc.Notes) == 0 && len(c.opts.Target[sc.Name]) == 0 {
		return
	}
	detail := fmtDur(sc.Duration())
	if sc.Interrupted {
		detail += ", " + c.cutMark()
	}
	c.header(sc.Name, detail)
	c.errors(sc)
	c.target(sc)
	c.notes(sc)
}
