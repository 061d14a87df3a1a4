// Package sweep analyses a load sweep: the result directories of one
// workload run at increasing load (VUs or arrival rate) or on growing
// clusters (nodes). It answers "where does it saturate, and does it
// scale?": throughput and latency per step, the knee where throughput stops
// growing while latency climbs, whether the client or the target saturated
// first, and for node sweeps throughput per node and scaling efficiency.
//
// Everything here is computed from result directories (and the generator
// self-check, when present), so a sweep can be re-analysed without
// re-running it.
package sweep

import (
	"strconv"

	"github.com/stampede-bench/stampede/executor"
	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/selfcheck"
)

// Dimensions a sweep can vary, as recorded in options.json's sweep map.
const (
	DimVUs    = "vus"
	DimRate   = "rate"
	DimNodes  = "nodes"
	DimTarget = "target"
)

// Keys of options.json's sweep map.
const (
	KeyDimension = "dimension"
	KeyValue     = "value"
	KeyNodes     = "nodes"
	KeyStep      = "step"
)

// Point is one scenario at one step of a sweep. Times are milliseconds,
// rates per second; fields that could not be measured are 0 (GeneratorCPU
// is -1 when unknown).
type Point struct {
	Step      int    `json:"step"`
	Dir       string `json:"dir"`
	Dimension string `json:"dimension"`
	// Value is the step's load as given (50, 1000, https://...).
	Value string `json:"value"`
	// Load is Value as a number: VUs, iterations per TimeUnit, nodes (the
	// step number for target sweeps).
	Load float64 `json:"load"`
	// Nodes is the cluster size of node sweeps (0 otherwise).
	Nodes    int    `json:"nodes,omitempty"`
	Scenario string `json:"scenario"`
	Executor string `json:"executor"`
	// InProcess is set when the target ran inside stampede's own process
	// (embedded SQLite or Kafka): generator and target share its CPU.
	InProcess bool `json:"inProcess,omitempty"`
	// StandIn is set when the target was a test stand-in that does not
	// model a real cluster (kfake): its node count means nothing.
	StandIn bool `json:"standIn,omitempty"`

	Iterations int64 `json:"iterations"`
	// Seconds is the measured span (scenario duration minus warm-up).
	Seconds float64 `json:"seconds"`
	// Throughput is iterations per second.
	Throughput float64 `json:"throughput"`
	// P50, P99 and Mean of responseTime, ms.
	P50  float64 `json:"p50"`
	P99  float64 `json:"p99"`
	Mean float64 `json:"mean"`
	// IterMean is the mean iteration_duration (responseTime when absent), ms.
	IterMean float64 `json:"iterMean"`
	// ErrorRate is failed requests (iterations when no request was
	// counted) as a fraction.
	ErrorRate float64 `json:"errorRate"`
	Dropped   int64   `json:"dropped"`
	// Concurrency is Little's law L = throughput × mean iteration time:
	// the VUs that were busy in iterations on average.
	Concurrency float64 `json:"concurrency"`
	// VUs is the configured concurrency of closed executors (max of a
	// ramp); for arrival-rate executors the most VUs allocated.
	VUs float64 `json:"vus"`
	// Closed reports a closed-model executor (VUs loop), where Little's
	// law must give Concurrency ≈ VUs.
	Closed bool `json:"closed"`
	// GeneratorCPU is the mean fraction of the generator's cores busy
	// during the scenario, GeneratorMax the highest second; -1: unknown.
	GeneratorCPU float64 `json:"generatorCPU"`
	GeneratorMax float64 `json:"generatorMax"`
	// GeneratorSaturated is selfcheck's verdict for the scenario: its CPU
	// busy, or its cgroup's CPU quota throttling it.
	GeneratorSaturated bool `json:"generatorSaturated,omitempty"`
	// GeneratorThrottled is the fraction of the scenario's seconds in
	// which the generator's cgroup throttled it (selfcheck.Stats.Throttled
	// of N); 0 without a quota.
	GeneratorThrottled float64 `json:"generatorThrottled,omitempty"`
	// MsgRate is acknowledged messages per second for messaging scenarios
	// (0 otherwise); ServerCPU the mean fraction of this machine's cores
	// used by embedded server processes when ServersMeasured. See
	// servers.go.
	MsgRate         float64 `json:"msgRate,omitempty"`
	ServerCPU       float64 `json:"serverCPU,omitempty"`
	ServersMeasured bool    `json:"serversMeasured,omitempty"`
	// LeaderNodes is how many nodes led the load's streams or partitions
	// and Partitions how many the load wrote (messaging families; 0:
	// unknown). See layout.go.
	LeaderNodes int `json:"leaderNodes,omitempty"`
	Partitions  int `json:"partitions,omitempty"`
	// HostSaturated is selfcheck's verdict on the generator's whole
	// machine (busy with other processes) for the scenario.
	HostSaturated bool `json:"hostSaturated,omitempty"`
	// Target is what --monitor measured on the target (nil: not
	// monitored); see AddTarget.
	Target *Target `json:"target,omitempty"`
}

