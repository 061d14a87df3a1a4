package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stampede-bench/stampede/internal/analysis/compare"
	"github.com/stampede-bench/stampede/internal/plugins"
	"github.com/stampede-bench/stampede/internal/usage"
)

// ExitRegression is the exit code of compare --fail-on-regression PCT when
// a metric of the candidate is significantly worse than the base by more
// than PCT percent.
const ExitRegression = 3

// compareFlags are the options of `stampede compare`.
type compareFlags struct {
	metrics   []string
	scenarios []string
	format    string
	alpha     float64
	failPct   float64
	names     string
}

func newCompareCmd(env *Env) *cobra.Command {
	f := &compareFlags{}
	cmd := &cobra.Command{
		Use:   "compare BASE CANDIDATE",
		Short: "Compare the repeated runs of two builds or configurations, with statistics",
		Long: `Compare a candidate against a base, scenario by scenario. BASE and CANDIDATE
are result directories: a parent of repeated runs (run --repeat N writes
run-01 … run-NN), a single run, or a merged run.

For every scenario on both sides and every metric (by default latency avg
and p95 when the target reports server latency, else responseTime avg and
p95, and qps) the table shows each run's value, Mean, STDDEVP,
STDDEVP/Mean, the change CANDIDATE/BASE, a two-sided Mann-Whitney U
p-value, a distribution-free confidence interval for the change and a
benchstat-style verdict: "~" when the runs do not support a difference at
--alpha (with fewer than 4 runs a side they never can at 0.05). Time values
are in µs. When every run was made with --monitor, target_cpu — the
target's CPU time per operation, µs — is compared too: the steadiest
figure of a build's efficiency. The machines' fingerprints are shown side by side, with a
WARNING when the two sides ran on different hardware.

Exit codes: 0 ok, 2 bad input (nothing in common, unknown metric), 3 when
--fail-on-regression PCT is given and a metric got significantly worse by
more than PCT percent (higher latency, lower qps).`,
		Example: plugins.CompareExample,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCompare(env, f, cmd.Flags().Changed("fail-on-regression"), args)
		},
	}
	fs := cmd.Flags()
	fs.StringArrayVar(&f.metrics, "metric", nil, "metric NAME:STAT, STAT one of min, avg, med, max, p90, p95, p99, p99.9 (any pNN), or rate for a counter; or qps; or target_cpu, the monitored target's CPU µs per operation (repeatable; default latency or responseTime avg and p95, and qps, plus target_cpu when every run had --monitor)")
	fs.StringArrayVar(&f.scenarios, "scenario", nil, "compare only this scenario (repeatable)")
	fs.StringVar(&f.format, "format", "text", "output format: text, md (Markdown) or csv")
	fs.Float64Var(&f.alpha, "alpha", 0.05, "significance level of the test; confidence intervals are at 1-alpha")
	fs.Float64Var(&f.failPct, "fail-on-regression", 0, "exit 3 when a metric is significantly worse by more than PCT percent (0: any significant regression)")
	fs.StringVar(&f.names, "names", "base,candidate", "column labels of BASE and CANDIDATE, comma-separated, e.g. default,pgo")
	return cmd
}

// runCompare is `stampede compare`. failSet says whether
// --fail-on-regression was given.
func runCompare(env *Env, f *compareFlags, failSet bool, args []string) error {
	if len(args) != 2 {
		return usagef("compare: give BASE and CANDIDATE result directories (got %d arguments)", len(args))
	}
	write, err := compareWriter(f.format)
	if err != nil {
		return err
	}
	if !(f.alpha > 0 && f.alpha < 1) {
		return usagef("compare: --alpha %v: want a level in (0, 1), e.g. 0.05", f.alpha)
	}
	if failSet && !(f.failPct >= 0) {
		return usagef("compare: --fail-on-regression %v: want a percentage ≥ 0", f.failPct)
	}
	baseName, candName, ok := strings.Cut(f.names, ",")
	baseName, candName = strings.TrimSpace(baseName), strings.TrimSpace(candName)
	if !ok || baseName == "" || candName == "" || baseName == candName || strings.Contains(candName, ",") {
		return usagef("compare: --names %q: want two different labels, e.g. default,pgo", f.names)
	}
	opt := compare.Options{Alpha: f.alpha, Scenarios: f.scenarios}
	for _, s := range f.metrics {
		m, err := compare.ParseMetric(s)
		if err != nil {
			return usagef("compare: --metric %v", err)
		}
		if !containsMetric(opt.Metrics, m) {
			opt.Metrics = append(opt.Metrics, m)
		}
	}

	base, err := compare.Load(args[0], baseName)
	if err != nil {
		return compareErr(err)
	}
	cand, err := compare.Load(args[1], candName)
	if err != nil {
		return compareErr(err)
	}
	rep, err := compare.Compare(base, cand, opt)
	if err != nil {
		return compareErr(err)
	}
	if err := write(rep, env.Stdout); err != nil {
		return fmt.Errorf("compare: write: %w", err)
	}
	if f.format == "csv" {
		// The CSV holds data only; say the rest where a person sees it.
		for _, w := range rep.Warnings {
			fmt.Fprintf(env.Stderr, "WARNING: %s\n", w)
		}
		for _, n := range rep.Notes {
			fmt.Fprintf(env.Stderr, "note: %s\n", n)
		}
		for _, s := range rep.Scenarios {
			for _, n := range s.Notes {
				fmt.Fprintf(env.Stderr, "note: %s: %s\n", s.Name, n)
			}
		}
	}
	if !failSet {
		return nil
	}
	if regs := rep.Regressions(f.failPct); len(regs) > 0 {
		parts := make([]string, len(regs))
		for i, g := range regs {
			parts[i] = g.String()
		}
		return &ExitError{Code: ExitRegression, Msg: fmt.Sprintf("compare: %s worse than %s by more than %g%%: %s",
			candName, baseName, f.failPct, strings.Join(parts, "; "))}
	}
	return nil
}

// compareWriter returns the renderer of format.
func compareWriter(format string) (func(*compare.Report, io.Writer) error, error) {
	switch format {
	case "text", "txt":
		return (*compare.Report).WriteText, nil
	case "md", "markdown":
		return (*compare.Report).WriteMarkdown, nil
	case "csv":
		return (*compare.Report).WriteCSV, nil
	}
	return nil, usagef("compare: --format %q: want text, md or csv", format)
}

// compareErr makes input problems usage errors (exit 2); their message
// already starts with "cannot compare".
func compareErr(err error) error {
	if usage.Is(err) {
		return asUsage(err)
	}
	return fmt.Errorf("compare: %w", err)
}

func containsMetric(list []compare.Metric, m compare.Metric) bool {
	for _, x := range list {
		if x == m {
			return true
		}
	}
	return false
}
