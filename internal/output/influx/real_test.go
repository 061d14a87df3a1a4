package influx

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output/servertest"
	"github.com/stampede-bench/stampede/metric"
)

// TestRealInfluxDB writes to a real InfluxDB 1.x (Debian's influxd) into a
// database that does not exist yet and which k6 already wrote to: the
// output creates it, and its float fields mix with k6's own.
func TestRealInfluxDB(t *testing.T) {
	base := servertest.InfluxDB(t)
	query := func(q string) [][]any {
		t.Helper()
		resp, err := http.PostForm(base+"/query?db=k6db", url.Values{"q": {q}})
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var r struct {
			Results []struct {
				Series []struct{ Values [][]any } `json:"series"`
				Error  string                     `json:"error"`
			} `json:"results"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
			t.Fatal(err)
		}
		if len(r.Results) == 0 || r.Results[0].Error != "" || len(r.Results[0].Series) == 0 {
			t.Fatalf("%s: %+v", q, r)
		}
		return r.Results[0].Series[0].Values
	}
	reg := metrics.NewRegistry()
	if _, err := metrics.RegisterHTTP(reg); err != nil {
		t.Fatal(err)
	}
	o, err := New(Config{URL: base + "/k6db", Registry: reg, Tags: map[string]string{"testid": "influx-test"}})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().Truncate(time.Second).Add(-10 * time.Second)
	for i := range 3 {
		h := metric.NewHistogram()
		for v := int64(1); v <= 100; v++ {
			h.RecordValue(v * 1000)
		}
		o.Observe(&metrics.Point{Scenario: "http.Request", Sec: int64(i), Time: now.Add(time.Duration(i) * time.Second),
			Counts: map[string]int64{"http_reqs": 100, "http_req_failed": 1, "http_req_failed_total": 100, "iterations": 100},
			VUs:    5, Hist: h, RT: metric.StatsOf(h), Trends: map[string]*hdr.Histogram{metrics.HTTPReqDuration: h}})
	}
	if st := o.Close(); st.Dropped() != 0 {
		t.Fatalf("stats %+v", st)
	}
	// k6's own write: every value a float.
	resp, err := http.Post(base+"/write?db=k6db", "text/plain", strings.NewReader("http_reqs,scenario=default,testid=k6 value=1\n"))
	if err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("k6-style write: %v %v", err, resp)
	}
	resp.Body.Close()
	if v := query(`SELECT sum("value") FROM "http_reqs" WHERE "testid"='influx-test'`); v[0][1] != 300.0 {
		t.Errorf("sum(http_reqs) = %v", v)
	}
	if v := query(`SELECT sum("value") FROM "http_reqs"`); v[0][1] != 301.0 {
		t.Errorf("sum(http_reqs) with k6's line = %v", v)
	}
	if v := query(`SELECT mean("value"), max("p95") FROM "http_req_duration" WHERE "scenario"='http.Request'`); !near(v[0][1], 50.5) || !near(v[0][2], 95) {
		t.Errorf("http_req_duration = %v", v)
	}
	if v := query(`SELECT last("value") FROM "http_req_failed"`); v[0][1] != 0.01 {
		t.Errorf("http_req_failed = %v", v)
	}
}

// near tells whether v is within HDR's 0.1% of want.
func near(v any, want float64) bool {
	f, ok := v.(float64)
	return ok && f >= want*0.999 && f <= want*1.001
}
