package loader

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/stampede-bench/stampede/internal/workload/graph/ldbcfile"
)

// chunkRows is the number of rows per COPY stream or transaction.
const chunkRows = 20_000

// chunk is a batch of validated rows of one table, with their file and
// line numbers for failure reports.
type chunk struct {
	t     *table
	file  string
	rows  [][]any
	lines []int
}

// rowKey identifies a row for duplicate detection.
type rowKey struct {
	a, b int64
	s    string
}

// personSet holds the person ids of the person file; read-only once the
// person file is read.
type personSet map[int64]struct{}

// badRow receives a row that is not loaded: its table, file (relative to
// the data set), line, reason and text.
type badRow func(t *table, file string, line int, reason, text string) error

// reader validates the rows of one table's files and cuts them into
// chunks, for its own table and for the tables its variant's extra
// columns fill.
type reader struct {
	t        *table
	dir      string
	parts    []string // the table's files, relative to dir
	wantTime bool     // PostgreSQL wants time.Time for dates, SQLite the text
	dates    ldbcfile.DateFormat
	persons  personSet
	bad      badRow
	meter    *meter
	byName   map[string]*table // tables by name, for extra columns
	// collect receives the ids of the person file (nil for other files).
	collect personSet
	// sent counts the rows sent per table.
	sent map[*table]int64
}

// read streams the files, sending chunks to out. Malformed, duplicate or
// dangling rows go to r.bad.
func (r *reader) read(ctx context.Context, out chan<- chunk) error {
	r.sent = map[*table]int64{}
	seen := map[rowKey]struct{}{}
	for _, part := range r.parts {
		if err := r.readPart(ctx, part, seen, out); err != nil {
			return err
		}
	}
	return nil
}

