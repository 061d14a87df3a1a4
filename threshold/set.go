package threshold

// Set is a run's pass/fail criteria: the specs as given (a run records
// them in options.json) and their parsed form, parsed once by ParseSet.
// The zero value has none.
type Set struct {
	specs  []string
	parsed []Threshold
}

// ParseSet parses k6 threshold specs such as "responseTime: p(95)<200"
// (ParseAll): specs on the same metric are merged.
func ParseSet(specs []string) (Set, error) {
	ts, err := ParseAll(specs)
	if err != nil {
		return Set{}, err
	}
	return Set{specs: append([]string(nil), specs...), parsed: ts}, nil
}

// Specs returns the specs as given.
func (s Set) Specs() []string { return append([]string(nil), s.specs...) }

// List returns the parsed thresholds.
func (s Set) List() []Threshold { return s.parsed }

// Len is the number of specs.
func (s Set) Len() int { return len(s.specs) }
