package run

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/selfcheck"
)

// Measured calls fn — a run into result directory dir, with its checks —
// while sampling this process's CPU and memory the way a run's own
// self-check does (selfcheck.NewLive). When fn left a result directory in
// dir that holds no selfcheck.json (the run ended before its outputs
// wrote one), the samples are written there: a sweep's analysis and a
// merge read them to tell a saturated generator. It returns fn's error,
// or the error of writing the samples when fn had none.
func Measured(dir string, fn func() error) error {
	check := selfcheck.NewLive(false) // the same output a run starts
	_ = check.Start()
	err := fn()
	_ = check.Stop()
	if resultdir.IsResult(dir) {
		if _, serr := os.Stat(filepath.Join(dir, selfcheck.File)); errors.Is(serr, os.ErrNotExist) {
			if werr := check.WriteDir(dir); werr != nil && err == nil {
				err = werr
			}
		}
	}
	return err
}