func (r *reader) readPart(ctx context.Context, part string, seen map[rowKey]struct{}, out chan<- chunk) error {
	f, err := os.Open(filepath.Join(r.dir, filepath.FromSlash(part)))
	if err != nil {
		return fmt.Errorf("%s: %w", part, unwrapPath(err))
	}
	defer f.Close()
	cur := map[*table]*chunk{}
	flush := func(t *table) error {
		c := cur[t]
		if c == nil || len(c.rows) == 0 {
			return nil
		}
		select {
		case out <- *c:
		case <-ctx.Done():
			return ctx.Err()
		}
		r.sent[t] += int64(len(c.rows))
		cur[t] = &chunk{t: t, file: part, rows: make([][]any, 0, chunkRows), lines: make([]int, 0, chunkRows)}
		return nil
	}
	add := func(t *table, row []any, line int) error {
		c := cur[t]
		if c == nil {
			c = &chunk{t: t, file: part}
			cur[t] = c
		}
		c.rows = append(c.rows, row)
		c.lines = append(c.lines, line)
		if len(c.rows) >= chunkRows {
			return flush(t)
		}
		return nil
	}
	rd := ldbcfile.Reader{Dates: r.dates, OnBadLine: func(le *ldbcfile.LineError) error {
		r.meter.add(1)
		return r.bad(r.t, part, le.Line, reasonOf(le.Err), le.Text)
	}}
	err = rd.ReadVariants(f, r.t.headers(), func(variant, line int, fields [][]byte) error {
		r.meter.add(1)
		row, k, err := r.parse(fields)
		if err != nil {
			return err
		}
		var extras []extraRow
		if variant > 0 {
			if extras, err = r.extras(r.t.variants[variant-1], row[0].(int64), fields[len(r.t.cols):]); err != nil {
				return err
			}
		}
		if r.t.key != keyNone {
			if _, dup := seen[k]; dup {
				return fmt.Errorf("%w: duplicate %s", ldbcfile.ErrMalformed, r.keyDesc(k))
			}
			seen[k] = struct{}{}
		}
		if r.collect != nil {
			r.collect[row[0].(int64)] = struct{}{}
		}
		if err := add(r.t, row, line); err != nil {
			return err
		}
		for _, x := range extras {
			if err := add(x.t, x.row, line); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w", part, err)
	}
	for t := range cur {
		if err := flush(t); err != nil {
			return err
		}
	}
	return nil
}

// extraRow is a row for another table, from an extra column.
type extraRow struct {
	t   *table
	row []any
}

// extras validates the extra columns of a variant and returns their rows.
func (r *reader) extras(v variant, id int64, fields [][]byte) ([]extraRow, error) {
	var out []extraRow
	for i, x := range v.extra {
		t := r.byName[x.table]
		b := fields[i]
		if len(b) == 0 {
			if x.optional || x.list {
				continue
			}
			return nil, fmt.Errorf("%w: %s: empty", ldbcfile.ErrMalformed, x.name)
		}
		if x.kind == cInt {
			v, err := ldbcfile.ParseID(b)
			if err != nil {
				return nil, fmt.Errorf("%w: %s: %v", ldbcfile.ErrMalformed, x.name, err)
			}
			if _, ok := r.persons[v]; x.person && !ok {
				return nil, fmt.Errorf("%w: %s %d is not in %s", ldbcfile.ErrMalformed, x.name, v, ldbcfile.PersonPath)
			}
			row := []any{id, v}
			if x.reverse {
				row = []any{v, id}
			}
			out = append(out, extraRow{t, row})
			continue
		}
		var vals []string
		for _, s := range strings.Split(string(b), string(ldbcfile.ListSeparator)) {
			if s != "" && !slices.Contains(vals, s) { // a set: each value once
				vals = append(vals, s)
			}
		}
		for _, s := range vals {
			out = append(out, extraRow{t, []any{id, s}})
		}
	}
	return out, nil
}

// parse validates the table's columns of one row and converts them to
// column values.
func (r *reader) parse(fields [][]byte) ([]any, rowKey, error) {
	row := make([]any, len(r.t.cols))
	for i, c := range r.t.cols {
		b := fields[i]
		switch c.kind {
		case cInt:
			v, err := ldbcfile.ParseID(b)
			if err != nil {
				return nil, rowKey{}, fmt.Errorf("%w: %s: %v", ldbcfile.ErrMalformed, c.name, err)
			}
			row[i] = v
		case cText:
			if !utf8.Valid(b) {
				// Refused on the client for every target alike (SQLite
				// would store the bytes, PostgreSQL refuse them mid-load).
				return nil, rowKey{}, fmt.Errorf("%w: %s: not valid UTF-8 (LDBC files are UTF-8; convert the file, e.g. with iconv -t UTF-8)", ldbcfile.ErrMalformed, c.name)
			}
			row[i] = string(b)
		case cGender:
			if s := string(b); s != ldbcfile.GenderMale && s != ldbcfile.GenderFemale {
				return nil, rowKey{}, fmt.Errorf("%w: %s: want male or female", ldbcfile.ErrMalformed, c.name)
			}
			row[i] = string(b)
		case cDate:
			t, err := ldbcfile.ParseDateIn(b, r.dates)
			if err != nil {
				return nil, rowKey{}, fmt.Errorf("%w: %s: %v", ldbcfile.ErrMalformed, c.name, err)
			}
			switch {
			case r.wantTime:
				row[i] = t
			case len(b) == len(ldbcfile.DateLayout) && b[4] == '-':
				row[i] = string(b)
			default: // epoch milliseconds: stored as the ISO text
				row[i] = string(ldbcfile.AppendDate(nil, t))
			}
		case cDateTime:
			t, err := ldbcfile.ParseDateTimeIn(b, r.dates)
			if err != nil {
				return nil, rowKey{}, fmt.Errorf("%w: %s: %v", ldbcfile.ErrMalformed, c.name, err)
			}
			switch {
			case r.wantTime:
				row[i] = t
			case len(b) == len(ldbcfile.DateTimeLayout) && b[4] == '-':
				row[i] = string(b)
			default:
				row[i] = string(ldbcfile.AppendDateTime(nil, t))
			}
		}
	}
	for _, i := range r.t.personRefs {
		if _, ok := r.persons[row[i].(int64)]; !ok {
			return nil, rowKey{}, fmt.Errorf("%w: %s %d is not in %s", ldbcfile.ErrMalformed, r.t.cols[i].name, row[i], ldbcfile.PersonPath)
		}
	}
	if r.t.noSelfLoop && row[0] == row[1] {
		return nil, rowKey{}, fmt.Errorf("%w: a person cannot know themself", ldbcfile.ErrMalformed)
	}
	var k rowKey
	switch r.t.key {
	case keyFirst:
		k.a = row[0].(int64)
	case keyPair, keyUnpair:
		k.a = row[0].(int64)
		switch v := row[1].(type) {
		case int64:
			k.b = v
		case string:
			k.s = v
		}
		if r.t.key == keyUnpair && k.b < k.a {
			k.a, k.b = k.b, k.a
		}
	}
	return row, k, nil
}

func (r *reader) keyDesc(k rowKey) string {
	switch r.t.key {
	case keyFirst:
		return r.t.cols[0].name + " " + strconv.FormatInt(k.a, 10)
	case keyUnpair:
		return fmt.Sprintf("friendship %d-%d", k.a, k.b)
	}
	if k.s != "" {
		return fmt.Sprintf("%s %d with %s %s", r.t.cols[0].name, k.a, r.t.cols[1].name, ldbcfile.Cut(k.s))
	}
	return fmt.Sprintf("%s %d with %s %d", r.t.cols[0].name, k.a, r.t.cols[1].name, k.b)
}

// reasonOf strips the "malformed line: " prefix from a reader error.
func reasonOf(err error) string {
	msg := err.Error()
	prefix := ldbcfile.ErrMalformed.Error() + ": "
	if len(msg) > len(prefix) && msg[:len(prefix)] == prefix {
		return msg[len(prefix):]
	}
	return msg
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
