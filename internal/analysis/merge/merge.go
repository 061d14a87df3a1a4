// Package merge combines the result directories of several stampede
// instances (the segments of one distributed run, or any runs of the same
// plan) into one result directory, exactly: HDR histograms are merged
// bucket by bucket, so the percentiles of the whole are those of one
// process that saw every sample; counters, rates, errors and VU gauges are
// summed; per-second series are aligned by wall time and merged the same
// way. The merged directory has the layout of a run (package resultdir),
// so report, compare and sweep read it like any other.
package merge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/stampede-bench/stampede/executor"
	"github.com/stampede-bench/stampede/internal/bounded"
	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/metric"
)

// Options tune Merge.
type Options struct {
	// Requests concatenates the parts' requests.csv files into the merged
	// directory (one header, parts in order; rows are not re-sorted).
	Requests bool
	// Workers bounds how many parts are decoded at once (default
	// GOMAXPROCS).
	Workers int
	// Force merges parts with different scenario sets or targets, which
	// Merge otherwise refuses with ErrMismatch.
	Force bool
	// RateTrends are per-second trends rebuilt from the merged series so
	// that they add up over the parts (see RateTrend).
	RateTrends []RateTrend
}

// Result describes a merged directory.
type Result struct {
	// Dir is the merged directory; Parts the merged result directories in
	// order.
	Dir   string
	Parts []string
	// Snapshot and Options are what was written to snapshot.json and
	// options.json.
	Snapshot *metrics.Snapshot
	Options  resultdir.Options
	// Points is the number of per-second points written to series.jsonl.
	Points int
	// Warnings are remarks for the user: missing or repeated segments,
	// parts that ran different plans.
	Warnings []string
}

