// Package bounded reads input files with a size bound: a --config of
// /dev/zero, a parameter file of many gigabytes or an endless pipe is
// refused past its limit with one line, instead of filling the memory.
// Every read is interruptible: a cancelled context ends it at once, also
// while a pipe without a writer blocks the open.
//
// The limits (bytes) are constants here and documented in
// docs/guardrails.md; a reader past its limit returns a *TooLargeError,
// which is a usage error (exit 2).
package bounded

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/stampede-bench/stampede/internal/usage"
)

// The size bounds of stampede's inputs, in bytes.
const (
	// ConfigBytes bounds a --config file and a --scenario-file: 16 MiB.
	ConfigBytes int64 = 16 << 20
	// ParamsBytes bounds a parameter file (--params, a custom scenario's
	// params:): 64 MiB (some 2.5 million rows of two columns, about 300 MiB
	// in memory once parsed).
	ParamsBytes int64 = 64 << 20
	// LineBytes bounds one line of a parameter file read as a stream: 1 MiB.
	LineBytes int64 = 1 << 20
	// ResultBytes bounds one JSON file of a result directory read back
	// (summary.json, snapshot.json, options.json, selfcheck.json): 64 MiB,
	// some ten times the snapshot of a large run. They are decoded as a
	// stream (DecodeJSON), so bytes that are no JSON (a /dev/zero) stop
	// the read at once.
	ResultBytes int64 = 64 << 20
	// RecordBytes bounds one line of a JSON-lines file read back
	// (series.jsonl, monitor.jsonl): 64 MiB.
	RecordBytes int64 = 64 << 20
)

// TooLargeError is an input past its size bound.
type TooLargeError struct {
	// Path is the file (or what it is, e.g. "--config").
	Path string
	// Limit is the bound in bytes.
	Limit int64
}

// Error says which file and which limit, in one line.
func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %s, the limit for this input (docs/guardrails.md)", e.Path, Size(e.Limit))
}

// Size renders a byte count in binary units: 16 MiB, 1 GiB, 512 B.
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}

// chunk is how much one Read call of Reader asks for at most, so that a
// cancelled context is seen within one chunk.
const chunk = 1 << 20

// Reader returns a reader of r that fails with a usage *TooLargeError
// (naming path) once more than limit bytes came, and with ctx's error once
// ctx ends (checked before every read of at most 1 MiB).
func Reader(ctx context.Context, r io.Reader, limit int64, path string) io.Reader {
	return &reader{ctx: ctx, r: r, left: limit, limit: limit, path: path}
}

type reader struct {
	ctx   context.Context
	r     io.Reader
	left  int64 // bytes still allowed
	limit int64
	path  string
	probe [1]byte
}

func (b *reader) Read(p []byte) (int, error) {
	if err := b.ctx.Err(); err != nil {
		return 0, err
	}
	if b.left <= 0 {
		// At the limit: one more byte means too large, EOF means exact.
		n, err := b.r.Read(b.probe[:])
		if n > 0 {
			return 0, usage.Wrap(&TooLargeError{Path: b.path, Limit: b.limit})
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	if len(p) > chunk {
		p = p[:chunk]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	return n, err
}

// Lines returns a reader of r that fails with a usage *TooLargeError
// (naming path and "a line") once a line — the bytes between two '\n' —
// is longer than max: an endless input without line breaks stops there
// instead of growing one record without bound.
func Lines(r io.Reader, max int64, path string) io.Reader {
	return &lines{r: r, max: max, path: path}
}

type lines struct {
	r    io.Reader
	max  int64
	run  int64 // bytes since the last '\n'
	path string
}

func (l *lines) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	for i := 0; i < n; i++ {
		if p[i] == '\n' {
			l.run = 0
			continue
		}
		if l.run++; l.run > l.max {
			return 0, usage.Wrap(&TooLargeError{Path: l.path + ": a line", Limit: l.max})
		}
	}
	return n, err
}

// ReadAll reads r to its end through Reader: at most limit bytes, else a
// usage *TooLargeError naming path.
func ReadAll(ctx context.Context, r io.Reader, limit int64, path string) ([]byte, error) {
	return io.ReadAll(Reader(ctx, r, limit, path))
}

// ReadFile reads the file at path, at most limit bytes (else a usage
// *TooLargeError). It returns ctx's error as soon as ctx ends, also while
// the open blocks (a FIFO without a writer); the abandoned read then ends
// with the process. A file that does not exist is an error wrapping
// os.ErrNotExist.
func ReadFile(ctx context.Context, path string, limit int64) ([]byte, error) {
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() && st.Size() > limit {
		return nil, usage.Wrap(&TooLargeError{Path: path, Limit: limit})
	}
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		f, err := os.Open(path)
		if err != nil {
			done <- result{err: err}
			return
		}
		defer f.Close()
		b, err := ReadAll(ctx, f, limit, path)
		done <- result{b, err}
	}()
	select {
	case r := <-done:
		return r.b, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Open opens path for a bounded read: a regular file larger than limit is
// refused at once (a usage *TooLargeError, without reading it); read the
// file through Reader so that other files (pipes, devices) are bounded too.
func Open(path string, limit int64) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > limit {
		f.Close()
		return nil, usage.Wrap(&TooLargeError{Path: path, Limit: limit})
	}
	return f, nil
}

// DecodeJSON decodes the JSON document in the file at path into v, reading
// at most limit bytes (else a usage *TooLargeError) as a stream: input
// that is not JSON fails at its first bad byte, without being buffered.
// A syntax error names the file. A file that does not exist is an error
// wrapping os.ErrNotExist.
func DecodeJSON(ctx context.Context, path string, limit int64, v any) error {
	f, err := Open(path, limit)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := json.NewDecoder(Reader(ctx, f, limit, path)).Decode(v); err != nil {
		if IsTooLarge(err) || ctx.Err() != nil {
			return err
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return fmt.Errorf("%s: unexpected end of JSON input", path) // as json.Unmarshal says it
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// IsTooLarge reports whether err is, or wraps, a *TooLargeError.
func IsTooLarge(err error) bool {
	var e *TooLargeError
	return errors.As(err, &e)
}
