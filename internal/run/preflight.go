package run

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload"
	"github.com/stampede-bench/stampede/threshold"
)

// Preflight checks, before any data is generated or loaded and before the
// result directory exists, everything about a plan that can be checked
// without running it: threshold metrics, each output's own checks
// (output.Factory.Preflight: a file can be written, a port is free, an
// endpoint answers), the --monitor endpoints, and each family's own
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
func precheckThresholds(th threshold.Set, p Plan) error {
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
	return asUsage(checkThresholdMetrics(ts, reg, p.Names()))
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
	if err := output.CheckCreatable(dir); err != nil {
		return usagef("--out %s: %v", dir, err)
	}
	return nil
}

// CheckWritableFile reports whether path can be created (or overwritten)
// as a regular file (output.CheckWritableFile).
func CheckWritableFile(path string) error { return output.CheckWritableFile(path) }

// removeCreated removes the directories output.MkdirAll made, with what the
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
