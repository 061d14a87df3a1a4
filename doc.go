// Package stampede is the Go API of stampede, a load and benchmark harness:
// write a scenario in Go, run it through the complete stampede command line
// (executors, thresholds, result directories, compare, merge, sweep), or
// drive a run from Go with a Plan and Execute.
//
// # Scenarios
//
// A Scenario makes virtual users (VUs); each VU runs one iteration after
// another on its own goroutine and records what it measures through the
// Iteration handle:
//
//	type pingVU struct{ conn net.Conn }
//
//	func (v *pingVU) Iterate(ctx context.Context, it stampede.Iteration) error {
//		start := it.Now()
//		_, err := v.conn.Write([]byte("ping\n"))
//		it.RecordRequest("ping", start, stampede.Outcome{Err: err})
//		return nil
//	}
//
// RecordRequest records one request: its response time from start to now
// (in the open model from the iteration's intended start, so that a
// stalled target cannot hide), whether it failed and, in the per-request
// CSV, its label. RecordCheck records a pass/fail check. Returning an error
// from Iterate counts a failed iteration. Metrics of a family's own are
// handles registered in Family.Open (NewCounter, NewTrend, NewCheck) and
// recorded per iteration (Iteration.Add, Observe, Check); thresholds judge
// them like the built-in ones (Example_customMetric).
//
// # Families and the catalog
//
// Scenarios belong to a Family, which names them and opens them against a
// target. NewFamily makes a family of ready scenarios; implement Family
// (Name, Scenarios, Open; optionally FlagBinder for run flags) for one that
// prepares a target — Example_family is a whole one. A program builds its
// Catalog explicitly, with no init-time registration:
//
//	cat := families.Builtins().Add(stampede.NewFamily("ping", stampede.ScenarioDef{
//		Name: "ping.Loopback", Description: "ping a loopback server", Scenario: pingScenario{},
//	}))
//	os.Exit(cmdline.Main(ctx, cat, os.Args[1:], os.Stdout, os.Stderr))
//
// cmdline.Main (package github.com/stampede-bench/stampede/cmdline) is the
// whole stampede command line around the catalog: `run
// ping.Loopback -u 10 -d 30s --threshold 'responseTime: p(95)<5'`,
// `compare`, `merge`, `sweep`, `report` and the rest work as they do for
// the built-in scenarios. The built-in families are in package families
// (github.com/stampede-bench/stampede/families), one constructor each;
// this package imports none of them, nor the command line, so a program
// that runs its own scenarios with Execute links neither.
//
// # Outputs
//
// An Output receives every finished second of every scenario (Observe)
// and, as an OutputRequestLogger, every request record; the program adds
// its factory to the catalog (Catalog.AddOutput) and `--out NAME=ARG`
// names it next to stampede's own outputs (influxdb, prometheus-rw, json,
// csv). Every output of a run — the request CSV, series.jsonl, the report
// as much as InfluxDB — is one such registry entry, named by the plan's
// Outputs and started and stopped by one manager. See examples/tally.
//
// # Running from Go
//
// A Plan is a value describing one run: scenarios with their executors,
// the result directory, thresholds, outputs. Execute fills in the
// executors' defaults and DefaultOutputs, checks the plan as `stampede
// run` does (preflight) before it creates anything, runs it and writes the
// result directory; the Result holds the merged measurements and the
// threshold verdicts. See examples/echo.
package stampede
