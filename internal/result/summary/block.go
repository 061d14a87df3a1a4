package summary

import (
	"sort"
	"strings"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/threshold"
)

// scenario writes the block of one scenario: header, metrics, errors by
// message and notes.
func (c *console) scenario(sc *metrics.ScenarioSnapshot) {
	var detail []string
	if sc.Executor != "" {
		detail = append(detail, sc.Executor)
	}
	detail = append(detail, fmtDur(sc.Duration()))
	if sc.Interrupted {
		detail = append(detail, c.cutMark())
	}
	c.header(sc.Name, strings.Join(detail, ", "))
	c.checks(sc)
	c.metrics(sc)
	c.line("")
	c.errors(sc)
	c.target(sc)
	c.notes(sc)
}

// checks lists the named checks of sc as k6 does: ✓ NAME when all passed,
// else ✗ NAME with the pass rate and counts.
func (c *console) checks(sc *metrics.ScenarioSnapshot) {
	var names []string
	for metric := range sc.Rates {
		if n, ok := metrics.CheckName(metric); ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		r := sc.Rates[metrics.CheckMetric(n).Name]
		if r.Fails == 0 {
			c.line(subIndent + succMark + " " + clip(n, c.opts.Width-len(subIndent)-2))
			continue
		}
		c.line(subIndent + failMark + " " + clip(n, c.opts.Width-len(subIndent)-2))
		c.line(subIndent + "  ↳  " + fmtPct(r.Value()) + " — " + succMark + " " + fmtNum(float64(r.Passes)) + " / " + failMark + " " + fmtNum(float64(r.Fails)))
	}
	if len(names) > 0 {
		c.line("")
	}
}

// marks returns the threshold mark of each metric of sc: scoped thresholds,
// and unscoped ones when sc is the only scenario.
func (c *console) marks(sc *metrics.ScenarioSnapshot) map[string]bool {
	pass := map[string]bool{}
	suffix := "{scenario:" + sc.Name + "}"
	tagged := ",scenario:" + sc.Name + "}" // a tagged submetric of this scenario
	for _, r := range c.opts.Thresholds {
		name, ok := strings.CutSuffix(r.Metric, suffix)
		if !ok {
			if base, cut := strings.CutSuffix(r.Metric, tagged); cut {
				name, ok = base+"}", true
			}
		}
		if !ok && (len(c.snap.Scenarios) != 1 || strings.Contains(r.Metric, "{scenario:") || strings.Contains(r.Metric, ",scenario:")) {
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
	key    string // the metric's name, for its threshold mark
}

func (c *console) metrics(sc *metrics.ScenarioSnapshot) {
	trendStats := c.trendStats()
	var rows []row
	for name, t := range sc.Trends {
		if c.filter != nil && !c.filter(name) {
			continue // another section's: its statistics are not needed here
		}
		s := t.Stats()
		f := fmtNum
		k := 1.0
		switch t.Unit {
		case metrics.UnitMicros:
			f, k = fmtMs, 1000
		case metrics.UnitBytes:
			f = fmtBytes
		}
		vals := make([]string, len(trendStats))
		for i, st := range trendStats {
			if st == "count" {
				vals[i] = fmtNum(float64(s.Count))
				continue
			}
			vals[i] = f(trendStat(t, &s, st) / k)
		}
		rows = append(rows, row{name: name, trend: vals})
	}
	for name, n := range sc.Counters {
		v, f := float64(n), fmtNum
		switch sc.Units[name] {
		case metrics.UnitMicros:
			v, f = v/1000, fmtMs
		case metrics.UnitBytes:
			f = fmtBytes
		}
		rows = append(rows, row{name: name, value: f(v), extras: []string{f(threshold.PerSecond(v, sc)) + "/s"}})
	}
	for name, r := range sc.Rates {
		if _, named := metrics.CheckName(name); named {
			continue // listed by checks, as k6 does
		}
		rows = append(rows, row{name: name, value: fmtPct(r.Value()),
			extras: []string{succMark + " " + fmtNum(float64(r.Passes)), failMark + " " + fmtNum(float64(r.Fails))}})
	}
	for name, g := range sc.Gauges {
		rows = append(rows, row{name: name, value: fmtNum(g.Value), extras: []string{"min=" + fmtNum(g.Min), "max=" + fmtNum(g.Max)}})
	}
	if c.filter != nil {
		kept := rows[:0]
		for _, r := range rows {
			if c.filter(r.name) {
				kept = append(kept, r)
			}
		}
		rows = kept
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
		r.key = r.name
		if base, tags, ok := strings.Cut(r.name, "{"); ok && base != "" && strings.HasSuffix(tags, "}") {
			// A tagged submetric sits under its metric, as k6 shows it:
			// "  { expected_response:true }".
			r.name = "  { " + strings.TrimSuffix(tags, "}") + " }"
			r.name = clip(r.name, max(c.opts.Width/3, 30))
		} else {
			r.name = clip(r.name, c.opts.Width/3)
		}
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
	for perLine > 1 && !chunksFit(trendStats, statMax, perLine, c.opts.Width-prefix) {
		perLine--
	}
	marks := c.marks(sc)
	for _, r := range rows {
		mark := " "
		if pass, ok := marks[r.key]; ok {
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
				c.line(head + c.stats(trendStats, r.trend, statMax, from, to))
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
func chunksFit(trendStats []string, widths []int, perLine, room int) bool {
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

func (c *console) stats(trendStats, vals []string, widths []int, from, to int) string {
	parts := make([]string, 0, to-from)
	for i := from; i < to; i++ {
		parts = append(parts, trendStats[i]+"="+c.st.paint(vals[i], cyan)+strings.Repeat(" ", widths[i]-width(vals[i])))
	}
	return strings.Join(parts, " ")
}
