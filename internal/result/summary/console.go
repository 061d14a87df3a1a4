package summary

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/monitor"
	"github.com/stampede-bench/stampede/threshold"
)

// Defaults of ConsoleOptions.
const (
	DefaultWidth     = 80
	DefaultTopErrors = 10
)

// ConsoleOptions tune WriteConsole.
type ConsoleOptions struct {
	// Target holds the --monitor summaries by scenario, shown as "target"
	// lines in each scenario's block.
	Target map[string][]monitor.Stats
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
	// TrendStats are the trend statistics shown (k6's
	// --summary-trend-stats, see ParseTrendStats); nil: DefaultTrendStats.
	TrendStats []string
	// Mode is the layout: ModeCompact, ModeFull or ModeLegacy (the
	// default, "": the layout before k6 v1; the CLI defaults to compact).
	Mode string
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
	c.failures()
	c.thresholds()
	switch opts.Mode {
	case ModeCompact, ModeFull:
		c.totals()
		for _, sc := range snap.Scenarios {
			if opts.Mode == ModeFull {
				c.scenario(sc)
			} else {
				c.scenarioRemarks(sc)
			}
		}
	default:
		for _, sc := range snap.Scenarios {
			c.scenario(sc)
		}
	}
	c.runNotes()
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
	// filter, when set, limits metrics() to the names it accepts (a
	// section of the TOTAL RESULTS block).
	filter func(name string) bool
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

// cutMark is the word a cut-short scenario's header carries: STOPPED when
// stampede stopped the run itself (Snapshot.Stopped), else INTERRUPTED.
func (c *console) cutMark() string {
	if c.snap.Stopped != "" {
		return "STOPPED"
	}
	return "INTERRUPTED"
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
	if c.snap.Stopped != "" {
		text = fmt.Sprintf("STOPPED EARLY: %s; results cover the first %s of the run", c.snap.Stopped, fmtDur(c.snap.End.Sub(c.snap.Start)))
	}
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
