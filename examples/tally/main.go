// Command tally is stampede with an output of its own: --out tally=FILE
// counts every request record (per VU, without a lock on the recording
// path) and every per-second point, and writes the counts to FILE when the
// run ends. Every stampede command works with it, e.g.
//
//	go run ./examples/tally run builtin.Noop -u 4 -d 5s --out tally=tally.txt
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"sort"
	"strings"
	"sync"

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

// catalog is stampede's own families, with the tally output.
func catalog() *stampede.Catalog {
	c := stampede.Builtins()
	if err := c.AddOutput(tallyOutput); err != nil {
		panic(err) // a name stampede has already
	}
	return c
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := stampede.Main(ctx, catalog(), os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
