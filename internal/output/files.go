package output

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

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
	return CheckCreatable(path)
}

// CheckCreatable reports whether path (which does not exist) can be
// created: its nearest existing ancestor must be a writable directory. It
// tries with a temporary file there, which it removes again.
func CheckCreatable(path string) error {
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

// MkdirAll creates dir and its missing parents and returns those it
// created, deepest first, so that a failed command can remove them again.
func MkdirAll(dir string) ([]string, error) {
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

// PathOfRun is the file an output writes outside the result directory for
// run number run (from 1; 0: a single run) of repeat runs: with
// repeat > 1, FILE-run-NN.EXT (before .gz).
func PathOfRun(file string, repeat, run int) string {
	if repeat <= 1 || run == 0 {
		return file
	}
	base, gz := strings.CutSuffix(file, ".gz")
	ext := filepath.Ext(base)
	out := fmt.Sprintf("%s-run-%02d%s", strings.TrimSuffix(base, ext), run, ext)
	if gz {
		out += ".gz"
	}
	return out
}

// CheckNewFile refuses, before anything runs, a file that exists for any
// of repeat runs (PathOfRun) or whose directory does not exist: stampede
// never overwrites results.
func CheckNewFile(file string, repeat int) error {
	for run := 0; run <= repeat; run++ {
		path := PathOfRun(file, repeat, run)
		if _, err := os.Stat(path); err == nil {
			return fmt.Errorf("%s: the file exists; choose another name (stampede never overwrites results)", path)
		}
		if repeat <= 1 {
			break
		}
	}
	if dir := filepath.Dir(file); dir != "." {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return fmt.Errorf("directory %s does not exist", dir)
		}
	}
	return nil
}
