package sweep

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	analysis "github.com/stampede-bench/stampede/internal/analysis/sweep"
	"github.com/stampede-bench/stampede/internal/result/report"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/selfcheck"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/version"
)

// Files a sweep writes into its parent directory.
const (
	JSONFile  = "sweep.json"
	TableFile = "sweep.txt"
)

// Analyse loads the step result directories dirs of the sweep in parent,
// prints the analysis table (analysis.WriteTable) on stdout and writes it
// to parent/sweep.txt, the analysis to parent/sweep.json and, unless
// noReport, the scaling curves to parent/report.html; then it names the
// files it wrote on stderr. Directories that are no sweep steps (no sweep
// entry in their options.json) are a usage error.
func Analyse(parent string, dirs []string, rule analysis.Rule, noReport bool, stdout, stderr io.Writer) error {
	var points []analysis.Point
	var results []*resultdir.Result
	for _, d := range dirs {
		r, err := resultdir.Load(d)
		if err != nil {
			return err
		}
		check, err := selfcheck.Read(d)
		if err != nil {
			return err
		}
		results = append(results, r)
		pts := analysis.FromResult(r, check)
		if err := analysis.AddTarget(pts, r); err != nil { // --monitor series, when the steps have one
			return err
		}
		points = append(points, pts...)
	}
	a := analysis.Analyze(points, rule)
	if a.Dimension == "" {
		return usage.Errorf("%s holds no sweep steps (their options.json has no sweep entry)", parent)
	}
	var table strings.Builder
	if err := analysis.WriteTable(&table, a); err != nil {
		return err
	}
	fmt.Fprint(orDiscard(stdout), "\n"+table.String())
	if err := resultdir.WriteFile(parent, TableFile, []byte(table.String())); err != nil {
		return err
	}
	if err := resultdir.WriteJSON(parent, JSONFile, a); err != nil {
		return err
	}
	written := []string{filepath.Join(parent, TableFile), filepath.Join(parent, JSONFile)}
	if !noReport {
		path := filepath.Join(parent, resultdir.ReportFile)
		if err := report.WriteFile(path, results, report.Options{Generator: "stampede " + version.String()}); err != nil {
			return fmt.Errorf("sweep report: %w", err)
		}
		written = append(written, path)
	}
	fmt.Fprintf(orDiscard(stderr), "sweep analysis: %s\n", strings.Join(written, ", "))
	return nil
}
