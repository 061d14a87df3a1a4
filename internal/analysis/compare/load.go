package compare

import (
	"fmt"
	"time"

	"github.com/stampede-bench/stampede/internal/resultdir"
)

// Load reads a side from path: a single result directory (also a merged
// one), or a parent of result directories such as `run --repeat N` writes
// (run-01 … run-NN), whose runs are taken in name order. name labels the
// side's columns. Errors are usage errors (package usage) when path holds no result, and name
// the directory that could not be read otherwise.
func Load(path, name string) (Side, error) {
	side := Side{Name: name, Path: path}
	dirs, err := resultdir.Find(path)
	if err != nil {
		return side, inputError("%s: %w", name, err)
	}
	for _, dir := range dirs {
		res, err := resultdir.Load(dir)
		if err != nil {
			return side, inputError("%s: %w", name, err)
		}
		if res.Snapshot == nil {
			return side, inputError("%s: %s: empty %s", name, dir, resultdir.SnapshotFile)
		}
		warm := map[string]time.Duration{}
		for _, sc := range res.Options.Scenarios {
			warm[sc.Name] = sc.Config.Warmup
		}
		tcpu, err := targetCPUs(res, warm) // --monitor series, when the run has one
		if err != nil {
			return side, fmt.Errorf("%s: %w", name, err)
		}
		side.Runs = append(side.Runs, Run{Dir: dir, Snapshot: res.Snapshot, Env: res.Env, Warmup: warm, TargetCPU: tcpu})
	}
	return side, nil
}
