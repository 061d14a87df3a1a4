package loader

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

// FailedRowsHeader is the first line of a failed-rows file: the data file,
// the 1-based line number (the header is line 1), why the row was not
// loaded, and the row as read (last, since it contains '|'), cut to
// ldbcfile.MaxValueBytes bytes.
const FailedRowsHeader = "file|line|reason|row"

// failedRows writes rejected rows to a file, created on the first one.
// Safe for concurrent use.
type failedRows struct {
	path string
	mu   sync.Mutex
	f    *os.File
	w    *bufio.Writer
	n    int64
	per  map[string]int64 // by table
	// first is the first rejected row, for the error message.
	first string
	// reopen makes the next add append to the file (after close) instead
	// of creating it.
	reopen bool
	err    error
}

func (fr *failedRows) add(t *table, file string, line int, reason, text string) error {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	if fr.err != nil {
		return fr.err
	}
	if fr.f == nil {
		if fr.reopen {
			fr.f, fr.err = os.OpenFile(fr.path, os.O_WRONLY|os.O_APPEND, 0)
		} else {
			fr.f, fr.err = os.Create(fr.path)
		}
		if fr.err != nil {
			fr.err = fmt.Errorf("failed-rows file: %w", fr.err)
			return fr.err
		}
		fr.w = bufio.NewWriter(fr.f)
		if !fr.reopen {
			fr.w.WriteString(FailedRowsHeader + "\n")
		}
		fr.reopen = true
	}
	reason = ldbcfile.Cut(strings.NewReplacer("|", "/", "\n", " ", "\r", " ").Replace(reason))
	text = ldbcfile.Cut(strings.NewReplacer("\n", " ", "\r", " ").Replace(text))
	if _, err := fmt.Fprintf(fr.w, "%s|%d|%s|%s\n", file, line, reason, text); err != nil {
		// Never claim a file that could not be written.
		fr.err = fmt.Errorf("failed-rows file %s could not be written: %w", fr.path, err)
		return fr.err
	}
	if fr.n == 0 {
		fr.first = fmt.Sprintf("%s line %d: %s", file, line, reason)
	}
	fr.n++
	if fr.per == nil {
		fr.per = map[string]int64{}
	}
	fr.per[t.name]++
	return nil
}

// byTable is the number of rows of table written so far.
func (fr *failedRows) byTable(table string) int64 {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	return fr.per[table]
}

// count is the number of rows written so far.
func (fr *failedRows) count() int64 {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	return fr.n
}

// close flushes the file. A run without failures leaves no file, and
// removes a failed-rows file an earlier load left at the same path (it
// would mislead); a file that is not a failed-rows file is never removed.
func (fr *failedRows) close() error {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	if fr.f == nil {
		if fr.n == 0 && isFailedRowsFile(fr.path) {
			if err := os.Remove(fr.path); err != nil && !os.IsNotExist(err) {
				return err
			}
		}
		return fr.err
	}
	err := fr.w.Flush()
	if cerr := fr.f.Close(); err == nil {
		err = cerr
	}
	fr.f = nil
	if err != nil && fr.err == nil {
		fr.err = fmt.Errorf("failed-rows file %s could not be written: %w", fr.path, err)
	}
	return fr.err
}

// isFailedRowsFile reports whether path starts with FailedRowsHeader.
func isFailedRowsFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, len(FailedRowsHeader)+1)
	n, _ := io.ReadFull(f, buf)
	return string(buf[:n]) == FailedRowsHeader+"\n"
}
