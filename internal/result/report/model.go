package report

import (
	"math"
	"strconv"
	"time"

	"github.com/stampede-bench/stampede/internal/envinfo"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/verdict"
)

// PayloadVersion is the version of the report's JSON payload.
const PayloadVersion = 1

// Payload is everything the report page draws, embedded in the HTML as
// JSON. Times in the series are seconds since the scenario started;
// latencies are milliseconds; rates are per second.
type Payload struct {
	Version int `json:"version"`
	// Live marks the payload of the web dashboard while the run goes
	// (see Live): the page then follows its updates.
	Live bool `json:"live,omitempty"`
	// Ended tells a live page that the run is over.
	Ended     bool   `json:"ended,omitempty"`
	Title     string `json:"title"`
	Generator string `json:"generator,omitempty"`
	Runs      []*Run `json:"runs"`
	// Scenarios is the union of the runs' scenario names in first-seen order.
	Scenarios []string `json:"scenarios"`
	// Sweep is set when the runs are the steps of one sweep.
	Sweep *Sweep `json:"sweep,omitempty"`
}

// Run is one result directory.
type Run struct {
	Label       string              `json:"label"`
	Dir         string              `json:"dir"`
	Start       time.Time           `json:"start"`
	End         time.Time           `json:"end"`
	Interrupted bool                `json:"interrupted,omitempty"`
	Command     string              `json:"command,omitempty"`
	Options     resultdir.Options   `json:"options"`
	Env         envinfo.Fingerprint `json:"env"`
	Generator   *Generator          `json:"generatorSelfCheck,omitempty"`
	Warnings    []string            `json:"warnings,omitempty"`
	// Notes concern every scenario of the run (metrics.RunNotes): shown
	// once, not under each scenario.
	Notes     []string    `json:"notes,omitempty"`
	Scenarios []*Scenario `json:"scenarios"`
}

// Scenario is one scenario of one run.
type Scenario struct {
	Name        string    `json:"name"`
	Executor    string    `json:"executor,omitempty"`
	Start       time.Time `json:"start"`
	Duration    float64   `json:"duration"` // seconds
	Interrupted bool      `json:"interrupted,omitempty"`
	Summary     Summary   `json:"summary"`
	// Verdict is the scenario's verdict (package verdict) with its reasons.
	Verdict  verdict.Scenario `json:"verdict"`
	Trends   []TrendRow       `json:"trends"`
	Counters []Count          `json:"counters,omitempty"`
	Rates    []RateRow        `json:"rates,omitempty"`
	Errors   []Count          `json:"errors,omitempty"`
	Notes    []string         `json:"notes,omitempty"`
	Warnings []string         `json:"warnings,omitempty"`
	Series   *Series          `json:"series,omitempty"`
	// Distribution is responseTime's percentile curve.
	Distribution *Distribution `json:"distribution,omitempty"`
	// Target holds the --monitor sources during the scenario.
	Target []*TargetSource `json:"target,omitempty"`
}

