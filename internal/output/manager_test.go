package output_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/monitor"
	"github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/internal/usage"
)

// fakeOutput records the calls it gets, in a log shared by all fakes.
type fakeOutput struct {
	name     string
	log      *callLog
	startErr error
	stopErr  error

	mu      sync.Mutex
	started bool
	stopped bool
	seconds map[string]int // "scenario/sec" -> times observed
	bad     []string       // protocol violations
}

type callLog struct {
	mu    sync.Mutex
	calls []string
}

func (l *callLog) add(s string) {
	l.mu.Lock()
	l.calls = append(l.calls, s)
	l.mu.Unlock()
}

func (l *callLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.calls, " ")
}

func newFake(name string, log *callLog) *fakeOutput {
	return &fakeOutput{name: name, log: log, seconds: map[string]int{}}
}

func (f *fakeOutput) Description() string { return "fake " + f.name }

func (f *fakeOutput) Start() error {
	f.log.add("start:" + f.name)
	if f.startErr != nil {
		return f.startErr
	}
	f.mu.Lock()
	f.started = true
	f.mu.Unlock()
	return nil
}

func (f *fakeOutput) Observe(p *metrics.Point) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.started || f.stopped {
		f.bad = append(f.bad, fmt.Sprintf("observe %s/%d outside start..stop", p.Scenario, p.Sec))
	}
	f.seconds[fmt.Sprintf("%s/%d", p.Scenario, p.Sec)]++
}

func (f *fakeOutput) Stop() error {
	f.log.add("stop:" + f.name)
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.started || f.stopped {
		f.bad = append(f.bad, "stop without start, or twice")
	}
	f.stopped = true
	return f.stopErr
}

// annotatingFake also uses the optional abilities.
type annotatingFake struct {
	*fakeOutput
	watched int
}

func (a *annotatingFake) Annotate(snap *metrics.Snapshot) {
	a.log.add("annotate:" + a.name)
	output.NoteAll(snap, "note from "+a.name)
}

func (a *annotatingFake) WriteDir(dir string) error {
	a.log.add("writedir:" + a.name)
	return nil
}

func (a *annotatingFake) WatchTarget(output.TargetFeed) { a.watched++ }

type feed struct{}

func (feed) Latest() []monitor.Sample       { return nil }
func (feed) Subscribe(func(monitor.Sample)) {}

