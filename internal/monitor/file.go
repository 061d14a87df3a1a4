package monitor

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
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
	// One sample per line, each at most maxLine: a file of one endless
	// line is refused, not read into memory.
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var s Sample
		if err := json.Unmarshal(b, &s); err != nil {
			return fmt.Errorf("%s:%d: %w", path, line, err)
		}
		if err := fn(&s); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return fmt.Errorf("%s: a line is longer than %d MiB, the limit of one sample (docs/guardrails.md)", path, maxLine>>20)
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// maxLine bounds one line of File read back: 64 MiB.
const maxLine = 64 << 20
