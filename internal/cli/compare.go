package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/stampede-bench/stampede/internal/analysis/compare"
	"github.com/stampede-bench/stampede/internal/plugins"
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
	rep, baseName, candName, err := compare.Request{Base: args[0], Candidate: args[1], Names: f.names, Metrics: f.metrics, Scenarios: f.scenarios,
		Format: f.format, Alpha: f.alpha, FailPct: f.failPct, FailSet: failSet}.Run(env.Stdout, env.Stderr)
	if err != nil || !failSet {
		return err
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
