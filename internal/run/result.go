package run

import (
	"io"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output/finish"
	"github.com/stampede-bench/stampede/internal/threshold"
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
	// SummaryJSON and SummaryText are summary.json and summary.txt as
	// written (nil when writing them failed).
	SummaryJSON, SummaryText []byte
	// Tags are the run's tags, testid included.
	Tags map[string]string

	fin *finish.Result // what finish.Dir wrote
}

// WriteConsole writes the end-of-test summary, in colour when color is
// set (summary.txt is the same without colour).
func (r *Result) WriteConsole(w io.Writer, color bool) error {
	if !color || r.fin == nil {
		_, err := w.Write(r.SummaryText)
		return err
	}
	return r.fin.WriteConsole(w, true)
}
