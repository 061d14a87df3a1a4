package promrw

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/metric"
)

// TestLive: the registry entry (and k6's alias) makes an output that
// pushes nothing before Start, pushes what it observed by Stop, and notes
// failed pushes on every scenario.
func TestLive(t *testing.T) {
	var pushes atomic.Int64
	fail := atomic.Bool{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		pushes.Add(1)
		if fail.Load() {
			http.Error(w, "out of order sample", http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	r, err := output.NewRegistry(Factory())
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Check("experimental-prometheus-rw", "nope"); err == nil {
		t.Error("alias: bad URL accepted")
	}
	reg := registry(t)
	for _, failing := range []bool{false, true} {
		fail.Store(failing)
		pushes.Store(0)
		o, err := r.New("experimental-prometheus-rw", output.Params{Arg: srv.URL + "/api/v1/write", Registry: reg, Tags: map[string]string{"testid": "t9"}})
		if err != nil {
			t.Fatal(err)
		}
		if pushes.Load() != 0 || o.Description() != "" {
			t.Fatal("New started the output")
		}
		if err := o.Start(); err != nil {
			t.Fatal(err)
		}
		if d := o.Description(); !strings.Contains(d, "pushing to "+srv.URL) || !strings.Contains(d, "testid=t9") {
			t.Errorf("description %q", d)
		}
		for i := range 2 {
			h := metric.NewHistogram()
			h.RecordValue(1000)
			o.Observe(&metrics.Point{Scenario: "http.Request", Sec: int64(i), Time: time.Now().Add(time.Duration(i-2) * time.Second),
				Counts: map[string]int64{"requests": 1, "http_reqs": 1}, VUs: 1, Hist: h, RT: metric.StatsOf(h),
				Trends: map[string]*hdr.Histogram{metrics.HTTPReqDuration: h}})
		}
		if err := o.Stop(); err != nil {
			t.Fatal(err)
		}
		if pushes.Load() == 0 {
			t.Error("nothing pushed")
		}
		snap := &metrics.Snapshot{Scenarios: []*metrics.ScenarioSnapshot{{Name: "a"}, {Name: "b"}}}
		o.(output.Annotator).Annotate(snap)
		for _, sc := range snap.Scenarios {
			if noted := len(sc.Notes) == 1 && strings.Contains(sc.Notes[0], "out of order sample"); noted != failing {
				t.Errorf("failing=%v: notes of %s %q", failing, sc.Name, sc.Notes)
			}
		}
	}
}
