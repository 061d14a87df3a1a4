package report

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/selfcheck"
	"github.com/stampede-bench/stampede/verdict"
)

// maxErrorRows bounds the error messages listed per scenario; the rest are
// summed as "(other messages)".
const maxErrorRows = 50

func buildRun(r *resultdir.Result, label string, sc *selfcheck.Report, maxPoints int) (*Run, error) {
	snap := r.Snapshot
	run := &Run{
		Label: label, Dir: r.Dir, Start: snap.Start, End: snap.End, Interrupted: snap.Interrupted,
		Options: r.Options, Env: r.Env,
	}
	if len(r.Options.Args) > 0 {
		run.Command = "stampede " + strings.Join(r.Options.Args, " ")
	}
	switch {
	case snap.Stopped != "":
		run.Warnings = append(run.Warnings, "the run was stopped early: "+snap.Stopped+"; results cover it until the stop")
	case snap.Interrupted:
		run.Warnings = append(run.Warnings, "the run was interrupted: results cover it until the stop")
	}
	run.Notes = metrics.RunNotes(snap) // once for the run, not under each scenario
	v := verdict.Of(snap)
	for _, s := range snap.Scenarios {
		run.Scenarios = append(run.Scenarios, buildScenario(s, v.Scenario(s.Name), sc, run.Notes))
	}
	if err := readSeries(r.Dir, run.Scenarios, snap, maxPoints); err != nil {
		return nil, err
	}
	if err := addTarget(run, r, maxPoints); err != nil { // --monitor series, when present
		return nil, err
	}
	if sc != nil && len(sc.Samples) > 0 {
		run.Generator = buildGenerator(sc, snap, maxPoints)
		if w := sc.Warning(snap.Start, snap.End); w != "" {
			run.Warnings = append(run.Warnings, w)
		}
	}
	return run, nil
}

func buildScenario(s *metrics.ScenarioSnapshot, v verdict.Scenario, sc *selfcheck.Report, runNotes []string) *Scenario {
	out := &Scenario{
		Name: s.Name, Executor: s.Executor, Start: s.Start, Duration: round(s.Duration().Seconds(), 3),
		Interrupted: s.Interrupted, Notes: metrics.OwnNotes(s, runNotes),
	}
	sum := &out.Summary
	sum.Iterations = s.Counters[metrics.Iterations]
	sum.Requests = s.Counters[metrics.Requests]
	sum.Errors = s.Counters[metrics.Errors]
	sum.Dropped = s.Counters[metrics.DroppedIterations]
	ops := sum.Requests
	if ops == 0 {
		ops = sum.Iterations
	}
	if d := s.MeasuredDuration().Seconds(); d > 0 {
		sum.Throughput = round(float64(ops)/d, 2)
	}
	if ops > 0 {
		sum.ErrorRate = round(float64(sum.Errors)/float64(ops), 6)
	}
	if t := s.Trends[metrics.ResponseTime]; t != nil {
		st := t.Stats()
		sum.P50, sum.P90, sum.P95, sum.P99 = usToMs(st.Med), usToMs(st.P90), usToMs(st.P95), usToMs(st.P99)
		sum.Max, sum.Avg = usToMs(st.Max), usToMs(st.Avg)
		out.Distribution = distribution(t)
	}
	out.Verdict = v
	if v := out.Verdict; v.Status != verdict.Passed {
		texts := make([]string, len(v.Reason))
		for i, r := range v.Reason {
			texts[i] = r.Text
		}
		w := strings.ToUpper(string(v.Status)) + ": " + strings.Join(texts, "; ")
		if v.Top.Msg != "" {
			w += fmt.Sprintf("; top error (%d×): %s", v.Top.N, v.Top.Msg)
		}
		if metrics.FailureOf(s) != nil {
			w += " — throughput and latency below include the failed requests"
		}
		out.Warnings = append(out.Warnings, w)
	}
	sum.Checks = -1
	if c := s.Rates[metrics.Checks]; c != nil {
		sum.Checks = round(c.Value(), 6)
	}
	for _, name := range sortedKeys(s.Trends) {
		t := s.Trends[name]
		st := t.Stats()
		conv, unit := func(v float64) float64 { return round(v, 3) }, ""
		if t.Unit == metrics.UnitMicros {
			conv, unit = usToMs, "ms"
		}
		out.Trends = append(out.Trends, TrendRow{
			Name: name, Unit: unit, Count: st.Count, Min: conv(st.Min), Avg: conv(st.Avg), Med: conv(st.Med),
			P90: conv(st.P90), P95: conv(st.P95), P99: conv(st.P99), P999: conv(st.P999), Max: conv(st.Max),
		})
	}
	sort.SliceStable(out.Trends, func(i, j int) bool { return trendOrder(out.Trends[i].Name) < trendOrder(out.Trends[j].Name) })
	for _, name := range sortedKeys(s.Counters) {
		out.Counters = append(out.Counters, Count{Name: name, N: s.Counters[name]})
	}
	for _, name := range sortedKeys(s.Rates) {
		r := s.Rates[name]
		out.Rates = append(out.Rates, RateRow{Name: name, Passes: r.Passes, Fails: r.Fails, Value: round(r.Value(), 6)})
	}
	var other int64
	for i, e := range s.SortedErrors() {
		if i >= maxErrorRows {
			other += e.N
			continue
		}
		out.Errors = append(out.Errors, Count{Name: e.Msg, N: e.N})
	}
	if other > 0 {
		out.Errors = append(out.Errors, Count{Name: "(other messages)", N: other})
	}
	if sum.Dropped > 0 && !hasRule(out.Verdict, verdict.RuleDropped) {
		out.Warnings = append(out.Warnings, "dropped iterations: the VUs could not keep up with the arrival rate")
	}
	if sc != nil {
		// The run's self-check may have noted it already, with a remark
		// appended (selfcheck.InProcessRemark): once is enough.
		if w := sc.Warning(s.Start, s.End); w != "" && !hasPrefixIn(s.Notes, w) {
			out.Warnings = append(out.Warnings, w)
		}
	}
	return out
}

