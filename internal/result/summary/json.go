// Package summary renders a run's snapshot as k6 renders its results: the
// --summary-export JSON (WriteJSON) and the end-of-test console summary
// (WriteConsole), plus what the seed users assembled by hand — an error
// breakdown by message and an overview table across scenarios.
package summary

import (
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/monitor"
	"github.com/stampede-bench/stampede/metric"
	"github.com/stampede-bench/stampede/threshold"
	"github.com/stampede-bench/stampede/verdict"
)

// rootGroupID is k6's id of the root group: the MD5 of its empty path.
const rootGroupID = "d41d8cd98f00b204e9800998ecf8427e"

// JSONOptions tune WriteJSON.
type JSONOptions struct {
	// Thresholds are evaluated results to attach to their metrics.
	Thresholds []threshold.Result
	// IsStdOutTTY is reported in the "state" block, as k6 does.
	IsStdOutTTY bool
	// TrendStats are the statistics of trends (k6's --summary-trend-stats,
	// see ParseTrendStats); nil: DefaultTrendStats.
	TrendStats []string
	// Tags are the run's tags (--tag and testid), written under
	// "stampede"."tags"; k6's own keys are unchanged.
	Tags map[string]string
	// Target holds the --monitor summaries by scenario, written as the
	// "stampede" block's "target" (absent without monitoring).
	Target map[string][]monitor.Stats
}

// WriteJSON writes snap in the shape of k6's --summary-export file:
//
//	{"root_group": {...}, "metrics": {...}, "state": {...}, "stampede": {...}}
//
// metrics holds each metric over the whole run under its name and, per
// scenario, under "NAME{scenario:SCENARIO}" as k6 names tagged submetrics.
// Trends carry min, avg, med, max, p(90), p(95), p(99) — in milliseconds
// for time trends, like k6; counters count and rate (per second of the run
// or of the scenario); rates passes, fails and value; gauges value, min and
// max. A metric with thresholds gets "thresholds": {"EXPR": failed}, where
// true means the threshold FAILED (k6's legacy export semantics). The
// "stampede" block adds what k6 has no place for: interruption, scenario
// spans, errors by message and notes. Output is indented like k6's (4
// spaces) and deterministic.
func WriteJSON(w io.Writer, snap *metrics.Snapshot, opts JSONOptions) error {
	doc := jsonDoc{
		RootGroup: jsonGroup{ID: rootGroupID, Groups: map[string]any{}, Checks: map[string]any{}},
		Metrics:   map[string]jsonMetric{},
		State: jsonState{
			IsStdOutTTY: opts.IsStdOutTTY,
			DurationMs:  ms(snap.End.Sub(snap.Start)),
		},
		Stampede: jsonStampede{
			Interrupted: snap.Interrupted,
			Stopped:     snap.Stopped,
			Start:       snap.Start.UTC(),
			End:         snap.End.UTC(),
			Scenarios:   map[string]jsonScenario{},
			Errors:      map[string]map[string]int64{},
			Notes:       map[string][]string{},
		},
	}
	doc.Stampede.Target = opts.Target
	run := verdict.Of(snap)
	doc.Stampede.Verdict = jsonVerdict{Status: run.Status, Scenarios: map[string]verdict.Scenario{}}
	for _, v := range run.Scenarios {
		doc.Stampede.Verdict.Scenarios[v.Name] = v
	}
	all := metric.Total(snap)
	doc.Stampede.Tags = opts.Tags
	addMetrics(doc.Metrics, "", all, opts.TrendStats)
	for metric, r := range all.Rates {
		if name, ok := metrics.CheckName(metric); ok {
			doc.RootGroup.Checks[name] = jsonCheck{Name: name, Path: "::" + name, ID: md5hex("::" + name), Passes: r.Passes, Fails: r.Fails}
		}
	}
	for _, sc := range snap.Scenarios {
		addMetrics(doc.Metrics, sc.Name, sc, opts.TrendStats)
		doc.Stampede.Scenarios[sc.Name] = jsonScenario{
			Executor: sc.Executor, Start: sc.Start.UTC(), End: sc.End.UTC(),
			DurationMs: ms(sc.Duration()), Interrupted: sc.Interrupted,
		}
		if len(sc.Errors) > 0 {
			doc.Stampede.Errors[sc.Name] = sc.Errors
		}
		if len(sc.Notes) > 0 {
			doc.Stampede.Notes[sc.Name] = sc.Notes
		}
	}
	for _, r := range opts.Thresholds {
		m := doc.Metrics[r.Metric]
		if m == nil {
			m = &jsonValues{} // a threshold on a metric without samples
			doc.Metrics[r.Metric] = m
		}
		m.setThreshold(r.Expr, !r.Pass)
		if !r.Pass {
			doc.Stampede.ThresholdsFailed++
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "    ")
	enc.SetEscapeHTML(false) // "p(95)<200", as k6 writes it
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("summary json: %w", err)
	}
	return nil
}

type jsonDoc struct {
	RootGroup jsonGroup             `json:"root_group"`
	Metrics   map[string]jsonMetric `json:"metrics"`
	State     jsonState             `json:"state"`
	Stampede  jsonStampede          `json:"stampede"`
}

