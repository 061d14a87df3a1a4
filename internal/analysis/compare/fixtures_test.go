package compare

import (
	"fmt"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/output/outputtest"

	"github.com/stampede-bench/stampede/internal/envinfo"
	"github.com/stampede-bench/stampede/internal/metrics"
)

// base0 is the wall time of offset zero of every synthetic run.
var base0 = time.Date(2021, 8, 6, 3, 50, 0, 0, time.UTC)

// scen describes one scenario of a synthetic run.
type scen struct {
	name string
	// n requests with responseTime uniform in rt ± spread µs, plus a 2%
	// tail up to 5·rt.
	n          int
	rt, spread int64
	// latency: the target reports server latency (70% of responseTime).
	latency bool
	// dur is the scenario's wall time (default 10s), warmup its excluded
	// start; errors failed requests; interrupted as after Ctrl+C.
	dur, warmup time.Duration
	errors      int
	interrupted bool
}

// run builds one run through the real metrics pipeline (Registry →
// Aggregator → Recorders → Snapshot): scenarios one after another, each
// recorded by 4 VUs. seed makes runs of the same scenarios differ.
func run(t testing.TB, dir string, seed uint64, env envinfo.Fingerprint, scs ...scen) Run {
	t.Helper()
	reg := metrics.NewRegistry()
	clock := metrics.ClockAt(base0)
	names := make([]string, len(scs))
	for i, s := range scs {
		names[i] = s.name
	}
	agg := metrics.NewAggregator(reg, clock, names)
	go agg.Run()
	r := outputtest.Rand(seed)
	warm := map[string]time.Duration{}
	var start time.Duration
	for i, s := range scs {
		dur := s.dur
		if dur == 0 {
			dur = 10 * time.Second
		}
		warm[s.name] = s.warmup
		recs := make([]*metrics.Recorder, 4)
		for v := range recs {
			recs[v] = agg.Recorder(i, start+s.warmup)
		}
		agg.SetGauge(i, metrics.IDVUs, 4)
		for k := range s.n {
			at := start + time.Duration(k)*dur/time.Duration(s.n)
			rt := r.Between(s.rt-s.spread, s.rt+s.spread)
			if k%50 == 0 {
				rt = r.Between(s.rt, 5*s.rt)
			}
			lat := int64(-1)
			if s.latency {
				lat = rt * 7 / 10
			}
			msg := ""
			if k < s.errors {
				msg = "error: E_RPC_FAILURE(-3)"
			}
			rec := recs[k%len(recs)]
			rec.Op(at, rt, -1, lat, 1, msg)
			rec.Iteration(at, time.Duration(rt)*time.Microsecond)
		}
		for _, rec := range recs {
			rec.Flush()
		}
		agg.Mark(i, clock.Wall(start), clock.Wall(start+dur), s.interrupted, "constant-vus")
		start += dur
	}
	agg.Close()
	return Run{Dir: dir, Snapshot: agg.Snapshot(), Env: env, Warmup: warm}
}

// side builds n runs of scenarios made by mk(i) for run i (from 0).
func side(t testing.TB, name, path string, n int, seed uint64, env func(i int) envinfo.Fingerprint, mk func(i int) []scen) Side {
	t.Helper()
	s := Side{Name: name, Path: path}
	for i := range n {
		s.Runs = append(s.Runs, run(t, fmt.Sprintf("%s/run-%02d", path, i+1), seed+uint64(i)*7919, env(i), mk(i)...))
	}
	return s
}

// machine is the fingerprint of the seed's test machine.
func machine() envinfo.Fingerprint {
	return envinfo.Fingerprint{
		Hostname: "qa-60", OS: "CentOS Linux 8", Kernel: "4.18.0-408.el8.x86_64", Arch: "amd64",
		CPUModel: "Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz", Sockets: 2, Cores: 80, Threads: 160,
		Caches:      map[string]string{"L1d": "48K", "L1i": "32K", "L2": "1280K", "L3": "61440K"},
		MemoryBytes: 256 << 30, GoVersion: "go1.26.8", GOMAXPROCS: 160, Stampede: "v0.4.0",
		Target: "nebula://192.168.8.61:9669", TargetVersion: "3.8.0",
	}
}

// sameEnv gives every run the machine fingerprint, with kernel overriding
// the kernel when not empty.
func sameEnv(kernel string) func(int) envinfo.Fingerprint {
	return func(int) envinfo.Fingerprint {
		f := machine()
		if kernel != "" {
			f.Kernel = kernel
		}
		return f
	}
}

// seedLike returns the base and candidate of the main golden tables, 5
// runs each:
//
//   - go.Go1Step, with server latency, 2s warm-up: the candidate is ~8%
//     faster and serves more requests (significant everywhere);
//   - insert.InsertPersonScenario: no real difference (~), errors in the
//     candidate's run 2, its run 4 interrupted;
//   - fetch.FetchTag only in the base; find_path.FindShortestPath only in
//     the candidate (notes, not compared);
//   - go.Go2Step in all base runs but not in the candidate's run 5 (5+4
//     runs, an empty cell).
func seedLike(t testing.TB) (Side, Side) {
	t.Helper()
	b := side(t, "default", "results/default", 5, 1, sameEnv(""), func(i int) []scen {
		return []scen{
			{name: "go.Go1Step", n: 4000 + 10*i, rt: 430, spread: 120, latency: true, warmup: 2 * time.Second},
			{name: "insert.InsertPersonScenario", n: 1500, rt: 2000, spread: 600},
			{name: "fetch.FetchTag", n: 500, rt: 300, spread: 50},
			{name: "go.Go2Step", n: 800, rt: 2970, spread: 700, latency: true},
		}
	})
	c := side(t, "autofdo", "results/autofdo", 5, 2, sameEnv("4.18.0-425.el8.x86_64"), func(i int) []scen {
		ins := scen{name: "insert.InsertPersonScenario", n: 1500, rt: 2000, spread: 600}
		if i == 1 {
			ins.errors = 12
		}
		if i == 3 {
			ins.interrupted = true
		}
		scs := []scen{
			{name: "go.Go1Step", n: 4300 + 10*i, rt: 396, spread: 110, latency: true, warmup: 2 * time.Second},
			ins,
			{name: "find_path.FindShortestPath", n: 200, rt: 8000, spread: 900},
		}
		if i < 4 {
			scs = append(scs, scen{name: "go.Go2Step", n: 800, rt: 2900, spread: 700, latency: true})
		}
		return scs
	})
	return b, c
}

// tooFew returns 3 runs against 3 on different machines, without server
// latency.
func tooFew(t testing.TB) (Side, Side) {
	t.Helper()
	mk := func(rt int64) func(int) []scen {
		return func(int) []scen { return []scen{{name: "http.Request", n: 3000, rt: rt, spread: 200}} }
	}
	b := side(t, "base", "a", 3, 3, sameEnv(""), mk(900))
	c := side(t, "candidate", "b", 3, 4, func(int) envinfo.Fingerprint {
		f := machine()
		f.CPUModel, f.Sockets, f.Cores, f.Threads = "AMD EPYC 7763 64-Core Processor", 1, 64, 128
		f.MemoryBytes = 128 << 30
		return f
	}, mk(700))
	return b, c
}
