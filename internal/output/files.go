package output

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