// trendOrder puts the headline trends first.
func trendOrder(name string) int {
	switch name {
	case metrics.ResponseTime:
		return 0
	case metrics.Latency:
		return 1
	case metrics.ServiceTime:
		return 2
	case metrics.IterationDuration:
		return 3
	}
	return 4
}

// distribution samples t's percentile curve with HDR's log-spaced ticks
// (5 per halving of the remaining tail), ending at the maximum.
func distribution(t *metrics.Trend) *Distribution {
	h := t.Hist
	n := h.TotalCount()
	if n == 0 {
		return nil
	}
	d := &Distribution{Count: n}
	top := 100 * (1 - 1/float64(n))
	for _, b := range h.CumulativeDistributionWithTicks(5) {
		q := b.Quantile
		if q >= top {
			break
		}
		v := usToMs(float64(b.ValueAt))
		if k := len(d.V); k >= 2 && d.V[k-1] == v && d.V[k-2] == v {
			d.P[k-1] = round(q, 6) // a flat stretch keeps only its two ends
			continue
		}
		d.P = append(d.P, round(q, 6))
		d.V = append(d.V, v)
	}
	d.P = append(d.P, round(top, 6))
	d.V = append(d.V, usToMs(float64(h.Max())))
	return d
}

func buildGenerator(sc *selfcheck.Report, snap *metrics.Snapshot, maxPoints int) *Generator {
	st := sc.Window(snap.Start, snap.End)
	if st.N == 0 {
		st = sc.Window(sc.Samples[0].Time.Add(-1), sc.Samples[len(sc.Samples)-1].Time)
	}
	g := &Generator{
		Cores: sc.Cores, Threshold: sc.Threshold, MaxCPU: round(st.MaxCPU, 3), AvgCPU: round(st.AvgCPU, 3),
		MaxRSSMiB: round(float64(st.MaxRSS)/(1<<20), 1), Saturated: st.Saturated(),
		MaxHost: round(st.MaxHost, 3), AvgHost: round(st.AvgHost, 3), HostSaturated: st.HostSaturated(),
	}
	if g.Threshold == 0 {
		g.Threshold = selfcheck.Threshold
	}
	start := snap.Start
	if start.IsZero() {
		start = sc.Samples[0].Time.Add(-1e9)
	}
	n := len(sc.Samples)
	g.Step = int(math.Ceil(float64(n) / float64(maxPoints)))
	if g.Step < 1 {
		g.Step = 1
	}
	for i := 0; i < n; i += g.Step {
		j := min(i+g.Step, n)
		var sum, mx, host float64
		var rss int64
		for _, s := range sc.Samples[i:j] {
			sum += s.CPU
			mx = max(mx, s.CPU)
			rss = max(rss, s.RSS)
			host += s.Host
		}
		g.Host = append(g.Host, round(host/float64(j-i), 3))
		g.T = append(g.T, round(sc.Samples[i].Time.Sub(start).Seconds(), 1))
		g.CPU = append(g.CPU, round(sum/float64(j-i), 3))
		g.CPUMax = append(g.CPUMax, round(mx, 3))
		g.RSS = append(g.RSS, round(float64(rss)/(1<<20), 1))
	}
	return g
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func hasRule(v verdict.Scenario, r verdict.Rule) bool {
	for _, x := range v.Reason {
		if x.Rule == r {
			return true
		}
	}
	return false
}

// hasPrefixIn reports whether a note of notes starts with w.
func hasPrefixIn(notes []string, w string) bool {
	for _, n := range notes {
		if strings.HasPrefix(n, w) {
			return true
		}
	}
	return false
}
