package summary

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/threshold"
)

// Defaults of ConsoleOptions.
const (
	DefaultWidth     = 80
	DefaultTopErrors = 10
)

// ConsoleOptions tune WriteConsole.
type ConsoleOptions struct {
	// Color turns on ANSI colors (k6's palette). Set it only when the
	// output is a terminal.
	Color bool
	// Thresholds are evaluated results, shown first and as ✓/✗ marks on
	// their metrics.
	Thresholds []threshold.Result
	// Width is the number of columns to fit (default 80). Long names and
	// messages are cut with "…".
	Width int
	// TopErrors is how many error messages to list per scenario (default
	// 10); the rest are counted in one line.
	TopErrors int
}

const (
	indent    = "  "
	subIndent = "    "
	succMark  = "✓"
	failMark  = "✗"
	groupMark = "█"
)

// WriteConsole writes k6's end-of-test summary for snap: an INTERRUPTED
// banner when the run was stopped early, the thresholds, one block per
// scenario (metrics with dotted names, its error breakdown by message and
// its notes), then an overview table of all scenarios: QPS, p50, p95, p99
// of responseTime and errors.
func WriteConsole(w io.Writer, snap *metrics.Snapshot, opts ConsoleOptions) error {
	if opts.Width <= 0 {
		opts.Width = DefaultWidth
	}
	if opts.TopErrors <= 0 {
		opts.TopErrors = DefaultTopErrors
	}
	c := &console{opts: opts, st: style(opts.Color), snap: snap}
	bw := bufio.NewWriter(w)
	c.w = bw
	c.line("")
	c.interrupted()
	c.thresholds()
	for _, sc := range snap.Scenarios {
		c.scenario(sc)
	}
	c.overview()
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("summary: %w", err)
	}
	return nil
}

type console struct {
	w    *bufio.Writer
	opts ConsoleOptions
	st   style
	snap *metrics.Snapshot
}

func (c *console) line(s string) {
	c.w.WriteString(strings.TrimRight(s, " "))
	c.w.WriteByte('\n')
}

// header starts a section: "█ TITLE  detail", the detail going to its
// own line when both do not fit.
func (c *console) header(title, detail string) {
	lead := indent + groupMark + " "
	room := c.opts.Width - width(lead)
	title = clip(title, room)
	switch {
	case detail == "":
		c.line(lead + c.st.paint(title, bold))
	case width(title)+2+width(detail) <= room:
		c.line(lead + c.st.paint(title, bold) + "  " + c.st.paint(detail, faint))
	default:
		c.line(lead + c.st.paint(title, bold))
		c.line(strings.Repeat(" ", width(lead)) + c.st.paint(clip(detail, room), faint))
	}
	c.line("")
}

func (c *console) interrupted() {
	if !c.snap.Interrupted {
		return
	}
	var cut []string
	for _, sc := range c.snap.Scenarios {
		if sc.Interrupted {
			cut = append(cut, sc.Name)
		}
	}
	text := fmt.Sprintf("INTERRUPTED: results cover the first %s of the run, until it was stopped", fmtDur(c.snap.End.Sub(c.snap.Start)))
	if len(cut) > 0 {
		text += "; cut short: " + strings.Join(cut, ", ")
	}
	for _, l := range wrap(text, c.opts.Width-width(indent)) {
		c.line(indent + c.st.paint(l, bold, red))
	}
	c.line("")
}

func (c *console) thresholds() {
	rs := c.opts.Thresholds
	if len(rs) == 0 {
		return
	}
	c.header("THRESHOLDS", "")
	var order []string
	byMetric := map[string][]threshold.Result{}
	for _, r := range rs {
		if _, ok := byMetric[r.Metric]; !ok {
			order = append(order, r.Metric)
		}
		byMetric[r.Metric] = append(byMetric[r.Metric], r)
	}
	room := c.opts.Width - width(subIndent)
	for _, m := range order {
		c.line(subIndent + clip(m, room))
		for _, r := range byMetric[m] {
			mark, color := succMark, green
			if !r.Pass {
				mark, color = failMark, red
			}
			head := mark + " '" + r.Expr + "'"
			var tail string
			if r.Err != nil {
				tail = r.Err.Error()
			} else {
				tail = r.Agg.String() + "=" + thresholdValue(r)
			}
			if width(head)+1+width(tail) <= room {
				c.line(subIndent + c.st.paint(head, color) + " " + c.st.paint(tail, cyan))
				continue
			}
			c.line(subIndent + c.st.paint(head, color))
			for _, l := range wrap(tail, room-2) {
				c.line(subIndent + "  " + c.st.paint(l, cyan))
			}
		}
		c.line("")
	}
}

// thresholdValue formats an observed value in the metric's terms.
func thresholdValue(r threshold.Result) string {
	switch {
	case r.Kind == metrics.KindRate:
		return fmtPct(r.Value)
	case r.Kind == metrics.KindCounter && r.Agg.Name == "rate":
		return fmtNum(r.Value) + "/s"
	case r.Unit == metrics.UnitMicros:
		return fmtMs(r.Value)
	}
	return fmtNum(r.Value)
}

func (c *console) scenario(sc *metrics.ScenarioSnapshot) {
	var detail []string
	if sc.Executor != "" {
		detail = append(detail, sc.Executor)
	}
	detail = append(detail, fmtDur(sc.Duration()))
	if sc.Interrupted {
		detail = append(detail, "INTERRUPTED")
	}
	c.header(sc.Name, strings.Join(detail, ", "))
	c.metrics(sc)
	c.line("")
	c.errors(sc)
	c.notes(sc)
}

