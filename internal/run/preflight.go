package run

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output/prom"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/threshold"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload"
)

// Preflight checks, before any data is generated or loaded and before the
// result directory exists, everything about a plan that can be checked
// without running it: threshold metrics, that every output path can be
// written, that the Prometheus port is free, and each family's own
// checks (target kind, a connect + authentication round trip, data
// directories). Every failure is a usage error (usage.Is), or an
// *InterruptedError when ctx ends.
func Preflight(ctx context.Context, p Plan, deps Deps) error {
	if err := p.check(); err != nil {
		return err
	}
	if err := precheckThresholds(p.Thresholds, p); err != nil {
		return err
	}
	if err := CheckResultDir(p.Out); err != nil {
		return err
	}
	for _, o := range []struct{ flag, path string }{
		{"--csv", p.CSV}, {"--summary-export", p.SummaryExport},
	} {
		if o.path == "" || (o.flag == "--csv" && p.NoCSV) {
			continue
		}
		if err := CheckWritableFile(o.path); err != nil {
			return usagef("%s %s: %v", o.flag, o.path, err)
		}
	}
	if p.Prometheus != "" {
		addr, err := prom.ResolveAddr(p.Prometheus)
		if err != nil {
			return usagef("--prometheus: %v", err)
		}
		l, err := net.Listen("tcp", addr)
		if err != nil {
			return usagef("--prometheus %s: %v", p.Prometheus, err)
		}
		l.Close()
	}
	if err := checkWebDashboard(p); err != nil {
		return err
	}
	if err := probeEndpoints(ctx, p, deps); err != nil {
		return err
	}
	wenv := deps.workloadEnv(p, metrics.NewRegistry())
	families, byFamily := p.families()
	for _, fam := range families {
		pf, ok := fam.(workload.Preflighter)
		if !ok {
			continue
		}
		if err := pf.Preflight(ctx, wenv, byFamily[fam]); err != nil {
			if ctx.Err() != nil {
				return interrupted("interrupted while checking the target")
			}
			if usage.Is(err) {
				return err
			}
			return fmt.Errorf("check %s target: %w", fam.Name(), err)
		}
	}
	return nil
}

// precheckThresholds refuses thresholds on metrics that no selected
// scenario can record. Families that register metrics while opening say
// which through workload.MetricLister; when one does not, metrics it might
// add are checked again once it is open.
func precheckThresholds(th Thresholds, p Plan) error {
	ts := th.List()
	if len(ts) == 0 {
		return nil
	}
	reg := metrics.NewRegistry()
	families, byFamily := p.families()
	for _, fam := range families {
		ml, ok := fam.(workload.MetricLister)
		if !ok {
			// Unknown metrics may be the family's: keep the checks that
			// need no metric list (statistics of known metrics, scenarios).
			var known []threshold.Threshold
			for _, t := range ts {
				if _, ok := reg.Lookup(t.Metric); ok {
					known = append(known, t)
				}
			}
			ts = known
			continue
		}
		for _, d := range ml.MetricDefs(byFamily[fam]) {
			if _, ok := reg.Lookup(d.Name); !ok {
				reg.MustAdd(d)
			}
		}
	}
	return asUsage(threshold.Check(ts, reg, p.Names()))
}

// CheckResultDir refuses a result directory that holds a run already or
// that cannot be created.
func CheckResultDir(dir string) error {
	if _, err := os.Stat(filepath.Join(dir, resultdir.SnapshotFile)); err == nil {
		return usagef("result directory %s already holds a run; choose another --out", dir)
	}
	if st, err := os.Stat(dir); err == nil {
		if !st.IsDir() {
			return usagef("--out %s: not a directory", dir)
		}
		return nil
	}
	if err := checkCreatable(dir); err != nil {
		return usagef("--out %s: %v", dir, err)
	}
	return nil
}

// CheckWritableFile reports whether path can be created (or overwritten)
// as a regular file, without creating it or its directories.
func CheckWritableFile(path string) error {
	if st, err := os.Stat(path); err == nil {
		if st.IsDir() {
			return errors.New("is a directory")
		}
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		return f.Close()
	}
	return checkCreatable(path)
}

// checkCreatable reports whether path (which does not exist) can be
// created: its nearest existing ancestor must be a writable directory. It
// tries with a temporary file there, which it removes again.
func checkCreatable(path string) error {
	dir := filepath.Dir(filepath.Clean(path))
	for {
		st, err := os.Stat(dir)
		if err == nil {
			if !st.IsDir() {
				return fmt.Errorf("%s is not a directory", dir)
			}
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return err
		}
		dir = parent
	}
	f, err := os.CreateTemp(dir, ".stampede-check-*")
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			return fmt.Errorf("cannot write into %s: %v", dir, pe.Err)
		}
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

// createdDirs creates dir and its missing parents and returns those it
// created, deepest first, so that a failed command can remove them again.
func createdDirs(dir string) ([]string, error) {
	var missing []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			break
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return missing, nil
}

// removeCreated removes the directories createdDirs made, with what the
// failed command wrote into them; directories that existed stay.
func removeCreated(dirs []string) {
	if len(dirs) > 0 {
		os.RemoveAll(dirs[0])
	}
	for _, d := range dirs[1:] {
		os.Remove(d) // only when empty: another run may share the parent
	}
}

// undoFiles removes, when a command fails before its run starts, the
// files and directories it created, in the order they were added (a file
// before the directories made for it). disarm keeps everything.
type undoFiles struct {
	paths    []string
	disarmed bool
}

func (u *undoFiles) add(paths ...string) { u.paths = append(u.paths, paths...) }
func (u *undoFiles) disarm()             { u.disarmed = true }

func (u *undoFiles) run() {
	if u.disarmed {
		return
	}
	for _, p := range u.paths {
		os.Remove(p) // directories only when empty
	}
}
