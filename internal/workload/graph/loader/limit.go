package loader

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Limit is --max-rejected: how many rows a load may reject and still
// succeed, as a number of rows or a percentage of the rows read. The zero
// value allows none.
type Limit struct {
	// Rows is the number of rows, when Percent is false.
	Rows int64
	// Pct is the percentage (0-100) of the rows read, when Percent.
	Pct     float64
	Percent bool
}

// ParseLimit parses "N" (rows) or "P%" (percent of the rows read).
func ParseLimit(s string) (Limit, error) {
	s = strings.TrimSpace(s)
	if p, ok := strings.CutSuffix(s, "%"); ok {
		v, err := strconv.ParseFloat(p, 64)
		if err != nil || math.IsNaN(v) || v < 0 || v > 100 {
			return Limit{}, fmt.Errorf("--max-rejected %q: want a number of rows or a percentage from 0%% to 100%%", s)
		}
		return Limit{Pct: v, Percent: true}, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return Limit{}, fmt.Errorf("--max-rejected %q: want a number of rows (0 or more) or a percentage such as 0.1%%", s)
	}
	return Limit{Rows: n}, nil
}

// Allowed is the number of rows that may be rejected out of read.
func (l Limit) Allowed(read int64) int64 {
	if l.Percent {
		return int64(math.Floor(float64(read) * l.Pct / 100))
	}
	return l.Rows
}

func (l Limit) String() string {
	if l.Percent {
		return strconv.FormatFloat(l.Pct, 'f', -1, 64) + "%"
	}
	return strconv.FormatInt(l.Rows, 10)
}
