package loader

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"sync"
)

// FailedRowsHeader is the first line of a failed-rows file: the data file,
// the 1-based line number (the header is line 1), why the row was not
// loaded, and the row as read (last, since it contains '|').
const FailedRowsHeader = "file|line|reason|row"

// failedRows writes rejected rows to a file, created on the first one.
// Safe for concurrent use.
type failedRows struct {
	path string
	mu   sync.Mutex
	f    *os.File
	w    *bufio.Writer
	n    int64
	per  map[string]int64 // by data file
	err  error
}

func (fr *failedRows) add(file string, line int, reason, text string) error {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	if fr.err != nil {
		return fr.err
	}
	if fr.f == nil {
		fr.f, fr.err = os.Create(fr.path)
		if fr.err != nil {
			fr.err = fmt.Errorf("failed-rows file: %w", fr.err)
			return fr.err
		}
		fr.w = bufio.NewWriter(fr.f)
		fr.w.WriteString(FailedRowsHeader + "\n")
	}
	reason = strings.NewReplacer("|", "/", "\n", " ").Replace(reason)
	fmt.Fprintf(fr.w, "%s|%d|%s|%s\n", file, line, reason, text)
	fr.n++
	if fr.per == nil {
		fr.per = map[string]int64{}
	}
	fr.per[file]++
	return nil
}

// byFile is the number of rows of file written so far.
func (fr *failedRows) byFile(file string) int64 {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	return fr.per[file]
}

// count is the number of rows written so far.
func (fr *failedRows) count() int64 {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	return fr.n
}

// close flushes the file. A run without failures leaves no file (and
// removes one left by an earlier run, which would mislead).
func (fr *failedRows) close() error {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	if fr.f == nil {
		if err := os.Remove(fr.path); err != nil && !os.IsNotExist(err) {
			return err
		}
		return fr.err
	}
	if err := fr.w.Flush(); err != nil {
		return err
	}
	return fr.f.Close()
}