// marks returns the threshold mark of each metric of sc: scoped thresholds,
// and unscoped ones when sc is the only scenario.
func (c *console) marks(sc *metrics.ScenarioSnapshot) map[string]bool {
	pass := map[string]bool{}
	suffix := "{scenario:" + sc.Name + "}"
	for _, r := range c.opts.Thresholds {
		name, ok := strings.CutSuffix(r.Metric, suffix)
		if !ok && (len(c.snap.Scenarios) != 1 || strings.Contains(r.Metric, "{")) {
			continue
		}
		p, seen := pass[name]
		pass[name] = r.Pass && (p || !seen)
	}
	return pass
}

// row is one metric line before alignment.
type row struct {
	name   string
	trend  []string // formatted trend stats, or nil
	value  string   // first column of other kinds
	extras []string
}

var trendStats = []string{"avg", "min", "med", "max", "p(90)", "p(95)", "p(99)"}

func (c *console) metrics(sc *metrics.ScenarioSnapshot) {
	var rows []row
	for name, t := range sc.Trends {
		s := t.Stats()
		f := fmtNum
		k := 1.0
		if t.Unit == metrics.UnitMicros {
			f, k = fmtMs, 1000
		}
		rows = append(rows, row{name: name, trend: []string{
			f(s.Avg / k), f(s.Min / k), f(s.Med / k), f(s.Max / k), f(s.P90 / k), f(s.P95 / k), f(s.P99 / k),
		}})
	}
	for name, n := range sc.Counters {
		v, f := float64(n), fmtNum
		if sc.Units[name] == metrics.UnitMicros {
			v, f = v/1000, fmtMs
		}
		rows = append(rows, row{name: name, value: f(v), extras: []string{fmtNum(threshold.PerSecond(v, sc)) + "/s"}})
	}
	for name, r := range sc.Rates {
		rows = append(rows, row{name: name, value: fmtPct(r.Value()),
			extras: []string{succMark + " " + fmtNum(float64(r.Passes)), failMark + " " + fmtNum(float64(r.Fails))}})
	}
	for name, g := range sc.Gauges {
		rows = append(rows, row{name: name, value: fmtNum(g.Value), extras: []string{"min=" + fmtNum(g.Min), "max=" + fmtNum(g.Max)}})
	}
	sort.Slice(rows, func(i, j int) bool {
		a, b := strings.ToLower(rows[i].name), strings.ToLower(rows[j].name)
		if a != b {
			return a < b
		}
		return rows[i].name < rows[j].name
	})

	// Column widths, as k6 aligns them.
	nameMax, valueMax := 0, 0
	var extraMax [2]int
	statMax := make([]int, len(trendStats))
	for i := range rows {
		r := &rows[i]
		r.name = clip(r.name, c.opts.Width/3)
		nameMax = max(nameMax, width(r.name))
		valueMax = max(valueMax, width(r.value))
		for j, e := range r.extras {
			extraMax[j] = max(extraMax[j], width(e))
		}
		for j, v := range r.trend {
			statMax[j] = max(statMax[j], width(v))
		}
	}
	prefix := width(subIndent) + 2 + nameMax + 3 + 2 // mark, space, name, dots, ": "
	// Trend statistics go on one line when they fit, else on as few
	// aligned lines as fit (avg..max, then the percentiles at 80 columns).
	perLine := len(trendStats)
	for perLine > 1 && !chunksFit(statMax, perLine, c.opts.Width-prefix) {
		perLine--
	}
	marks := c.marks(sc)
	for _, r := range rows {
		mark := " "
		if pass, ok := marks[r.name]; ok {
			mark = c.st.paint(succMark, green)
			if !pass {
				mark = c.st.paint(failMark, red)
			}
		}
		head := subIndent + mark + " " + r.name + c.st.paint(strings.Repeat(".", nameMax-width(r.name)+3)+":", faint) + " "
		if r.trend != nil {
			for from := 0; from < len(trendStats); from += perLine {
				to := min(from+perLine, len(trendStats))
				if from > 0 {
					head = strings.Repeat(" ", prefix)
				}
				c.line(head + c.stats(r.trend, statMax, from, to))
			}
			continue
		}
		data := c.st.paint(r.value, cyan) + strings.Repeat(" ", valueMax-width(r.value))
		for j, e := range r.extras {
			data += " " + pad(c.st.paint(e, cyan, faint), extraMax[j])
		}
		c.line(head + data)
	}
}

// chunksFit reports whether the trend stats laid out perLine to a line fit
// in room columns.
func chunksFit(widths []int, perLine, room int) bool {
	for from := 0; from < len(trendStats); from += perLine {
		n := -1
		for i := from; i < min(from+perLine, len(trendStats)); i++ {
			n += len(trendStats[i]) + 1 + widths[i] + 1
		}
		if n > room {
			return false
		}
	}
	return true
}

func (c *console) stats(vals []string, widths []int, from, to int) string {
	parts := make([]string, 0, to-from)
	for i := from; i < to; i++ {
		parts = append(parts, trendStats[i]+"="+c.st.paint(vals[i], cyan)+strings.Repeat(" ", widths[i]-width(vals[i])))
	}
	return strings.Join(parts, " ")
}

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
		c.line(lead + c.st.paint(clip(e.Msg, c.opts.Width-width(lead)), red))
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

func (c *console) notes(sc *metrics.ScenarioSnapshot) {
	if len(sc.Notes) == 0 {
		return
	}
	for _, n := range sc.Notes {
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
	c.line("")
}
