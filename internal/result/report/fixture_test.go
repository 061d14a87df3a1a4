package report

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/output/outputtest"
	"github.com/stampede-bench/stampede/metric"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/envinfo"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/selfcheck"
)

// fixtureBase is run second 0 of every fixture run.
var fixtureBase = time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC)

// fixtureScenario describes a synthetic scenario, second by second.
type fixtureScenario struct {
	name, executor string
	start          int   // run second the scenario starts in
	seconds        int   // how long it runs
	perSec         int   // requests per second
	latency        int64 // typical response time, µs
	vus            int64
	errEvery       int      // one error every errEvery requests (0: none)
	msgs           []string // error messages, used in turn
	stall          [2]int   // seconds [from, to) with no completions
	checks         bool
}

// fixtureRun writes a result directory in the format `stampede run` writes.
type fixtureRun struct {
	scenarios []fixtureScenario
	seed      uint64
	sweep     map[string]string
	selfcheck []float64 // CPU per second of the run (nil: no selfcheck.json)
}

func writeFixture(t testing.TB, dir string, fr fixtureRun) *resultdir.Result {
	t.Helper()
	if err := resultdir.Prepare(dir); err != nil {
		t.Fatal(err)
	}
	r := outputtest.Rand(fr.seed)
	sw, err := resultdir.NewSeriesWriter(dir)
	if err != nil {
		t.Fatal(err)
	}
	snap := &metrics.Snapshot{Version: metrics.SnapshotVersion}
	opts := resultdir.Options{Args: []string{"run"}, Target: "sqlite://stampede-data/ldbc-sf0.1.db", Seed: 1, Sweep: fr.sweep}
	for _, fs := range fr.scenarios {
		opts.Args = append(opts.Args, fs.name)
		cfg := engine.Config{Executor: fs.executor, VUs: fs.vus, Duration: time.Duration(fs.seconds) * time.Second}
		opts.Scenarios = append(opts.Scenarios, resultdir.ScenarioOptions{Name: fs.name, Config: cfg})
		rt := metric.NewHistogram()
		lat := metric.NewHistogram()
		ss := &metrics.ScenarioSnapshot{
			Name: fs.name, Executor: fs.executor,
			Start:  fixtureBase.Add(time.Duration(fs.start)*time.Second + 250*time.Millisecond),
			Trends: map[string]*metrics.Trend{}, Counters: map[string]int64{}, Rates: map[string]*metrics.Rate{},
			Gauges: map[string]*metrics.Gauge{}, Errors: map[string]int64{}, Units: map[string]metrics.Unit{},
		}
		ss.End = ss.Start.Add(time.Duration(fs.seconds) * time.Second)
		var checks metrics.Rate
		nreq := 0
		for s := 0; s <= fs.seconds; s++ {
			sec := int64(fs.start + s)
			h := metric.NewHistogram()
			p := &metrics.Point{Scenario: fs.name, Sec: sec, Time: fixtureBase.Add(time.Duration(sec) * time.Second), Counts: map[string]int64{}, VUs: fs.vus}
			n := fs.perSec
			switch s { // partial first and last seconds: the scenario starts 0.25 s into its first
			case 0:
				n = n * 3 / 4
			case fs.seconds:
				n /= 4
			}
			if s >= fs.stall[0] && s < fs.stall[1] {
				n = 0
			}
			for range n {
				v := fs.latency/2 + r.Between(0, fs.latency)
				if r.Next()%100 == 0 {
					v *= r.Between(3, 20) // a tail
				}
				if s == fs.stall[1] && fs.stall[1] > 0 {
					v += int64(fs.stall[1]-fs.stall[0]) * 1_000_000 // the stall shows in the next second
				}
				_ = h.RecordValue(v)
				_ = lat.RecordValue(v * 8 / 10)
				nreq++
				p.Counts[metrics.Requests]++
				p.Counts[metrics.Iterations]++
				if fs.errEvery > 0 && nreq%fs.errEvery == 0 {
					msg := fs.msgs[(nreq/fs.errEvery)%len(fs.msgs)]
					p.Counts[metrics.Errors]++
					if p.Errors == nil {
						p.Errors = map[string]int64{}
					}
					p.Errors[msg]++
					ss.Errors[msg]++
				}
				if fs.checks {
					if fs.errEvery > 0 && nreq%fs.errEvery == 0 {
						p.Counts[metrics.Checks+metrics.RateTotalSuffix]++
						checks.Fails++
					} else {
						p.Counts[metrics.Checks]++
						p.Counts[metrics.Checks+metrics.RateTotalSuffix]++
						checks.Passes++
					}
				}
			}
			for k, v := range p.Counts {
				if k != metrics.Checks && k != metrics.Checks+metrics.RateTotalSuffix {
					ss.Counters[k] += v
				}
			}
			p.Hist, p.RT = h, metric.StatsOf(h)
			rt.Merge(h)
			sw.Observe(p)
		}
		if rt.TotalCount() > 0 {
			ss.Trends[metrics.ResponseTime] = &metrics.Trend{Unit: metrics.UnitMicros, Hist: rt}
			ss.Trends[metrics.Latency] = &metrics.Trend{Unit: metrics.UnitMicros, Hist: lat}
		}
		if fs.checks {
			ss.Rates[metrics.Checks] = &checks
		}
		ss.Gauges[metrics.VUs] = &metrics.Gauge{Value: float64(fs.vus), Min: float64(fs.vus), Max: float64(fs.vus)}
		if snap.Start.IsZero() || ss.Start.Before(snap.Start) {
			snap.Start = ss.Start
		}
		if ss.End.After(snap.End) {
			snap.End = ss.End
		}
		snap.Scenarios = append(snap.Scenarios, ss)
	}
	if err := sw.Close(); err != nil {
		t.Fatal(err)
	}
	fp := envinfo.Fingerprint{Hostname: "bench-1", OS: "Debian GNU/Linux 12 (bookworm)", Kernel: "6.1.0", Arch: "amd64",
		CPUModel: "AMD EPYC", Sockets: 1, Cores: 2, Threads: 2, MemoryBytes: 24 << 30, GoVersion: "go1.26", GOMAXPROCS: 2,
		Stampede: "test", Target: opts.Target}
	for name, v := range map[string]any{resultdir.SnapshotFile: snap, resultdir.OptionsFile: opts, resultdir.EnvFile: fp} {
		if err := resultdir.WriteJSON(dir, name, v); err != nil {
			t.Fatal(err)
		}
	}
	if fr.selfcheck != nil {
		sc := selfcheck.Report{Cores: 2, Threshold: selfcheck.Threshold}
		for i, c := range fr.selfcheck {
			sc.Samples = append(sc.Samples, selfcheck.Sample{Time: fixtureBase.Add(time.Duration(i+1) * time.Second), CPU: c, RSS: int64(40+i) << 20, Host: min(c+0.05, 1)})
		}
		if err := resultdir.WriteJSON(dir, selfcheck.File, sc); err != nil {
			t.Fatal(err)
		}
	}
	res, err := resultdir.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// twoRuns writes a baseline and a candidate run of two scenarios: reads
// with a stall, and writes with errors and failed checks.
func twoRuns(t testing.TB, parent string) []*resultdir.Result {
	t.Helper()
	mk := func(name string, seed uint64, lat int64, cpu float64) *resultdir.Result {
		cpus := make([]float64, 60)
		for i := range cpus {
			cpus[i] = cpu + float64(i%5)*0.02
		}
		return writeFixture(t, filepath.Join(parent, name), fixtureRun{seed: seed, selfcheck: cpus, scenarios: []fixtureScenario{
			{name: "go.Go2Step", executor: "constant-vus", start: 0, seconds: 30, perSec: 120, latency: lat, vus: 50, stall: [2]int{12, 14}, checks: true},
			{name: "insert.InsertPersonScenario", executor: "constant-vus", start: 31, seconds: 24, perSec: 40, latency: 4 * lat, vus: 20,
				errEvery: 17, msgs: []string{"E_CONSENSUS_ERROR: raft leader changed", "timeout after 5s", `quote " and <tag> & amp`}, checks: true},
		}})
	}
	return []*resultdir.Result{mk("baseline", 1, 8000, 0.4), mk("candidate", 2, 6500, 0.88)}
}

// sweepRuns writes a node sweep of three steps.
func sweepRuns(t testing.TB, parent string) []*resultdir.Result {
	t.Helper()
	var out []*resultdir.Result
	for i, nodes := range []int{3, 1, 5} { // out of order on purpose
		out = append(out, writeFixture(t, filepath.Join(parent, fmt.Sprintf("step-%02d", i+1)), fixtureRun{
			seed:  uint64(10 + i),
			sweep: map[string]string{"dimension": "nodes", "value": fmt.Sprint(nodes), "nodes": fmt.Sprint(nodes)},
			scenarios: []fixtureScenario{
				{name: "kafka.Produce", executor: "constant-arrival-rate", seconds: 8, perSec: 200 * nodes * (10 - nodes) / 9, latency: int64(2000 + 300*nodes), vus: 16},
			},
		}))
	}
	return out
}
