// Package report builds the HTML report of one or more result directories:
// a single self-contained file (styles, scripts and data inlined, nothing
// fetched at view time) with, per scenario, throughput, latency
// percentiles and errors over time, the full latency percentile
// distribution, errors by message, checks, notes and the options and
// environment of each run. Several runs overlay in the same charts; when
// the runs are the steps of a sweep, scaling curves are drawn too.
//
// The data are a JSON payload (see Payload) built from each run's snapshot
// and per-second series, downsampled to at most Options.MaxPoints points
// per series; full detail stays in the result directory.
package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/selfcheck"
)

// Options tune a report. Zero values take the defaults.
type Options struct {
	// Title heads the page; default "stampede report" followed by the run
	// labels.
	Title string
	// MaxPoints bounds the points of each time series; default 600.
	MaxPoints int
	// Generator names the tool version in the footer (optional).
	Generator string
	// Labels name the runs in legends; default the directory names
	// (sweep steps: DIMENSION=VALUE).
	Labels []string
}

func (o Options) maxPoints() int {
	if o.MaxPoints <= 0 {
		return 600
	}
	return max(o.MaxPoints, 10)
}

// Write renders the report of results to w. Each result's Dir is read for
// its series and self-check samples; missing files leave those charts
// empty.
func Write(w io.Writer, results []*resultdir.Result, opts Options) error {
	p, err := Build(results, opts)
	if err != nil {
		return err
	}
	return Render(w, p)
}

// WriteFile renders the report to path atomically.
func WriteFile(path string, results []*resultdir.Result, opts Options) error {
	var buf bytes.Buffer
	if err := Write(&buf, results, opts); err != nil {
		return err
	}
	return resultdir.WriteFile(filepath.Dir(path), filepath.Base(path), buf.Bytes())
}

// WriteRun renders the report of the one run in result directory dir,
// with snap as its snapshot, to path atomically. A directory without
// options.json still gets its report.
func WriteRun(path, dir string, snap *metrics.Snapshot, opts Options) error {
	res, err := resultdir.Load(dir)
	if err != nil {
		res = &resultdir.Result{Dir: dir}
	}
	res.Snapshot = snap
	return WriteFile(path, []*resultdir.Result{res}, opts)
}

// Build computes the payload of results.
func Build(results []*resultdir.Result, opts Options) (*Payload, error) {
	if len(results) == 0 {
		return nil, fmt.Errorf("report: no result to show")
	}
	p := &Payload{Version: PayloadVersion, Generator: opts.Generator}
	labels := runLabels(results, opts.Labels)
	seen := map[string]bool{}
	for i, r := range results {
		if r.Snapshot == nil {
			return nil, fmt.Errorf("report: %s has no snapshot", r.Dir)
		}
		sc, err := selfcheck.Read(r.Dir)
		if err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		run, err := buildRun(r, labels[i], sc, opts.maxPoints())
		if err != nil {
			return nil, err
		}
		p.Runs = append(p.Runs, run)
		for _, s := range run.Scenarios {
			if !seen[s.Name] {
				seen[s.Name] = true
				p.Scenarios = append(p.Scenarios, s.Name)
			}
		}
	}
	if buildSweep(p.Runs) != nil {
		sortSteps(p.Runs)
		p.Sweep = buildSweep(p.Runs)
	}
	p.Title = opts.Title
	if p.Title == "" {
		p.Title = "stampede report: " + strings.Join(labels, ", ")
		if len(labels) > 4 {
			p.Title = fmt.Sprintf("stampede report: %s … %s (%d runs)", labels[0], labels[len(labels)-1], len(labels))
		}
		if p.Sweep != nil {
			p.Title = fmt.Sprintf("stampede sweep over %s: %d steps", p.Sweep.Dimension, len(p.Runs))
		}
	}
	return p, nil
}

// runLabels names runs: the given labels, sweep steps by their value,
// otherwise the directory name, made unique.
func runLabels(results []*resultdir.Result, given []string) []string {
	out := make([]string, len(results))
	count := map[string]int{}
	for i, r := range results {
		switch {
		case i < len(given) && given[i] != "":
			out[i] = given[i]
		case r.Options.Sweep["dimension"] != "":
			out[i] = r.Options.Sweep["dimension"] + "=" + r.Options.Sweep["value"]
		default:
			out[i] = filepath.Base(filepath.Clean(r.Dir))
		}
		count[out[i]]++
	}
	for i, r := range results {
		if count[out[i]] > 1 {
			parent := filepath.Base(filepath.Dir(filepath.Clean(r.Dir)))
			if parent != "." && parent != "/" {
				out[i] = parent + "/" + out[i]
			}
		}
	}
	// Still equal (same names everywhere): number them.
	seen := map[string]int{}
	for i := range out {
		seen[out[i]]++
		if seen[out[i]] > 1 {
			out[i] = fmt.Sprintf("%s #%d", out[i], seen[out[i]])
		}
	}
	return out
}

// marshalPayload encodes p compactly for the page (HTML-safe: <, > and &
// are escaped by encoding/json).
func marshalPayload(p *Payload) ([]byte, error) {
	return json.Marshal(p)
}
