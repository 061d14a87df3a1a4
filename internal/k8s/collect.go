package k8s

import (
	"fmt"
	"io"
	"os"

	"github.com/stampede-bench/stampede/internal/usage"
)

// Collect extracts the result directories that `stampede k8s worker
// --stream` printed into pod logs (ReadArchives) into outDir, which it
// creates. The logs are the files paths name, or stdin when there are
// none. It returns the directories in the order the logs hold them. An
// unreadable log file, and logs that hold no result directory, are usage
// errors (usage.Is); a damaged archive is an error starting "collect: ".
func Collect(paths []string, stdin io.Reader, outDir string) ([]string, error) {
	var readers []io.Reader
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, usage.Wrap(err)
		}
		defer f.Close()
		readers = append(readers, f)
	}
	if len(readers) == 0 {
		readers = append(readers, stdin)
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, err
	}
	var dirs []string
	for _, r := range readers {
		d, err := ReadArchives(r, outDir)
		dirs = append(dirs, d...)
		if err != nil {
			return dirs, fmt.Errorf("collect: %w", err)
		}
	}
	if len(dirs) == 0 {
		return nil, usage.Errorf("no stampede result found in the logs (was the Job made with stampede k8s manifest, without --results-pvc?)")
	}
	return dirs, nil
}
