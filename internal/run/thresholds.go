package run

import "github.com/stampede-bench/stampede/internal/threshold"

// Thresholds are a run's pass/fail criteria: the specs as given (recorded
// in options.json) and their parsed form, parsed once by ParseThresholds.
// The zero value has none.
type Thresholds struct {
	specs  []string
	parsed []threshold.Threshold
}

// ParseThresholds parses k6 threshold specs such as
// "responseTime: p(95)<200". Specs on the same metric are merged. A bad
// spec is a usage error.
func ParseThresholds(specs []string) (Thresholds, error) {
	ts, err := threshold.ParseAll(specs)
	if err != nil {
		return Thresholds{}, asUsage(err)
	}
	return Thresholds{specs: append([]string(nil), specs...), parsed: ts}, nil
}

// Specs returns the specs as given.
func (t Thresholds) Specs() []string { return append([]string(nil), t.specs...) }

// List returns the parsed thresholds.
func (t Thresholds) List() []threshold.Threshold { return t.parsed }

// Len is the number of specs.
func (t Thresholds) Len() int { return len(t.specs) }
