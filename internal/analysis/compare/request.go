package compare

import (
	"fmt"
	"io"
	"strings"

	"github.com/stampede-bench/stampede/internal/usage"
)

// Request is a comparison as `stampede compare` asks for it.
type Request struct {
	// Base and Candidate are the result directories (or parents of
	// repeated runs).
	Base, Candidate string
	// Names are the column labels, "BASE,CANDIDATE".
	Names string
	// Metrics are NAME:STAT specs (ParseMetric; duplicates are dropped),
	// Scenarios the scenarios to compare (none: all).
	Metrics, Scenarios []string
	// Format is text (or txt), md (or markdown) or csv.
	Format string
	// Alpha is the significance level, in (0, 1).
	Alpha float64
	// FailPct is --fail-on-regression's percentage (≥ 0), checked when
	// FailSet; Regressions(FailPct) applies it.
	FailPct float64
	FailSet bool
}

// Run checks r (bad values are usage errors, before anything is read),
// compares and writes the report in r.Format on stdout; a CSV report's
// warnings and notes go to stderr, where a person sees them. It returns
// the report and the two labels.
func (r Request) Run(stdout, stderr io.Writer) (rep *Report, baseName, candName string, err error) {
	write, err := writer(r.Format)
	if err != nil {
		return nil, "", "", err
	}
	if !(r.Alpha > 0 && r.Alpha < 1) {
		return nil, "", "", usage.Errorf("compare: --alpha %v: want a level in (0, 1), e.g. 0.05", r.Alpha)
	}
	if r.FailSet && !(r.FailPct >= 0) {
		return nil, "", "", usage.Errorf("compare: --fail-on-regression %v: want a percentage ≥ 0", r.FailPct)
	}
	baseName, candName, ok := strings.Cut(r.Names, ",")
	baseName, candName = strings.TrimSpace(baseName), strings.TrimSpace(candName)
	if !ok || baseName == "" || candName == "" || baseName == candName || strings.Contains(candName, ",") {
		return nil, "", "", usage.Errorf("compare: --names %q: want two different labels, e.g. default,pgo", r.Names)
	}
	opt := Options{Alpha: r.Alpha, Scenarios: r.Scenarios}
	for _, s := range r.Metrics {
		m, err := ParseMetric(s)
		if err != nil {
			return nil, "", "", usage.Errorf("compare: --metric %v", err)
		}
		if !containsMetric(opt.Metrics, m) {
			opt.Metrics = append(opt.Metrics, m)
		}
	}
	base, err := Load(r.Base, baseName)
	if err != nil {
		return nil, "", "", requestErr(err)
	}
	cand, err := Load(r.Candidate, candName)
	if err != nil {
		return nil, "", "", requestErr(err)
	}
	if rep, err = Compare(base, cand, opt); err != nil {
		return nil, "", "", requestErr(err)
	}
	if err := write(rep, stdout); err != nil {
		return nil, "", "", fmt.Errorf("compare: write: %w", err)
	}
	if r.Format == "csv" {
		// The CSV holds data only; say the rest where a person sees it.
		for _, w := range rep.Warnings {
			fmt.Fprintf(stderr, "WARNING: %s\n", w)
		}
		for _, n := range rep.Notes {
			fmt.Fprintf(stderr, "note: %s\n", n)
		}
		for _, s := range rep.Scenarios {
			for _, n := range s.Notes {
				fmt.Fprintf(stderr, "note: %s: %s\n", s.Name, n)
			}
		}
	}
	return rep, baseName, candName, nil
}

// writer returns the renderer of format.
func writer(format string) (func(*Report, io.Writer) error, error) {
	switch format {
	case "text", "txt":
		return (*Report).WriteText, nil
	case "md", "markdown":
		return (*Report).WriteMarkdown, nil
	case "csv":
		return (*Report).WriteCSV, nil
	}
	return nil, usage.Errorf("compare: --format %q: want text, md or csv", format)
}

// requestErr keeps input problems usage errors (exit 2); their message
// already starts with "cannot compare".
func requestErr(err error) error {
	if usage.Is(err) {
		return usage.Wrap(err)
	}
	return fmt.Errorf("compare: %w", err)
}

func containsMetric(list []Metric, m Metric) bool {
	for _, x := range list {
		if x == m {
			return true
		}
	}
	return false
}
