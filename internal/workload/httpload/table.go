package httpload

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
)

// table is a parameter file: a header line and rows.
type table struct {
	header []string
	index  map[string]int
	rows   [][]string
}

func readTable(path string) (*table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	header, err := r.Read()
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