// FromResult returns one Point per scenario of a loaded step. check is the
// step's generator self-check (nil when it has none).
func FromResult(r *resultdir.Result, check *selfcheck.Report) []Point {
	sw := r.Options.Sweep
	step, _ := strconv.Atoi(sw[KeyStep])
	nodes, _ := strconv.Atoi(sw[KeyNodes])
	dim, value := sw[KeyDimension], sw[KeyValue]
	load, err := strconv.ParseFloat(value, 64)
	if err != nil {
		load = float64(step)
	}
	if dim == DimNodes {
		load = float64(nodes)
	}
	var out []Point
	for _, sc := range r.Snapshot.Scenarios {
		cfg, _ := scenarioConfig(r.Options, sc.Name)
		p := Point{Step: step, Dir: r.Dir, Dimension: dim, Value: value, Load: load, Nodes: nodes,
			Scenario: sc.Name, Executor: sc.Executor, GeneratorCPU: -1, GeneratorMax: -1,
			InProcess: r.Options.InProcess, StandIn: r.Options.StandIn}
		measure(&p, sc, cfg)
		measureMessaging(&p, sc)
		measureLayout(&p, sc)
		if check != nil {
			st := check.Window(sc.Start, sc.End)
			if st.N > 0 {
				p.GeneratorCPU, p.GeneratorMax, p.GeneratorSaturated = st.AvgCPU, st.MaxCPU, st.Saturated()
				p.HostSaturated = st.HostSaturated()
				p.GeneratorThrottled = float64(st.Throttled) / float64(st.N)
			}
		}
		out = append(out, p)
	}
	return out
}

// measure fills the statistics of p from one scenario snapshot.
func measure(p *Point, sc *metrics.ScenarioSnapshot, cfg engine.Config) {
	d := sc.Duration() - cfg.Warmup
	if d <= 0 {
		d = sc.Duration()
	}
	p.Seconds = d.Seconds()
	p.Iterations = sc.Counters[metrics.Iterations]
	if p.Seconds > 0 {
		p.Throughput = float64(p.Iterations) / p.Seconds
	}
	if t := sc.Trends[metrics.ResponseTime]; t != nil && t.Hist.TotalCount() > 0 {
		st := t.Stats()
		p.P50, p.P99, p.Mean = st.Med/1e3, st.P99/1e3, st.Avg/1e3
		p.IterMean = p.Mean
	}
	if t := sc.Trends[metrics.IterationDuration]; t != nil && t.Hist.TotalCount() > 0 {
		p.IterMean = t.Hist.Mean() / 1e3
	}
	p.Concurrency = p.Throughput * p.IterMean / 1e3
	den := sc.Counters[metrics.Requests]
	if den == 0 {
		den = p.Iterations
	}
	if den > 0 {
		p.ErrorRate = float64(sc.Counters[metrics.Errors]) / float64(den)
	}
	p.Dropped = sc.Counters[metrics.DroppedIterations]
	if e, err := executor.Of(cfg); err == nil && e.Closed() {
		p.Closed = true
		p.VUs = float64(e.MaxVUsNeeded())
	} else if g := sc.Gauges[metrics.VUsMax]; g != nil {
		p.VUs = g.Max
	}
	if p.VUs == 0 {
		if g := sc.Gauges[metrics.VUs]; g != nil {
			p.VUs = g.Max
		}
	}
}

func scenarioConfig(o resultdir.Options, name string) (engine.Config, bool) {
	for _, s := range o.Scenarios {
		if s.Name == name {
			return s.Config, true
		}
	}
	return engine.Config{}, false
}
