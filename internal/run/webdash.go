package run

import (
	"os"
	"time"

	"github.com/stampede-bench/stampede/internal/output/webdash"
	"github.com/stampede-bench/stampede/internal/version"
)

// WebDashboard is k6's --web-dashboard: a page on Host:Port with the
// report's charts, updated every Period while the run goes, and Export,
// a file that receives the finished run's report.html.
type WebDashboard struct {
	// Enabled serves the page (default address 127.0.0.1:5665).
	Enabled bool
	Host    string
	Port    int
	Period  time.Duration
	// Export, when set, receives the report at the end (also without
	// Enabled); an existing file is refused before the run.
	Export string
}

func (w WebDashboard) config(scenarios []string) webdash.Config {
	return webdash.Config{Host: w.Host, Port: w.Port, Period: w.Period, Scenarios: scenarios, Generator: "stampede " + version.String()}
}

// exportPath is the export file of run of repeat runs (FILE-run-NN.EXT
// with --repeat, as the streams); "" when none.
func (w WebDashboard) exportPath(repeat, run int) string {
	if w.Export == "" {
		return ""
	}
	return streamPath(w.Export, repeat, run)
}

// checkWebDashboard refuses, before the run, a dashboard port in use and
// an export file (each run's, with --repeat) that exists or cannot be
// written.
func checkWebDashboard(p Plan) error {
	w := p.WebDashboard
	if w.Enabled {
		if w.Port < 0 || w.Port > 65535 {
			return usagef("--web-dashboard-port %d: not a port", w.Port)
		}
		d := webdash.New(w.config(nil))
		if err := d.Start(); err != nil {
			return usagef("--web-dashboard on %s: %v", w.config(nil).Addr(), err)
		}
		_ = d.Stop()
	}
	runs := []int{p.Run}
	if p.Repeat > 1 && p.Run == 0 {
		runs = runs[:0]
		for i := 1; i <= p.Repeat; i++ {
			runs = append(runs, i)
		}
	}
	for _, run := range runs {
		path := w.exportPath(p.Repeat, run)
		if path == "" {
			continue
		}
		if _, err := os.Stat(path); err == nil {
			return usagef("--web-dashboard-export %s: the file exists; choose another name (stampede never overwrites results)", path)
		}
		if err := CheckWritableFile(path); err != nil {
			return usagef("--web-dashboard-export %s: %v", path, err)
		}
	}
	return nil
}
