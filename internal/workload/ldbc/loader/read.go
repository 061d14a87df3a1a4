package loader

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/stampede-bench/stampede/internal/workload/ldbc/ldbcfile"
)

// chunkRows is the number of rows per COPY stream or transaction.
const chunkRows = 20_000

// chunk is a batch of validated rows of one table, with their line numbers
// for failure reports.
type chunk struct {
	t     *table
	rows  [][]any
	lines []int
}

// rowKey identifies a row for duplicate detection.
type rowKey struct {
	a, b int64
	s    string
}

// personSet holds the person ids of person_0_0.csv; read-only once the
// person file is read.
type personSet map[int64]struct{}

// reader validates the rows of one file and cuts them into chunks.
type reader struct {
	t        *table
	dir      string
	wantTime bool // PostgreSQL wants time.Time for dates, SQLite the text
	persons  personSet
	failed   *failedRows
	bar      *bar
	// collect receives the ids of the person file (nil for other files).
	collect personSet
}

// read streams the file, sending chunks to out. Malformed, duplicate or
// dangling rows go to the failed-rows file. It returns the number of rows
// sent.
func (r *reader) read(ctx context.Context, out chan<- chunk) (int64, error) {
	f, err := os.Open(filepath.Join(r.dir, r.t.file.Path))
	if err != nil {
		return 0, fmt.Errorf("%s: %w", r.t.file.Path, unwrapPath(err))
	}
	defer f.Close()
	seen := map[rowKey]struct{}{}
	var sent int64
	cur := chunk{t: r.t}
	flush := func() error {
		if len(cur.rows) == 0 {
			return nil
		}
		select {
		case out <- cur:
		case <-ctx.Done():
			return ctx.Err()
		}
		sent += int64(len(cur.rows))
		cur = chunk{t: r.t, rows: make([][]any, 0, chunkRows), lines: make([]int, 0, chunkRows)}
		return nil
	}
	line := 1
	rd := ldbcfile.Reader{OnBadLine: func(le *ldbcfile.LineError) error {
		line = le.Line // resynchronise after lines that never reached fn
		r.bar.add(1)
		return r.failed.add(r.t.file.Path, le.Line, reasonOf(le.Err), le.Text)
	}}
	err = rd.ReadRecords(f, r.t.file.Header, func(fields [][]byte) error {
		line++ // exact unless the file has blank lines; bad lines resynchronise it
		row, k, err := r.parse(fields)
		if err != nil {
			return err
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
		cur.rows = append(cur.rows, row)
		cur.lines = append(cur.lines, line)
		if len(cur.rows) >= chunkRows {
			return flush()
		}
		return nil
	})
	if err != nil {
		return sent, fmt.Errorf("%s: %w", r.t.file.Path, err)
	}
	return sent, flush()
}

// parse validates one row and converts it to column values.
func (r *reader) parse(fields [][]byte) ([]any, rowKey, error) {
	row := make([]any, len(fields))
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
			row[i] = string(b)
		case cGender:
			if s := string(b); s != ldbcfile.GenderMale && s != ldbcfile.GenderFemale {
				return nil, rowKey{}, fmt.Errorf("%w: %s: want male or female", ldbcfile.ErrMalformed, c.name)
			}
			row[i] = string(b)
		case cDate:
			t, err := ldbcfile.ParseDate(b)
			if err != nil {
				return nil, rowKey{}, fmt.Errorf("%w: %s: %v", ldbcfile.ErrMalformed, c.name, err)
			}
			if r.wantTime {
				row[i] = t
			} else {
				row[i] = string(b)
			}
		case cDateTime:
			t, err := ldbcfile.ParseDateTime(b)
			if err != nil {
				return nil, rowKey{}, fmt.Errorf("%w: %s: %v", ldbcfile.ErrMalformed, c.name, err)
			}
			if r.wantTime {
				row[i] = t
			} else {
				row[i] = string(b)
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
		return fmt.Sprintf("%s %d with %s %s", r.t.cols[0].name, k.a, r.t.cols[1].name, k.s)
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