type jsonGroup struct {
	Name   string         `json:"name"`
	Path   string         `json:"path"`
	ID     string         `json:"id"`
	Groups map[string]any `json:"groups"`
	Checks map[string]any `json:"checks"`
}

// jsonCheck is one named check of root_group, as k6 writes it (id is the
// MD5 of the path).
type jsonCheck struct {
	Name   string `json:"name"`
	Path   string `json:"path"`
	ID     string `json:"id"`
	Passes int64  `json:"passes"`
	Fails  int64  `json:"fails"`
}

func md5hex(s string) string {
	sum := md5.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}

type jsonState struct {
	IsStdOutTTY bool    `json:"isStdOutTTY"`
	DurationMs  float64 `json:"testRunDurationMs"`
}

type jsonStampede struct {
	Interrupted      bool                        `json:"interrupted"`
	Stopped          string                      `json:"stopped,omitempty"` // why stampede stopped the run early
	Start            time.Time                   `json:"start"`
	End              time.Time                   `json:"end"`
	Scenarios        map[string]jsonScenario     `json:"scenarios"`
	Errors           map[string]map[string]int64 `json:"errors"` // scenario → message → count
	Notes            map[string][]string         `json:"notes"`  // scenario → notes
	ThresholdsFailed int                         `json:"thresholdsFailed"`
	Tags             map[string]string           `json:"tags,omitempty"`
	// Target is scenario → one summary per --monitor source.
	Target map[string][]monitor.Stats `json:"target,omitempty"`
	// Verdict is the run's verdict (package verdict): its status and, by
	// scenario, the status with the reasons.
	Verdict jsonVerdict `json:"verdict"`
}

// jsonVerdict is stampede.verdict: {"status": "degraded", "scenarios":
// {"kafka.Produce": {"status": "degraded", "reasons": [{"rule":
// "rate_missed", "status": "degraded", "text": "rate missed: ..."}]}}}.
type jsonVerdict struct {
	Status    verdict.Status              `json:"status"`
	Scenarios map[string]verdict.Scenario `json:"scenarios"`
}

type jsonScenario struct {
	Executor    string    `json:"executor,omitempty"`
	Start       time.Time `json:"start"`
	End         time.Time `json:"end"`
	DurationMs  float64   `json:"durationMs"`
	Interrupted bool      `json:"interrupted"`
}

// jsonMetric is one metric's values with its thresholds.
type jsonMetric interface {
	setThreshold(expr string, failed bool)
}

type thresholds struct {
	Thresholds map[string]bool `json:"thresholds,omitempty"`
}

func (t *thresholds) setThreshold(expr string, failed bool) {
	if t.Thresholds == nil {
		t.Thresholds = map[string]bool{}
	}
	t.Thresholds[expr] = failed
}

// jsonTrend keeps k6's order of trend statistics.
type jsonTrend struct {
	Min float64 `json:"min"`
	Avg float64 `json:"avg"`
	Med float64 `json:"med"`
	Max float64 `json:"max"`
	P90 float64 `json:"p(90)"`
	P95 float64 `json:"p(95)"`
	P99 float64 `json:"p(99)"`
	thresholds
}

type jsonCounter struct {
	Count float64 `json:"count"`
	Rate  float64 `json:"rate"`
	thresholds
}

type jsonRate struct {
	Passes int64   `json:"passes"`
	Fails  int64   `json:"fails"`
	Value  float64 `json:"value"`
	thresholds
}

type jsonGauge struct {
	Value float64 `json:"value"`
	Min   float64 `json:"min"`
	Max   float64 `json:"max"`
	thresholds
}

// jsonValues is a metric known only from a threshold.
type jsonValues struct{ thresholds }

// addMetrics adds every metric of sc under its name, or its
// NAME{scenario:SCENARIO} submetric when scenario is not empty.
func addMetrics(dst map[string]jsonMetric, scenario string, sc *metrics.ScenarioSnapshot, trendStats []string) {
	key := func(name string) string {
		if scenario == "" {
			return name
		}
		return metric.WithTag(name, "scenario", scenario)
	}
	for name, t := range sc.Trends {
		if trendStats != nil {
			dst[key(name)] = newStatsTrend(t, trendStats)
			continue
		}
		s := t.Stats()
		k := 1.0
		if t.Unit == metrics.UnitMicros {
			k = 1000
		}
		dst[key(name)] = &jsonTrend{
			Min: s.Min / k, Avg: s.Avg / k, Med: s.Med / k, Max: s.Max / k,
			P90: s.P90 / k, P95: s.P95 / k, P99: s.P99 / k,
		}
	}
	for name, n := range sc.Counters {
		v := float64(n)
		if sc.Units[name] == metrics.UnitMicros {
			v /= 1000
		}
		dst[key(name)] = &jsonCounter{Count: v, Rate: threshold.PerSecond(v, sc)}
	}
	for name, r := range sc.Rates {
		if _, named := metrics.CheckName(name); named {
			continue // in root_group.checks
		}
		dst[key(name)] = &jsonRate{Passes: r.Passes, Fails: r.Fails, Value: r.Value()}
	}
	for name, g := range sc.Gauges {
		dst[key(name)] = &jsonGauge{Value: g.Value, Min: g.Min, Max: g.Max}
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