// Expand turns arguments into result directories: each argument is a
// result directory or a parent of result directories (see resultdir.Find).
// The same directory given twice is an error: it would count twice.
func Expand(args []string) ([]string, error) {
	var out []string
	seen := map[string]string{}
	for _, a := range args {
		dirs, err := resultdir.Find(a)
		if err != nil {
			return nil, err
		}
		for _, d := range dirs {
			abs, err := filepath.Abs(d)
			if err != nil {
				return nil, err
			}
			if prev, ok := seen[abs]; ok {
				return nil, fmt.Errorf("%s is given twice (also as %s): it would be counted twice", d, prev)
			}
			seen[abs] = d
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no result directory to merge")
	}
	return out, nil
}

// Merge loads the result directories dirs and writes their combination
// into out, which must not hold a run yet: snapshot.json, series.jsonl,
// options.json (scenarios with the executors the parts make up together,
// segments listed as "1/4,2/4,..."), env.json (the first part's) and
// env-<i>.json (part i's, from 1), and requests.csv when opts.Requests.
// It does not evaluate thresholds or write summaries: the caller does,
// from Result.Snapshot.
func Merge(dirs []string, out string, opts Options) (*Result, error) {
	if len(dirs) == 0 {
		return nil, errors.New("merge: no result directory")
	}
	if err := checkOut(dirs, out); err != nil {
		return nil, err
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	parts, err := loadAll(dirs, workers)
	if err != nil {
		return nil, err
	}
	if !opts.Force {
		if err := checkParts(dirs, parts); err != nil {
			return nil, err
		}
	}
	snaps := make([]*metrics.Snapshot, len(parts))
	for i, p := range parts {
		snaps[i] = p.Snapshot
	}
	snap, err := metric.Merge(snaps...)
	if err != nil {
		return nil, err
	}
	fixExecutors(snap, parts)
	res := &Result{Dir: out, Parts: dirs, Snapshot: snap}
	res.Options, res.Warnings = mergeOptions(parts)
	res.Warnings = append(res.Warnings, checkSegments(parts)...)

	if err := resultdir.Prepare(out); err != nil {
		return nil, err
	}
	if res.Points, err = mergeSeries(dirs, out, snap, workers, opts.RateTrends); err != nil {
		return nil, err
	}
	if err := mergeMonitor(dirs, out, parts, &res.Options); err != nil { // --monitor series
		return nil, err
	}
	if err := resultdir.WriteJSON(out, resultdir.SnapshotFile, snap); err != nil {
		return nil, err
	}
	if err := resultdir.WriteJSON(out, resultdir.OptionsFile, res.Options); err != nil {
		return nil, err
	}
	if err := copyEnvs(dirs, out); err != nil {
		return nil, err
	}
	if opts.Requests {
		if err := concatRequests(dirs, out); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// checkOut refuses an output directory that is one of the inputs or lies
// inside one (Find would pick it up next time).
func checkOut(dirs []string, out string) error {
	absOut, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	for _, d := range dirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			return err
		}
		if abs == absOut || strings.HasPrefix(absOut, abs+string(filepath.Separator)) {
			return fmt.Errorf("output %s is (inside) the input %s; choose another -o", out, d)
		}
	}
	return nil
}

// loadAll loads every directory, workers at a time, keeping their order.
func loadAll(dirs []string, workers int) ([]*resultdir.Result, error) {
	parts := make([]*resultdir.Result, len(dirs))
	errs := make([]error, len(dirs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, len(dirs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				parts[i], errs[i] = resultdir.Load(dirs[i])
			}
		}()
	}
	for i := range dirs {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return parts, nil
}

// fixExecutors names each merged scenario's executor after a part that
// had a share of it: metrics.Merge takes the first part's, which is
// ramping-vus when that segment was idle.
func fixExecutors(snap *metrics.Snapshot, parts []*resultdir.Result) {
	for _, sc := range snap.Scenarios {
		for _, p := range parts {
			c, ok := scenarioConfig(p.Options, sc.Name)
			psc := p.Snapshot.Scenario(sc.Name)
			if ok && psc != nil && !executor.IsIdle(c) {
				sc.Executor = psc.Executor
				break
			}
		}
	}
}

func scenarioConfig(o resultdir.Options, name string) (engine.Config, bool) {
	for _, s := range o.Scenarios {
		if s.Name == name {
			return s.Config, true
		}
	}
	return engine.Config{}, false
}

// mergeOptions describes the merged run: the first part's options with
// every scenario's executor combined over the parts (executor.Combine), the
// thresholds of all parts, and the parts' segments listed.
func mergeOptions(parts []*resultdir.Result) (resultdir.Options, []string) {
	first := parts[0].Options
	out := resultdir.Options{
		Target: first.Target, Concurrent: first.Concurrent, Seed: first.Seed,
		Flags: first.Flags, Sweep: first.Sweep,
	}
	var warnings []string
	targets := map[string]bool{}
	var segs []string
	byName := map[string][]engine.Config{}
	var order []string
	for _, p := range parts {
		targets[p.Options.Target] = true
		if p.Options.Segment != "" {
			segs = append(segs, p.Options.Segment)
		}
		for _, t := range p.Options.Thresholds {
			if !contains(out.Thresholds, t) {
				out.Thresholds = append(out.Thresholds, t)
			}
		}
		for _, s := range p.Options.Scenarios {
			if _, ok := byName[s.Name]; !ok {
				order = append(order, s.Name)
			}
			byName[s.Name] = append(byName[s.Name], s.Config)
		}
	}
	if len(targets) > 1 {
		names := make([]string, 0, len(targets))
		for t := range targets {
			names = append(names, t)
		}
		sort.Strings(names)
		out.Target = strings.Join(names, " + ")
	}
	out.Segment = strings.Join(segs, ",")
	for _, n := range order {
		c, err := executor.Combine(byName[n])
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("scenario %s: the parts ran different executors (%v); options.json keeps the first", n, err))
			c = byName[n][0]
		}
		out.Scenarios = append(out.Scenarios, resultdir.ScenarioOptions{Name: n, Config: c})
	}
	return out, warnings
}

// checkSegments warns when the parts are segments of a run but not each
// segment exactly once.
func checkSegments(parts []*resultdir.Result) []string {
	count := map[int]int{}
	n, segmented := 0, 0
	for _, p := range parts {
		if p.Options.Segment == "" {
			continue
		}
		s, err := executor.ParseSegment(p.Options.Segment)
		if err != nil {
			return []string{fmt.Sprintf("%s: %v", p.Dir, err)}
		}
		if n != 0 && s.Count != n {
			return []string{fmt.Sprintf("parts are segments of runs split %d and %d ways: the totals mix two plans", n, s.Count)}
		}
		n = s.Count
		count[s.Index]++
		segmented++
	}
	if segmented == 0 {
		return nil
	}
	var w []string
	if segmented < len(parts) {
		w = append(w, fmt.Sprintf("%d of %d parts are segments, the others whole runs", segmented, len(parts)))
	}
	var missing, twice []string
	for i := 1; i <= n; i++ {
		switch {
		case count[i] == 0:
			missing = append(missing, fmt.Sprintf("%d/%d", i, n))
		case count[i] > 1:
			twice = append(twice, fmt.Sprintf("%d/%d", i, n))
		}
	}
	if len(missing) > 0 {
		w = append(w, fmt.Sprintf("segments %s are missing: the totals cover only part of the plan", strings.Join(missing, ", ")))
	}
	if len(twice) > 0 {
		w = append(w, fmt.Sprintf("segments %s appear more than once", strings.Join(twice, ", ")))
	}
	return w
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// copyEnvs writes the first part's env.json and every part's as
// env-<i>.json (i from 1), byte for byte. Parts without env.json are
// skipped.
func copyEnvs(dirs []string, out string) error {
	wrote := false
	for i, d := range dirs {
		b, err := bounded.ReadFile(context.Background(), filepath.Join(d, resultdir.EnvFile), bounded.ConfigBytes)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		if !wrote {
			if err := resultdir.WriteFile(out, resultdir.EnvFile, b); err != nil {
				return err
			}
			wrote = true
		}
		if err := resultdir.WriteFile(out, fmt.Sprintf("env-%d.json", i+1), b); err != nil {
			return err
		}
	}
	return nil
}