// Summary are the headline numbers of a scenario.
type Summary struct {
	Iterations int64   `json:"iterations"`
	Requests   int64   `json:"requests"`
	Errors     int64   `json:"errors"`
	Dropped    int64   `json:"dropped"`
	Throughput float64 `json:"throughput"` // requests (or iterations when none) per second
	ErrorRate  float64 `json:"errorRate"`  // errors per request (0–1)
	// Response time (ms).
	P50 float64 `json:"p50"`
	P90 float64 `json:"p90"`
	P95 float64 `json:"p95"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
	Avg float64 `json:"avg"`
	// Checks is the pass rate of checks (0–1), or -1 without checks.
	Checks float64 `json:"checks"`
}

// TrendRow is a trend's statistics; time trends in ms.
type TrendRow struct {
	Name  string  `json:"name"`
	Unit  string  `json:"unit"` // "ms" or ""
	Count int64   `json:"count"`
	Min   float64 `json:"min"`
	Avg   float64 `json:"avg"`
	Med   float64 `json:"med"`
	P90   float64 `json:"p90"`
	P95   float64 `json:"p95"`
	P99   float64 `json:"p99"`
	P999  float64 `json:"p999"`
	Max   float64 `json:"max"`
}

// Count is a named number (a counter or an error message).
type Count struct {
	Name string `json:"name"`
	N    int64  `json:"n"`
}

// RateRow is a pass/fail rate such as checks.
type RateRow struct {
	Name   string  `json:"name"`
	Passes int64   `json:"passes"`
	Fails  int64   `json:"fails"`
	Value  float64 `json:"value"`
}

// Series are a scenario's per-second measurements, downsampled to buckets
// of Step seconds: point i covers seconds [i·Step, (i+1)·Step) after the
// scenario's first second. Means keep the totals right, Max and Min keep
// the peaks and the stalls; latency percentiles are computed from the
// bucket's merged histograms. null marks a bucket with no response.
type Series struct {
	Step int    `json:"step"`
	Req  Floats `json:"req"`    // requests/s, mean over the bucket
	ReqH Floats `json:"reqMax"` // busiest second
	ReqL Floats `json:"reqMin"` // quietest second (0 for a stall)
	Iter Floats `json:"iter"`   // iterations/s, mean
	Err  Floats `json:"err"`    // errors/s, mean
	VUs  Floats `json:"vus"`    // most VUs in the bucket
	P50  Floats `json:"p50"`    // ms
	P95  Floats `json:"p95"`
	P99  Floats `json:"p99"`
	Max  Floats `json:"max"`
	// ErrMsgs are the errors/s of the most frequent messages.
	ErrMsgs []MsgSeries `json:"errMsgs,omitempty"`
	// Sent and Recv are data_sent and data_received in bytes/s, mean over
	// the bucket (HTTP runs; absent when nothing was counted).
	Sent Floats `json:"sent,omitempty"`
	Recv Floats `json:"recv,omitempty"`
	// Phases are the HTTP phases (metrics.HTTPPhases) that have samples:
	// their mean per bucket, ms.
	Phases []PhaseSeries `json:"phases,omitempty"`
}

// PhaseSeries is the mean of one HTTP phase per bucket, ms (null: no
// request in the bucket).
type PhaseSeries struct {
	Name string `json:"name"`
	Mean Floats `json:"mean"`
}

// MsgSeries is the error rate of one message.
type MsgSeries struct {
	Msg string `json:"msg"`
	N   Floats `json:"n"`
}

// Distribution is a latency percentile curve: at percentile P[i] (0–100)
// the value is V[i] ms. The last point is the maximum, placed at
// 100·(1-1/Count).
type Distribution struct {
	Count int64  `json:"count"`
	P     Floats `json:"p"`
	V     Floats `json:"v"`
}

// Generator is the generator self-check of a run: CPU as a fraction of
// the usable cores, memory in MiB, over seconds since the run started.
type Generator struct {
	Cores     int     `json:"cores"`
	Threshold float64 `json:"threshold"`
	MaxCPU    float64 `json:"maxCpu"`
	AvgCPU    float64 `json:"avgCpu"`
	MaxRSSMiB float64 `json:"maxRssMiB"`
	Saturated bool    `json:"saturated"`
	// MaxHost and AvgHost are the whole machine's CPU busy fraction;
	// HostSaturated flags a machine busy with other work.
	MaxHost       float64 `json:"maxHost"`
	AvgHost       float64 `json:"avgHost"`
	HostSaturated bool    `json:"hostSaturated"`
	Step          int     `json:"step"`
	T             Floats  `json:"t"`
	CPU           Floats  `json:"cpu"`    // mean over the bucket
	CPUMax        Floats  `json:"cpuMax"` // busiest second
	RSS           Floats  `json:"rssMiB"`
	Host          Floats  `json:"host"` // machine busy fraction, mean over the bucket
}

// Sweep holds the scaling curves of a sweep, one line per scenario.
type Sweep struct {
	// Dimension is vus, rate, nodes or target.
	Dimension string           `json:"dimension"`
	Scenarios []*SweepScenario `json:"scenarios"`
}

// SweepScenario is one scenario across the steps, in step order.
type SweepScenario struct {
	Name   string       `json:"name"`
	Points []SweepPoint `json:"points"`
	// KneeAt indexes the first point past the knee (-1: none), Knee
	// describes it.
	KneeAt int    `json:"kneeAt"`
	Knee   string `json:"knee,omitempty"`
}

// SweepPoint is one step.
type SweepPoint struct {
	Run   int     `json:"run"`   // index in Payload.Runs
	Value string  `json:"value"` // the step's value as given
	X     float64 `json:"x"`     // numeric value (the index for non-numeric values)
	// Throughput is requests (or iterations) per second.
	Throughput float64 `json:"throughput"`
	P50        float64 `json:"p50"` // ms
	P95        float64 `json:"p95"`
	P99        float64 `json:"p99"`
	ErrorRate  float64 `json:"errorRate"`
	// Node sweeps: nodes, throughput per node and scaling efficiency
	// relative to the smallest cluster (1 = linear).
	Nodes      float64 `json:"nodes,omitempty"`
	PerNode    float64 `json:"perNode,omitempty"`
	Efficiency float64 `json:"efficiency,omitempty"`
}

// Floats is a number array whose NaNs encode as null, compactly.
type Floats []float64

// MarshalJSON implements json.Marshaler.
func (f Floats) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 2+len(f)*6)
	b = append(b, '[')
	for i, v := range f {
		if i > 0 {
			b = append(b, ',')
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			b = append(b, "null"...)
			continue
		}
		b = strconv.AppendFloat(b, v, 'f', -1, 64)
	}
	return append(b, ']'), nil
}

// round returns x rounded to d decimals.
func round(x float64, d int) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	p := math.Pow10(d)
	return math.Round(x*p) / p
}

// usToMs converts µs to ms rounded to the µs.
func usToMs(us float64) float64 { return round(us/1e3, 3) }
