package resultdir

import (
	"path/filepath"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output"
)

// SeriesOutput is series.jsonl as an output.Output: Start creates
// dir/SeriesFile, Observe appends each finished second, Stop flushes and
// closes the file.
type SeriesOutput struct {
	dir string
	w   *SeriesWriter
}

var _ output.Output = (*SeriesOutput)(nil)

// NewSeriesOutput returns the series output of the result directory dir.
func NewSeriesOutput(dir string) *SeriesOutput { return &SeriesOutput{dir: dir} }

// Description is empty: the series file is part of every result
// directory.
func (s *SeriesOutput) Description() string { return "" }

// Start creates the file.
func (s *SeriesOutput) Start() error {
	w, err := NewSeriesWriter(s.dir)
	if err != nil {
		return err
	}
	s.w = w
	return nil
}

// Observe appends p.
func (s *SeriesOutput) Observe(p *metrics.Point) { s.w.Observe(p) }

// Stop flushes and closes the file; it reports the first write error.
func (s *SeriesOutput) Stop() error { return s.w.Close() }

// Created is the series file, once Start created it.
func (s *SeriesOutput) Created() []string {
	if s.w == nil {
		return nil
	}
	return []string{filepath.Join(s.dir, SeriesFile)}
}

// SeriesFactory is the registry entry of series.jsonl, which every run
// of the command line writes into its result directory (Params.Dir);
// --out cannot name it. Its errors read "series: ...".
func SeriesFactory() output.Factory {
	return output.Factory{
		Name: "series", Usage: "series", Flag: "-",
		New: func(p output.Params) (output.Output, error) {
			if p.Registry != nil {
				metrics.MarkHTTPSeries(p.Registry) // the HTTP phases per second (report, web dashboard)
			}
			return NewSeriesOutput(p.Dir), nil
		},
	}
}
