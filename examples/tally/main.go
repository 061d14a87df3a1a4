// Command tally is an output of its own, written in Go: tally=FILE counts
// every request record (per VU, without a lock on the recording path) and
// every per-second point, and writes the counts to FILE when the run
// ends. The program runs a no-op scenario with it through stampede's Go
// API, e.g.
//
//	go run ./examples/tally -u 4 -d 5s -tally tally.txt -out tally-result
//
// It imports only the package stampede, so it links only what it uses.
// The output works with the whole command line too: a catalog with
// AddOutput(tallyOutput) given to cmdline.Main makes `--out tally=FILE`
// (the test does exactly that).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/stampede-bench/stampede"
)

// tally is the output: one per run.
type tally struct {
	file string

	mu      sync.Mutex       // guards byLabel and failed, merged as VUs end
	byLabel map[string]int64 // requests by label (RequestRecord.Query)
	failed  int64

	// Observe runs on one goroutine, and Stop after the last Observe.
	seconds, pointRequests int64
}

func (t *tally) Description() string { return "tally: counting requests into " + t.file }
func (t *tally) Start() error        { return nil }

// Observe counts one finished second of one scenario; p.RT.N is the
// number of requests that finished in it.
func (t *tally) Observe(p *stampede.Point) {
	t.seconds++
	t.pointRequests += p.RT.N
}

// Writer gives each VU its own counters: Write, on the VU's goroutine,
// takes no lock.
func (t *tally) Writer(string) stampede.RequestWriter {
	return &vuTally{t: t, byLabel: map[string]int64{}}
}

// Stop writes the counts; the file must not exist (results are never
// overwritten).
func (t *tally) Stop() error {
	labels := make([]string, 0, len(t.byLabel))
	for l := range t.byLabel {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	var b strings.Builder
	fmt.Fprintf(&b, "seconds %d\nrequests in seconds %d\nfailed %d\n", t.seconds, t.pointRequests, t.failed)
	for _, l := range labels {
		fmt.Fprintf(&b, "requests %q %d\n", l, t.byLabel[l])
	}
	f, err := os.OpenFile(t.file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.WriteString(b.String())
	return errors.Join(err, f.Close())
}

// vuTally counts the requests of one VU.
type vuTally struct {
	t       *tally
	byLabel map[string]int64
	failed  int64
}

func (v *vuTally) Write(r stampede.RequestRecord) {
	v.byLabel[r.Query]++
	if !r.OK {
		v.failed++
	}
}

// Close adds the VU's counts to the output's, once the VU has ended.
func (v *vuTally) Close() error {
	v.t.mu.Lock()
	defer v.t.mu.Unlock()
	for l, n := range v.byLabel {
		v.t.byLabel[l] += n
	}
	v.t.failed += v.failed
	return nil
}

// tallyOutput is how --out tally=FILE makes the output.
var tallyOutput = stampede.OutputFactory{
	Name:  "tally",
	Usage: "tally=FILE",
	Check: func(arg string) error { // before anything runs
		if arg == "" {
			return errors.New("needs a file name, e.g. tally=tally.txt")
		}
		if _, err := os.Stat(arg); err == nil {
			return fmt.Errorf("%s exists; choose another name", arg)
		}
		return nil
	},
	New: func(p stampede.OutputParams) (stampede.Output, error) {
		return &tally{file: p.Arg, byLabel: map[string]int64{}}, nil
	},
}

// noop is a scenario whose iterations record one request "noop" each.
type noop struct{}

func (noop) NewVU(context.Context, int) (stampede.VU, error) { return noopVU{}, nil }

type noopVU struct{}

func (noopVU) Iterate(_ context.Context, it stampede.Iteration) error {
	it.RecordRequest("noop", it.Now(), stampede.Outcome{})
	return nil
}

func (noopVU) Close() error { return nil }

// run runs demo.Noop with the tally output as args say; it returns the
// exit code: 0 ok, 1 run error, 2 bad usage.
func run(ctx context.Context, args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("tally", flag.ContinueOnError)
	fs.SetOutput(stderr)
	vus := fs.Int64("u", 2, "VUs")
	dur := fs.Duration("d", 2*time.Second, "duration")
	file := fs.String("tally", "tally.txt", "the file the counts go to (must not exist)")
	out := fs.String("out", "tally-result", "result directory (must not hold a run yet)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	outs := stampede.Outputs()
	if err := outs.Add(tallyOutput); err != nil {
		panic(err) // a name stampede has already
	}
	plan := stampede.Plan{
		Scenarios: []stampede.PlanScenario{{Name: "demo.Noop", Family: stampede.NewFamily("demo", stampede.ScenarioDef{Name: "demo.Noop", Scenario: noop{}}),
			Config: stampede.Config{Executor: stampede.ConstantVUs, VUs: *vus, Duration: *dur}}},
		Out:     *out,
		Outputs: append(stampede.DefaultOutputs(), stampede.OutputSpec{Kind: "tally", Arg: *file}),
	}
	deps := stampede.DefaultDeps(nil, os.Getenv)
	deps.Outputs = outs
	if _, err := stampede.Execute(ctx, plan, deps); err != nil {
		fmt.Fprintln(stderr, "tally:", err)
		if stampede.IsUsage(err) {
			return 2
		}
		return 1
	}
	return 0
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stderr)
	stop()
	os.Exit(code)
}
