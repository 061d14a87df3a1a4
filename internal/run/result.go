package run

import (
	"io"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/result/finish"
	"github.com/stampede-bench/stampede/threshold"
	"github.com/stampede-bench/stampede/verdict"
)

// Result is what Execute measured and wrote.
type Result struct {
	// Dir is the result directory.
	Dir string
	// Snapshot holds every scenario's merged measurements.
	Snapshot *metrics.Snapshot
	// Interrupted is set when the context stopped the run early; the
	// results cover the run until the stop.
	Interrupted bool
	// Thresholds are the evaluated thresholds; ThresholdsFailed is set
	// when one failed (k6 exits 99 then).
	Thresholds       []threshold.Result
	ThresholdsFailed bool
	// Verdict is the run's verdict (package verdict), the one the
	// summaries show: a run with a failed scenario exits 1.
	Verdict verdict.Run
	// SummaryJSON and SummaryText are summary.json and summary.txt as
	// written (nil when writing them failed).
	SummaryJSON, SummaryText []byte
	// Tags are the run's tags, testid included.
	Tags map[string]string

	fin *finish.Result // what finish.Dir wrote
}

// WriteConsole writes the console summary (Show with finish.PrintText):
// in colour when color is set, else exactly summary.txt.
func (r *Result) WriteConsole(w io.Writer, color bool) error {
	return r.Show(w, finish.PrintText, color)
}

// Show prints the summary on w the one way run and merge do
// (finish.Result.Show): nothing (finish.PrintNone), summary.json
// (finish.PrintJSON) or the console summary (finish.PrintText), in colour
// when color is set (decide with finish.UseColor), else exactly
// summary.txt. Nothing is printed when the summary could not be made.
func (r *Result) Show(w io.Writer, mode finish.Print, color bool) error {
	if r == nil {
		return nil
	}
	return r.fin.Show(w, mode, color)
}
