// Package compare compares the repeated runs of a base and a candidate
// (two builds, two configurations) scenario by scenario, the way the
// seed's AutoFDO table did — each run's value, Mean, STDDEVP,
// STDDEVP/Mean and the change — plus a Mann-Whitney U p-value, a
// confidence interval for the change and benchstat's "~" when the runs do
// not support a difference. Compare builds a Report from loaded runs;
// WriteText, WriteMarkdown and WriteCSV render it.
//
// Everything here is a pure function of its arguments except Load, which
// reads result directories. Safe for concurrent use.
package compare

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/internal/envinfo"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/stats"
	"github.com/stampede-bench/stampede/internal/usage"
)

// inputError makes the error of a comparison that cannot be made from the
// given runs and options (nothing in common, unknown scenario or metric,
// bad alpha): the user's input is at fault, so it is a usage error (package
// usage), and its message starts "cannot compare: ".
func inputError(format string, args ...any) error {
	return usage.Errorf("cannot compare: "+format, args...)
}

// Run is one measured run of a side.
type Run struct {
	// Dir is where the run was read from; shown in messages.
	Dir      string
	Snapshot *metrics.Snapshot
	// Env is the machine and target fingerprint; zero when unknown.
	Env envinfo.Fingerprint
	// Warmup is the warm-up excluded from each scenario's statistics, by
	// scenario name; rates are computed over the time after it.
	Warmup map[string]time.Duration
	// TargetCPU is the monitored target's CPU time during each scenario's
	// measured span, seconds, by scenario name (nil: not monitored); see
	// the TargetCPU metric.
	TargetCPU map[string]float64
}

// Side is the base or the candidate: a label and its runs, in run order.
type Side struct {
	// Name labels the side's columns, e.g. "base", "default", "pgo".
	Name string
	// Path is what the user named (a run, a parent of runs).
	Path string
	Runs []Run
}

// Options choose what Compare compares.
type Options struct {
	// Metrics to compare in every scenario; empty means the defaults:
	// latency (or responseTime when the target reports none) avg and p95,
	// and QPS.
	Metrics []Metric
	// Scenarios restricts the comparison to these names; empty means all.
	Scenarios []string
	// Alpha is the significance level, in (0, 1); 0 means
	// stats.DefaultAlpha (0.05).
	Alpha float64
}

// Report is a finished comparison, ready to render.
type Report struct {
	Base, Cand SideInfo
	// Alpha is the significance level; confidence intervals are at 1−Alpha.
	Alpha float64
	// Warnings are reasons to distrust the whole comparison (different
	// hardware); Notes are smaller remarks (a scenario on one side only).
	Warnings, Notes []string
	Scenarios       []ScenarioResult
}

// SideInfo describes one side of a Report.
type SideInfo struct {
	Name, Path string
	// Runs are the run directories, in order; run i of every table is
	// Runs[i-1].
	Runs []string
	// Env is the fingerprint of the first run; EnvKnown is false when no
	// run had one.
	Env      envinfo.Fingerprint
	EnvKnown bool
}

// ScenarioResult is the comparison of one scenario present on both sides.
type ScenarioResult struct {
	Name    string
	Metrics []MetricResult
	// Notes are remarks on this scenario: runs without it, interrupted
	// runs, errors, metrics that could not be compared.
	Notes []string
}

// MetricResult is one metric of one scenario compared.
type MetricResult struct {
	Metric Metric
	// Unit of the values: "µs", "req/s", "it/s", "/s", "B" or "".
	Unit      string
	Direction Direction
	// Base and Cand hold one value per run of the side, NaN for runs
	// without the scenario.
	Base, Cand []float64
	// StdDevP and CV of each side's values (CV as a fraction).
	BaseStdDevP, CandStdDevP float64
	BaseCV, CandCV           float64
	// Verdict compares the values; its Delta is the change of the means.
	Verdict stats.Verdict
}

// Worse reports whether the candidate is significantly worse: higher when
// lower is better, or lower when higher is better.
func (m MetricResult) Worse() bool {
	return m.Verdict.Significant && float64(m.Direction)*m.Verdict.Delta < 0
}

