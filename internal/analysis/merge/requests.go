package merge

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/stampede-bench/stampede/internal/resultdir"
)

// concatRequests writes out/requests.csv: the header line of the first
// part that has a requests.csv, then the rows of every part in order
// (each part's own header line is skipped when it equals the first). Rows
// are not sorted by time: each part's rows are in its own order. Nothing
// is written when no part has the file.
func concatRequests(dirs []string, out string) (err error) {
	var w *bufio.Writer
	var f *os.File
	var header []byte
	for _, d := range dirs {
		in, oerr := os.Open(filepath.Join(d, resultdir.RequestsFile))
		if errors.Is(oerr, os.ErrNotExist) {
			continue
		}
		if oerr != nil {
			return fmt.Errorf("merge requests: %w", oerr)
		}
		r := bufio.NewReaderSize(in, 256<<10)
		first, rerr := r.ReadBytes('\n')
		if rerr != nil && !errors.Is(rerr, io.EOF) {
			in.Close()
			return fmt.Errorf("merge requests: %s: %w", d, rerr)
		}
		if f == nil {
			if f, err = os.Create(filepath.Join(out, resultdir.RequestsFile)); err != nil {
				in.Close()
				return fmt.Errorf("merge requests: %w", err)
			}
			defer func() {
				if cerr := f.Close(); err == nil && cerr != nil {
					err = fmt.Errorf("merge requests: %w", cerr)
				}
			}()
			w = bufio.NewWriterSize(f, 256<<10)
			header = append([]byte(nil), first...)
			if _, err := w.Write(first); err != nil {
				in.Close()
				return fmt.Errorf("merge requests: %w", err)
			}
		} else if !bytes.Equal(first, header) {
			if _, err := w.Write(first); err != nil { // a part without header
				in.Close()
				return fmt.Errorf("merge requests: %w", err)
			}
		}
		lw := &lastByteWriter{w: w, last: '\n'}
		if len(first) > 0 {
			lw.last = first[len(first)-1]
		}
		_, cerr := io.Copy(lw, r)
		in.Close()
		if cerr != nil {
			return fmt.Errorf("merge requests: %s: %w", d, cerr)
		}
		if lw.last != '\n' { // the part's last row had no line end
			if err := w.WriteByte('\n'); err != nil {
				return fmt.Errorf("merge requests: %w", err)
			}
		}
	}
	if w != nil {
		if err := w.Flush(); err != nil {
			return fmt.Errorf("merge requests: %w", err)
		}
	}
	return nil
}

// lastByteWriter remembers the last byte written through it.
type lastByteWriter struct {
	w    io.Writer
	last byte
}

func (l *lastByteWriter) Write(b []byte) (int, error) {
	if len(b) > 0 {
		l.last = b[len(b)-1]
	}
	return l.w.Write(b)
}
