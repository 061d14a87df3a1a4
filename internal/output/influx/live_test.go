package influx

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/monitor"
	"github.com/stampede-bench/stampede/internal/output"
)

type feedFunc func(fn func(monitor.Sample))

func (feedFunc) Latest() []monitor.Sample            { return nil }
func (f feedFunc) Subscribe(fn func(monitor.Sample)) { f(fn) }

// TestLive: the registry entry makes an output that starts nothing before
// Start, writes each observed second with the run's tags and the segment,
// and notes lost lines on every scenario after Stop.
func TestLive(t *testing.T) {
	r := newReceiver(t)
	reg := metrics.NewRegistry()
	if _, err := metrics.RegisterHTTP(reg); err != nil {
		t.Fatal(err)
	}
	f := Factory()
	if err := f.Check("ftp://x"); err == nil {
		t.Error("Check accepted ftp://")
	}
	o, err := f.New(output.Params{Arg: strings.Replace(r.srv.URL, "http://", "http://u:secret@", 1) + "/k6",
		Registry: reg, Tags: map[string]string{"testid": "t1"}, Segment: "2/3"})
	if err != nil {
		t.Fatal(err)
	}
	if o.Description() != "" || len(r.reqs) != 0 {
		t.Error("New started the output")
	}
	if err := o.Start(); err != nil {
		t.Fatal(err)
	}
	if d := o.Description(); !strings.HasPrefix(d, "influxdb: writing to http://") || strings.Contains(d, "secret") {
		t.Errorf("description %q", d)
	}
	if id, _ := reg.Lookup(metrics.HTTPReqDuration); !isSeries(reg, id) {
		t.Error("http_req_duration not marked for per-second histograms")
	}
	var subscribed int
	o.(output.TargetWatcher).WatchTarget(feedFunc(func(func(monitor.Sample)) { subscribed++ }))
	o.Observe(testPoint("s", 0))
	if err := o.Stop(); err != nil {
		t.Fatal(err)
	}
	lines := r.find("iterations", "s")
	if len(lines) != 1 || lines[0].tags["testid"] != "t1" || lines[0].tags["segment"] != "2/3" || subscribed != 1 {
		t.Errorf("lines %+v, subscribed %d", lines, subscribed)
	}
	snap := &metrics.Snapshot{Scenarios: []*metrics.ScenarioSnapshot{{Name: "s"}}}
	o.(output.Annotator).Annotate(snap)
	if len(snap.Scenarios[0].Notes) != 0 {
		t.Errorf("notes after a clean run: %q", snap.Scenarios[0].Notes)
	}

	down := newReceiver(t)
	down.status = http.StatusNotFound
	o2, _ := NewLive(Config{URL: down.srv.URL + "/nodb"})
	if err := o2.Start(); err != nil {
		t.Fatal(err)
	}
	o2.Observe(testPoint("s", 0))
	o2.Stop()
	o2.Annotate(snap)
	o2.Annotate(snap)
	if n := snap.Scenarios[0].Notes; len(n) != 1 || !strings.Contains(n[0], "not written") {
		t.Errorf("notes %q", n)
	}
}

func isSeries(reg *metrics.Registry, id metrics.ID) bool {
	for _, s := range reg.Series() {
		if s == id {
			return true
		}
	}
	return false
}
