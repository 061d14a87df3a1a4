package report

import (
	"bytes"
	"io"
	"path/filepath"

	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/usage"
)

// Request is a report as `stampede report` asks for it.
type Request struct {
	// Args are result directories, or parents of them (repeated runs,
	// sweeps), in order.
	Args []string
	// Out is the HTML file, "-" for stdout; "" is ARG/report.html for
	// one argument, ./report.html for several (see Out).
	Out string
	// Options are the report's; MaxPoints must be at least 10 and Labels
	// at most one per result directory.
	Options Options
	// CheckWritable tells why a file cannot be written (nil: it can).
	CheckWritable func(path string) error
}

// Run checks r (bad input is a usage error, before any result is read),
// loads the results and writes the report, to stdout for "-". It returns
// where the report went and how many runs it shows.
func (r Request) Run(stdout io.Writer) (out string, runs int, err error) {
	if r.Options.MaxPoints < 10 {
		return "", 0, usage.Errorf("--max-points must be at least 10, got %d", r.Options.MaxPoints)
	}
	var dirs []string
	for _, a := range r.Args {
		found, err := resultdir.Find(a)
		if err != nil {
			return "", 0, usage.Errorf("%v", err)
		}
		dirs = append(dirs, found...)
	}
	if len(r.Options.Labels) > len(dirs) {
		return "", 0, usage.Errorf("%d --label values for %d result directories", len(r.Options.Labels), len(dirs))
	}
	out = r.out()
	if out != "-" {
		if err := r.CheckWritable(out); err != nil {
			return "", 0, usage.Errorf("-o %s: %v", out, err) // unwritable output: bad input, before any reading
		}
	}
	var results []*resultdir.Result
	for _, d := range dirs {
		res, err := resultdir.Load(d)
		if err != nil {
			return "", 0, usage.Errorf("%v", err)
		}
		results = append(results, res)
	}
	if out == "-" {
		var buf bytes.Buffer
		if err := Write(&buf, results, r.Options); err != nil {
			return "", 0, err
		}
		_, err := stdout.Write(buf.Bytes())
		return out, len(results), err
	}
	return out, len(results), WriteFile(out, results, r.Options)
}

// out is where the report goes: Out, else ARG/report.html for one
// argument, ./report.html for several.
func (r Request) out() string {
	if r.Out != "" {
		return r.Out
	}
	if len(r.Args) == 1 {
		return filepath.Join(r.Args[0], resultdir.ReportFile)
	}
	return resultdir.ReportFile
}
