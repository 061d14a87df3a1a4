package ldbcfile

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ErrMalformed marks a malformed line. A row callback passed to
// Reader.ReadRecords returns an error wrapping it to have the line treated
// as bad (reported, and skipped in lenient mode) instead of stopping the read.
var ErrMalformed = errors.New("malformed line")

// LineError reports one malformed line of a file.
type LineError struct {
	// Line is the 1-based line number; the header is line 1.
	Line int
	// Text is the line as read, without its line end, cut to
	// MaxValueBytes (see Cut).
	Text string
	// Err says what is wrong; it wraps ErrMalformed.
	Err error
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// Reader streams LDBC files row by row. The zero value is strict: the first
// malformed line stops the read with a *LineError. A Reader holds no state
// between calls and may be used from several goroutines at once.
type Reader struct {
	// OnBadLine, when set, makes the Reader lenient: it is called with every
	// malformed line and reading goes on if it returns nil. A non-nil
	// return stops the read and is returned as is. An importer uses it to
	// write failed rows aside instead of aborting.
	OnBadLine func(*LineError) error
	// Dates is the format of date and datetime columns (default DatesAuto:
	// either, value by value).
	Dates DateFormat
}

// readBufSize is the read buffer of a Reader, in bytes.
const readBufSize = 1 << 20

// MaxLineBytes is the longest line a Reader accepts (1 MiB, line end
// excluded). A longer line is malformed; it is skipped without being held
// in memory, and only its first MaxValueBytes are quoted.
const MaxLineBytes = readBufSize - 2

// ReadRecords reads r, checks that its first line is header, and calls fn
// with the fields of every following line. The field slices alias an
// internal buffer and are valid only during the call. A line with a field
// count other than the header's is malformed; so is one for which fn returns
// an error wrapping ErrMalformed, and one longer than MaxLineBytes. Any
// other error from fn stops the read and is returned. Empty lines are
// skipped; "\r\n" line ends are accepted.
func (rd Reader) ReadRecords(r io.Reader, header string, fn func(fields [][]byte) error) error {
	return rd.ReadVariants(r, []string{header}, func(_, _ int, f [][]byte) error { return fn(f) })
}

// ReadVariants is ReadRecords for a file that may have one of several
// headers (the layouts of one LDBC file): fn also receives the index in
// headers of the file's header, and the 1-based number of the line (the
// header is line 1).
func (rd Reader) ReadVariants(r io.Reader, headers []string, fn func(variant, line int, fields [][]byte) error) error {
	br := bufio.NewReaderSize(r, readBufSize)
	variant, want := -1, 0
	var fields [][]byte
	for lineNo := 1; ; lineNo++ {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// Too long: skip to the end of the line, keeping only a prefix.
			prefix := string(line[:min(len(line), MaxValueBytes+8)])
			n := len(line)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = br.ReadSlice('\n')
				n += len(line)
			}
			n -= len(line) - len(trimEOL(line))
			if err != nil && !errors.Is(err, io.EOF) {
				return fmt.Errorf("line %d: %w", lineNo, err)
			}
			if lineNo == 1 {
				return fmt.Errorf("header line of %d bytes: not an LDBC file", n)
			}
			le := &LineError{Line: lineNo, Text: cutPrefix(prefix),
				Err: fmt.Errorf("%w: line of %d bytes is longer than the %d-byte limit", ErrMalformed, n, MaxLineBytes)}
			if rd.OnBadLine == nil {
				return le
			}
			if err := rd.OnBadLine(le); err != nil {
				return err
			}
			if err != nil { // EOF
				return nil
			}
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("line %d: %w", lineNo, err)
		}
		if len(line) == 0 && err != nil { // EOF
			if lineNo == 1 {
				return fmt.Errorf("empty file: want header %q", headers[0])
			}
			return nil
		}
		line = trimEOL(line)
		if lineNo == 1 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
			for i, h := range headers {
				if string(line) == h {
					variant = i
				}
			}
			if variant < 0 {
				if len(headers) == 1 {
					return fmt.Errorf("header %q: want %q", cut(line), headers[0])
				}
				return fmt.Errorf("header %q: want one of %q", cut(line), headers)
			}
			want = strings.Count(headers[variant], string(Separator)) + 1
			fields = make([][]byte, 0, want)
		} else if len(line) > 0 {
			fields = splitFields(fields[:0], line)
			var ferr error
			if len(fields) != want {
				ferr = fmt.Errorf("%w: %d fields, want %d (%s)", ErrMalformed, len(fields), want, headers[variant])
			} else {
				ferr = fn(variant, lineNo, fields)
			}
			if ferr != nil {
				if !errors.Is(ferr, ErrMalformed) {
					return ferr
				}
				le := &LineError{Line: lineNo, Text: cut(line), Err: ferr}
				if rd.OnBadLine == nil {
					return le
				}
				if err := rd.OnBadLine(le); err != nil {
					return err
				}
			}
		}
		if err != nil { // EOF after a last line without newline
			return nil
		}
	}
}

// cutPrefix cuts the start of an over-long line to at most MaxValueBytes,
// marked by a final "…" (the message says how long the line was).
func cutPrefix(s string) string {
	n := min(len(s), MaxValueBytes-len("…"))
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

func trimEOL(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	return b
}

func splitFields(dst [][]byte, line []byte) [][]byte {
	for {
		i := bytes.IndexByte(line, Separator)
		if i < 0 {
			return append(dst, line)
		}
		dst = append(dst, line[:i])
		line = line[i+1:]
	}
}

// malformed wraps err as ErrMalformed with a column name for context.
func malformed(col string, err error) error {
	return fmt.Errorf("%w: %s: %v", ErrMalformed, col, err)
}
