package finish

import (
	"context"
	"os"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output"
)

// ReportFactory is the registry entry of report.html, which a run of the
// command line writes into its result directory unless --no-report; the
// report names generator in its footer. --out cannot name it. Its errors
// read "report: ...".
func ReportFactory(generator string) output.Factory {
	return output.Factory{
		Name: "report", Usage: "report", Flag: "-",
		New: func(output.Params) (output.Output, error) { return &reportOutput{generator: generator}, nil },
	}
}

// SummaryExportFactory is the registry entry of --summary-export FILE: a
// copy of summary.json (k6's --summary-export) written once the run is
// finished.
func SummaryExportFactory() output.Factory {
	return output.Factory{
		Name: "summary-export", Usage: "summary-export=FILE", Flag: "--summary-export",
		Preflight: func(_ context.Context, p output.Params) error { return output.CheckWritableFile(p.Arg) },
		New:       func(p output.Params) (output.Output, error) { return &exportOutput{path: p.Arg}, nil },
	}
}

// finisher is the part of Output a Finisher that follows no second needs.
type finisher struct{}

func (finisher) Description() string    { return "" }
func (finisher) Start() error           { return nil }
func (finisher) Observe(*metrics.Point) {}
func (finisher) Stop() error            { return nil }

type reportOutput struct {
	finisher
	generator string
}

// Finish renders report.html from what the result directory holds.
func (o *reportOutput) Finish(_ context.Context, r output.Finished) error {
	return renderReport(r.Dir, r.Snapshot, o.generator)
}

type exportOutput struct {
	finisher
	path string
}

// Finish writes summary.json's bytes to the export file (nothing when the
// summary could not be made).
func (o *exportOutput) Finish(_ context.Context, r output.Finished) error {
	if r.SummaryJSON == nil {
		return nil
	}
	return os.WriteFile(o.path, r.SummaryJSON, 0o644)
}

var (
	_ output.Finisher = (*reportOutput)(nil)
	_ output.Finisher = (*exportOutput)(nil)
)