// Better reports whether the candidate is significantly better.
func (m MetricResult) Better() bool {
	return m.Verdict.Significant && float64(m.Direction)*m.Verdict.Delta > 0
}

// Compare compares every scenario present on both sides (or those in
// opt.Scenarios) by opt.Metrics. Scenarios or metrics present on only one
// side are left out with a note saying so. It fails, with a usage error
// (package usage), when a side has no run, no scenario is on both sides, a chosen
// scenario is on neither, a chosen metric is in no compared scenario or
// opt.Alpha is outside [0, 1).
func Compare(base, cand Side, opt Options) (*Report, error) {
	alpha := opt.Alpha
	if alpha == 0 {
		alpha = stats.DefaultAlpha
	}
	if !(alpha > 0 && alpha < 1) {
		return nil, inputError("alpha %v, want in (0, 1)", opt.Alpha)
	}
	for _, s := range []Side{base, cand} {
		if len(s.Runs) == 0 {
			return nil, inputError("%s (%s) has no run", s.Name, s.Path)
		}
	}
	r := &Report{Base: sideInfo(base), Cand: sideInfo(cand), Alpha: alpha}
	r.checkEnv(base, cand)

	baseNames, candNames := scenarioNames(base), scenarioNames(cand)
	names := baseNames
	for _, n := range candNames {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	if len(opt.Scenarios) > 0 {
		for _, n := range opt.Scenarios {
			if !slices.Contains(names, n) {
				return nil, inputError("scenario %s is in neither %s nor %s (scenarios: %s)", n, base.Name, cand.Name, strings.Join(names, ", "))
			}
		}
		names = slices.DeleteFunc(slices.Clone(names), func(n string) bool { return !slices.Contains(opt.Scenarios, n) })
	}

	used := map[Metric]bool{}
	for _, name := range names {
		inBase, inCand := slices.Contains(baseNames, name), slices.Contains(candNames, name)
		switch {
		case !inCand:
			r.Notes = append(r.Notes, fmt.Sprintf("scenario %s is only in %s (%s): not compared", name, base.Name, base.Path))
			continue
		case !inBase:
			r.Notes = append(r.Notes, fmt.Sprintf("scenario %s is only in %s (%s): not compared", name, cand.Name, cand.Path))
			continue
		}
		sr := compareScenario(name, base, cand, opt.Metrics, alpha)
		for _, m := range sr.Metrics {
			used[m.Metric] = true
		}
		r.Scenarios = append(r.Scenarios, sr)
	}
	if len(r.Scenarios) == 0 {
		return nil, inputError("no scenario is in both %s and %s", describeNames(base, baseNames), describeNames(cand, candNames))
	}
	for _, m := range opt.Metrics {
		if !used[m] {
			return nil, inputError("metric %s is in no scenario of both %s and %s (%s)", m, base.Name, cand.Name, availableMetrics(base, cand, names))
		}
	}
	return r, nil
}

// compareScenario compares scenario name across the runs of both sides.
func compareScenario(name string, base, cand Side, chosen []Metric, alpha float64) ScenarioResult {
	sr := ScenarioResult{Name: name}
	baseScs, candScs := scenarioRuns(base, name), scenarioRuns(cand, name)
	for _, s := range []struct {
		side Side
		scs  []*metrics.ScenarioSnapshot
	}{{base, baseScs}, {cand, candScs}} {
		sr.Notes = append(sr.Notes, runNotes(s.side, s.scs)...)
	}
	ms := chosen
	if len(ms) == 0 {
		ms = defaultMetrics(append(present(baseScs), present(candScs)...))
		if monitoredEverywhere(name, base, cand) {
			ms = append(ms, Metric{Name: TargetCPU})
		}
	}
	for _, m := range ms {
		mr, note := compareMetric(m, base, cand, baseScs, candScs, alpha)
		if note != "" {
			sr.Notes = append(sr.Notes, note)
			continue
		}
		sr.Metrics = append(sr.Metrics, mr)
	}
	sr.Notes = append(sr.Notes, verdictNotes(sr.Metrics)...)
	return sr
}

// compareMetric takes m from every run of both sides. It returns a note
// instead when some run that has the scenario lacks the metric, or when the
// units differ.
func compareMetric(m Metric, base, cand Side, baseScs, candScs []*metrics.ScenarioSnapshot, alpha float64) (MetricResult, string) {
	mr := MetricResult{Metric: m}
	units := map[string]bool{}
	for _, s := range []struct {
		side Side
		scs  []*metrics.ScenarioSnapshot
		out  *[]float64
	}{{base, baseScs, &mr.Base}, {cand, candScs, &mr.Cand}} {
		var missing []int
		for i, sc := range s.scs {
			if sc == nil {
				*s.out = append(*s.out, math.NaN())
				continue
			}
			v, unit, ok := m.value(sc, s.side.Runs[i].Warmup[sc.Name])
			if m.Name == TargetCPU {
				v, unit, ok = targetCPUValue(s.side.Runs[i], sc)
			}
			if !ok {
				missing = append(missing, i+1)
				continue
			}
			units[unit] = true
			mr.Unit = unit
			*s.out = append(*s.out, v)
		}
		if len(missing) > 0 {
			have := ""
			if m.isTrendStat() {
				have = "; trends there: " + strings.Join(trendNames(s.scs[missing[0]-1]), ", ")
			}
			return mr, fmt.Sprintf("%s not compared: missing from %s (%s)%s", m, s.side.Name, runList(missing, len(s.scs)), have)
		}
	}
	if len(units) > 1 {
		return mr, fmt.Sprintf("%s has different units on the two sides (%s): not compared", m, strings.Join(sortedKeys(units), " vs "))
	}
	mr.Direction = m.direction(mr.Unit)
	b, c := finite(mr.Base), finite(mr.Cand)
	mr.BaseStdDevP, mr.CandStdDevP = stats.StdDevP(b), stats.StdDevP(c)
	mr.BaseCV, mr.CandCV = stats.CV(b), stats.CV(c)
	mr.Verdict = stats.Compare(b, c, alpha)
	return mr, ""
}

// scenarioNames lists the scenarios of a side's runs in order of first
// appearance.
func scenarioNames(s Side) []string {
	var names []string
	for _, run := range s.Runs {
		for _, sc := range run.Snapshot.Scenarios {
			if !slices.Contains(names, sc.Name) {
				names = append(names, sc.Name)
			}
		}
	}
	return names
}

// scenarioRuns returns scenario name of each run of s, nil where absent.
func scenarioRuns(s Side, name string) []*metrics.ScenarioSnapshot {
	out := make([]*metrics.ScenarioSnapshot, len(s.Runs))
	for i, run := range s.Runs {
		out[i] = run.Snapshot.Scenario(name)
	}
	return out
}

func present(scs []*metrics.ScenarioSnapshot) []*metrics.ScenarioSnapshot {
	return slices.DeleteFunc(slices.Clone(scs), func(sc *metrics.ScenarioSnapshot) bool { return sc == nil })
}

func finite(xs []float64) []float64 {
	return slices.DeleteFunc(slices.Clone(xs), math.IsNaN)
}

func trendNames(sc *metrics.ScenarioSnapshot) []string {
	var names []string
	for n, t := range sc.Trends {
		if t != nil && t.Hist != nil && t.Hist.TotalCount() > 0 {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}

// availableMetrics describes the trends of the named scenarios on both
// sides, for an error about a metric that is in none.
func availableMetrics(base, cand Side, names []string) string {
	set := map[string]bool{}
	for _, s := range []Side{base, cand} {
		for _, run := range s.Runs {
			for _, sc := range run.Snapshot.Scenarios {
				if slices.Contains(names, sc.Name) {
					for _, n := range trendNames(sc) {
						set[n] = true
					}
				}
			}
		}
	}
	return "trends: " + strings.Join(sortedKeys(set), ", ") + "; or qps, or COUNTER:rate"
}

// describeNames is "base DIR (scenario, ...)" for error messages.
func describeNames(s Side, names []string) string {
	list := "no scenario"
	if len(names) > 0 {
		list = strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s %s (%s)", s.Name, s.Path, list)
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
