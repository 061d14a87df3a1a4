package plan

import (
	"io"

	"github.com/stampede-bench/stampede/metric"
	"github.com/stampede-bench/stampede/threshold"
	"github.com/stampede-bench/stampede/verdict"
)

// Result is what a run measured and wrote.
type Result struct {
	// Dir is the result directory.
	Dir string
	// Snapshot holds every scenario's merged measurements.
	Snapshot *metric.Snapshot
	// Interrupted is set when the context stopped the run early; the
	// results cover the run until the stop.
	Interrupted bool
	// Thresholds are the evaluated thresholds, in the order given;
	// ThresholdsFailed is set when one failed (the command line exits 99
	// then, as k6 does).
	Thresholds       []threshold.Result
	ThresholdsFailed bool
	// Verdict is the run's verdict, the one the summaries show: passed,
	// degraded or failed by scenario, with reasons (Verdict.Failed(): the
	// command line exits 1).
	Verdict verdict.Run
	// SummaryJSON and SummaryText are summary.json (k6's
	// --summary-export shape) and summary.txt (the console summary
	// without colour) as written; SummaryANSI is the console summary in
	// ANSI colour. Each is nil when it could not be made.
	SummaryJSON, SummaryText, SummaryANSI []byte
	// Tags are the run's tags, testid included.
	Tags map[string]string
}

// WriteConsole writes the console summary the way `stampede run` prints
// it: in ANSI colour when color is set (SummaryANSI), else exactly
// summary.txt (SummaryText). A nil Result writes nothing.
func (r *Result) WriteConsole(w io.Writer, color bool) error {
	if r == nil {
		return nil
	}
	b := r.SummaryText
	if color {
		b = r.SummaryANSI
	}
	_, err := w.Write(b)
	return err
}
