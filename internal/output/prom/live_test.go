package prom

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/monitor"
	"github.com/stampede-bench/stampede/internal/output"
)

type latestFeed []monitor.Sample

func (f latestFeed) Latest() []monitor.Sample     { return f }
func (latestFeed) Subscribe(func(monitor.Sample)) {}

// TestLive: the factory listens only on Start (loopback by default),
// serves the declared scenarios, the observed seconds, the tags as labels
// and the target monitor's samples, and stops serving on Stop.
func TestLive(t *testing.T) {
	f := Factory()
	if f.Check("not-an-address") == nil {
		t.Error("Check accepted a bad address")
	}
	_, reg := newTestCollector()
	o, err := f.New(output.Params{Arg: "0", Registry: reg, Scenarios: []string{"idle", "go.Go1Step"},
		Tags:      map[string]string{"testid": "t1", "my-tag": "x", "scenario": "dropped", "empty": ""},
		Generator: func() (float64, int64, bool) { return 0.5, 1 << 20, true }})
	if err != nil {
		t.Fatal(err)
	}
	if o.Description() != "" {
		t.Fatal("New started the server")
	}
	if err := o.Start(); err != nil {
		t.Fatal(err)
	}
	url := strings.TrimPrefix(o.Description(), "prometheus: ")
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/metrics") {
		t.Fatalf("description %q", o.Description())
	}
	o.(output.TargetWatcher).WatchTarget(latestFeed{{Source: "db", Time: time.Now(), Values: map[string]float64{"cpu": 0.25}}})
	o.Observe(point("go.Go1Step", 0, map[string]int64{"iterations": 3, "requests": 3}, nil, 2, 100, 200, 300))
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{
		`stampede_requests_total{my_tag="x",scenario="go.Go1Step",testid="t1"} 3`,
		`scenario="idle"`,
		`stampede_target_`,
		`stampede_generator_`,
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("scrape lacks %q", want)
		}
	}
	if strings.Contains(string(b), `scenario="dropped"`) || strings.Contains(string(b), `empty=`) {
		t.Error("scenario tag or empty tag became a label")
	}
	if err := o.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := http.Get(url); err == nil {
		t.Error("still serving after Stop")
	}
}

func TestLabels(t *testing.T) {
	got := Labels(map[string]string{"9lives": "a", "ok_1": "b", "scenario": "c", "x": ""})
	if len(got) != 2 || got["_lives"] != "a" || got["ok_1"] != "b" {
		t.Errorf("Labels = %v", got)
	}
}
