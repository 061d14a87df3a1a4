package monitor

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Scan calls fn for each sample in dir/File, in file order. A missing file
// yields none.
func Scan(dir string, fn func(*Sample) error) error {
	path := filepath.Join(dir, File)
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	dec := json.NewDecoder(bufio.NewReaderSize(f, 64<<10))
	for {
		var s Sample
		if err := dec.Decode(&s); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("%s: %w", path, err)
		}
		if err := fn(&s); err != nil {
			return err
		}
	}
}

// Sources lists the source IDs in dir/File in order of first appearance.
func Sources(dir string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	err := Scan(dir, func(s *Sample) error {
		if !seen[s.Source] {
			seen[s.Source] = true
			out = append(out, s.Source)
		}
		return nil
	})
	return out, err
}
