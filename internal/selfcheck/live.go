package selfcheck

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output"
)

// InProcessRemark ends the saturation warning when the target runs inside
// stampede's own process.
const InProcessRemark = " (here the target is embedded in stampede's process and shares its CPU: give it its own machine with --target to tell the two apart)"

// Live is the generator self-check as an output.Output: Start begins
// sampling, Stop ends it, Annotate warns on every scenario during which
// the generator was saturated, and WriteDir writes File.
type Live struct {
	src       Source
	cores     int
	interval  time.Duration
	inProcess bool

	sampler *Sampler
	report  *Report
}

var (
	_ output.Output    = (*Live)(nil)
	_ output.Annotator = (*Live)(nil)
	_ output.DirWriter = (*Live)(nil)
)

// NewLive returns the self-check of this process, sampled every second.
// inProcess tells that a target runs inside this process, which the
// warning then says.
func NewLive(inProcess bool) *Live {
	return &Live{src: ProcessUsage, interval: time.Second, inProcess: inProcess}
}

// LiveOf is a self-check that already ran: Stop, Annotate and WriteDir
// use r (e.g. a report read back from a result directory).
func LiveOf(r *Report, inProcess bool) *Live {
	return &Live{report: r, inProcess: inProcess}
}

// Description is empty: the self-check announces nothing.
func (l *Live) Description() string { return "" }

// Start begins sampling; a self-check made by LiveOf has its samples
// already and starts nothing.
func (l *Live) Start() error {
	if l.report != nil || l.src == nil {
		return nil
	}
	l.sampler = Start(l.src, l.cores, l.interval)
	return nil
}

// Observe does nothing: the self-check samples on its own clock.
func (l *Live) Observe(*metrics.Point) {}

// Latest reports the latest CPU use (fraction of the usable cores) and
// resident memory (bytes), for outputs that publish them.
func (l *Live) Latest() (cpu float64, rss int64, ok bool) {
	if l.sampler == nil {
		return 0, 0, false
	}
	s, ok := l.sampler.Latest()
	return s.CPU, s.RSS, ok
}

// Stop ends sampling.
func (l *Live) Stop() error {
	if l.sampler != nil {
		l.report = l.sampler.Stop()
	}
	return nil
}

// Report is what the self-check sampled (nil before Stop).
func (l *Live) Report() *Report { return l.report }

// Annotate adds the saturation warning to every scenario during which the
// generator was saturated.
func (l *Live) Annotate(snap *metrics.Snapshot) {
	if l.report == nil {
		return
	}
	for _, sc := range snap.Scenarios {
		if w := l.report.Warning(sc.Start, sc.End); w != "" {
			if l.inProcess {
				w += InProcessRemark
			}
			sc.Notes = output.AddNote(sc.Notes, w)
		}
	}
}

// WriteDir writes the samples to dir/File (nothing when there are none).
func (l *Live) WriteDir(dir string) error {
	if l.report == nil || len(l.report.Samples) == 0 {
		return nil
	}
	return l.report.Write(dir)
}

// Write writes r to dir/File atomically (a temporary file renamed).
func (r *Report) Write(dir string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", File, err)
	}
	tmp, err := os.CreateTemp(dir, "."+File+".*")
	if err != nil {
		return fmt.Errorf("write %s: %w", File, err)
	}
	_, err = tmp.Write(append(b, '\n'))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(dir, File))
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", File, err)
	}
	return nil
}