// TestManagerOrdering: outputs start in order, stop once in reverse order
// after the run, and the optional abilities run after Stop.
func TestManagerOrdering(t *testing.T) {
	log := &callLog{}
	a, b := newFake("a", log), &annotatingFake{fakeOutput: newFake("b", log)}
	var s output.Manager
	var info bytes.Buffer
	for _, o := range []output.Output{a, b} {
		if err := s.Start("", o, &info); err != nil {
			t.Fatal(err)
		}
	}
	if info.String() != "fake a\nfake b\n" {
		t.Errorf("descriptions %q", info.String())
	}
	s.WatchTarget(feed{})
	s.WatchTarget(nil)
	if b.watched != 1 {
		t.Errorf("WatchTarget reached b %d times", b.watched)
	}
	snap := &metrics.Snapshot{Scenarios: []*metrics.ScenarioSnapshot{{Name: "x"}}}
	s.Annotate(snap)
	s.Annotate(snap)
	if err := s.WriteDir(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	want := "start:a start:b stop:b stop:a annotate:b annotate:b writedir:b"
	if got := log.String(); got != want {
		t.Errorf("calls\n got %s\nwant %s", got, want)
	}
	if n := snap.Scenarios[0].Notes; len(n) != 1 || n[0] != "note from b" {
		t.Errorf("notes %q (a note must be added once)", n)
	}
	for _, f := range []*fakeOutput{a, b.fakeOutput} {
		if len(f.bad) > 0 {
			t.Errorf("%s: %v", f.name, f.bad)
		}
	}
}

// TestManagerErrors: a failing Start leaves the output out of the set; Stop
// errors are labelled and joined, and returned again by later calls.
func TestManagerErrors(t *testing.T) {
	log := &callLog{}
	a, b, c := newFake("a", log), newFake("b", log), newFake("c", log)
	b.startErr = errors.New("port busy")
	a.stopErr = errors.New("disk full")
	var s output.Manager
	if err := s.Start("first", a, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Start("second", b, nil); err == nil || err.Error() != "port busy" {
		t.Fatalf("Start b: %v", err)
	}
	if err := s.Start("", c, nil); err != nil {
		t.Fatal(err)
	}
	if got := len(s.Outputs()); got != 2 {
		t.Errorf("%d outputs in the set, want 2", got)
	}
	err := s.Stop()
	if err == nil || err.Error() != "first: disk full" {
		t.Fatalf("Stop: %v", err)
	}
	if err2 := s.Stop(); err2 == nil || err2.Error() != err.Error() {
		t.Errorf("second Stop: %v", err2)
	}
	if got := log.String(); got != "start:a start:b start:c stop:c stop:a" {
		t.Errorf("calls %s", got)
	}
	if err := s.Start("", newFake("d", log), nil); err == nil {
		t.Error("Start after Stop accepted")
	}
}

// TestManagerObservesEverySecondOnce drives a real aggregator: every finished
// second of every scenario reaches every output exactly once, between
// Start and Stop.
func TestManagerObservesEverySecondOnce(t *testing.T) {
	const secs = 6
	log := &callLog{}
	a, b := newFake("a", log), newFake("b", log)
	var s output.Manager
	for _, o := range []*fakeOutput{a, b} {
		if err := s.Start("", o, nil); err != nil {
			t.Fatal(err)
		}
	}
	reg := metrics.NewRegistry()
	scenarios := []string{"s1", "s2"}
	// The run started secs+5 s ago, so the aggregator finishes seconds as
	// soon as it sees them; Close finishes the rest.
	clock := metrics.ClockAt(time.Now().Add(-(secs + 5) * time.Second))
	agg := metrics.NewAggregator(reg, clock, scenarios, s.Observers()...)
	go agg.Run()
	for i := range scenarios {
		r := agg.Recorder(i, 0)
		for sec := range secs {
			for k := range 3 {
				at := time.Duration(sec)*time.Second + time.Duration(k)*100*time.Millisecond
				r.Op(at, 1000, 900, 0, 1, "")
			}
			r.Tick(time.Duration(sec) * time.Second)
		}
		r.Flush()
	}
	agg.Close()
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	for _, f := range []*fakeOutput{a, b} {
		if len(f.bad) > 0 {
			t.Errorf("%s: %v", f.name, f.bad)
		}
		for _, sc := range scenarios {
			for sec := range secs {
				k := fmt.Sprintf("%s/%d", sc, sec)
				if f.seconds[k] != 1 {
					t.Errorf("%s observed %s %d times, want once", f.name, k, f.seconds[k])
				}
			}
		}
		for k, n := range f.seconds {
			if n != 1 {
				t.Errorf("%s observed %s %d times", f.name, k, n)
			}
		}
	}
	if got := log.String(); got != "start:a start:b stop:b stop:a" {
		t.Errorf("calls %s", got)
	}
}

// TestManagerStartSpecs: outputs named by specs start in plan order and
// stop in the reverse; every Stop error is reported, labelled with how
// the plan named the output; a spec that cannot start is a usage error
// naming it, and the ones started before it keep running for Stop.
func TestManagerStartSpecs(t *testing.T) {
	log := &callLog{}
	fakes := map[string]*fakeOutput{}
	factory := func(name, flag string) output.Factory {
		return output.Factory{Name: name, Flag: flag, New: func(p output.Params) (output.Output, error) {
			f := newFake(name+"="+p.Arg, log)
			if p.Arg == "busy" {
				f.startErr = errors.New("port busy")
			}
			if p.Arg == "full" {
				f.stopErr = errors.New("disk full")
			}
			fakes[name] = f
			return f, nil
		}}
	}
	reg, err := output.NewRegistry(factory("a", ""), factory("b", "--bee"), factory("c", "-"))
	if err != nil {
		t.Fatal(err)
	}
	var m output.Manager
	err = m.StartSpecs(reg, []output.Spec{{Kind: "a", Arg: "full"}, {Kind: "b", Arg: "full"}, {Kind: "c"}, {Kind: "a", Arg: "busy"}, {Kind: "c"}}, output.Params{}, nil)
	if err == nil || !usage.Is(err) || err.Error() != "--out a: port busy" {
		t.Fatalf("StartSpecs: %v", err)
	}
	err = m.Stop()
	if got := log.String(); got != "start:a=full start:b=full start:c= start:a=busy stop:c= stop:b=full stop:a=full" {
		t.Errorf("calls %s", got)
	}
	if err == nil || err.Error() != "--bee full: disk full\n--out a: disk full" {
		t.Errorf("Stop: %q", err)
	}
	if err := m.StartSpecs(reg, []output.Spec{{Kind: "zz"}}, output.Params{}, nil); !errors.Is(err, output.ErrUnknown) {
		t.Errorf("unknown kind: %v", err)
	}
}

// finisherFake is a fake output that also finishes the result directory.
type finisherFake struct {
	*fakeOutput
	err error
}

func (f finisherFake) Finish(_ context.Context, r output.Finished) error {
	f.log.add("finish:" + f.name + ":" + r.Dir)
	return f.err
}

// TestManagerFinish: every Finisher is asked once, in start order, after
// Stop, even when one fails; the errors are joined.
func TestManagerFinish(t *testing.T) {
	log := &callLog{}
	a := finisherFake{newFake("a", log), errors.New("no room")}
	b := finisherFake{newFake("b", log), nil}
	var m output.Manager
	for _, o := range []output.Output{a, newFake("plain", log), b} {
		if err := m.Start("x", o, nil); err != nil {
			t.Fatal(err)
		}
	}
	err := m.Finish(context.Background(), output.Finished{Dir: "d"})
	if err == nil || err.Error() != "x: no room" {
		t.Errorf("Finish: %v", err)
	}
	if got := log.String(); got != "start:a start:plain start:b stop:b stop:plain stop:a finish:a:d finish:b:d" {
		t.Errorf("calls %s", got)
	}
}
