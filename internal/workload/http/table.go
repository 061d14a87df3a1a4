package http

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"

	"github.com/stampede-bench/stampede/internal/bounded"
)

// table is a parameter file: a header line and rows.
type table struct {
	header []string
	index  map[string]int
	rows   [][]string
}

// readTable reads a --params file of at most bounded.ParamsBytes; ctx
// ends the read.
func readTable(ctx context.Context, path string) (*table, error) {
	f, err := bounded.Open(path, bounded.ParamsBytes)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(bounded.Lines(bounded.Reader(ctx, f, bounded.ParamsBytes, path), bounded.LineBytes, path))
	header, err := r.Read()
	if bounded.IsTooLarge(err) || ctx.Err() != nil {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("%s: no header line", path)
	}
	t := &table{header: header, index: map[string]int{}}
	for i, h := range header {
		t.index[h] = i
	}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if bounded.IsTooLarge(err) || ctx.Err() != nil {
			return nil, err
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		t.rows = append(t.rows, rec)
	}
	if len(t.rows) == 0 {
		return nil, fmt.Errorf("%s has no rows", path)
	}
	return t, nil
}
