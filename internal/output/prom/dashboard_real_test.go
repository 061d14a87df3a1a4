package prom

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output/servertest"
	"github.com/stampede-bench/stampede/metric"
)

// TestDashboardPercentilesClassicAndNative scrapes a live collector with a
// real Prometheus (Debian's 2.42), once as configured by default and once
// with native histograms enabled (which makes Prometheus drop the classic
// _bucket series), and runs every percentile query of
// deploy/grafana/stampede-prometheus.json: each must return data in both.
func TestDashboardPercentilesClassicAndNative(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "deploy", "grafana", "stampede-prometheus.json"))
	if err != nil {
		t.Fatal(err)
	}
	var exprs []string
	for _, m := range regexp.MustCompile(`"expr": "(histogram_quantile[^\n]*)",?\n`).FindAllStringSubmatch(string(b), -1) {
		var e string
		if err := json.Unmarshal([]byte(`"`+m[1]+`"`), &e); err != nil {
			t.Fatal(err)
		}
		e = strings.NewReplacer("$__rate_interval", "30s", "$scenario", ".*", "$testid", ".*").Replace(e)
		exprs = append(exprs, e)
	}
	if len(exprs) < 4 {
		t.Fatalf("%d percentile queries in the dashboard", len(exprs))
	}

	c := New(nil, Options{Start: time.Now()})
	srv, err := Serve("127.0.0.1:0", NewRegistry(c))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	stop := make(chan struct{})
	defer close(stop)
	go func() { // a second of 100 requests, 1–100 ms, every 200 ms
		for i := 0; ; i++ {
			h := metric.NewHistogram()
			for v := int64(1); v <= 100; v++ {
				h.RecordValue(v * 1000)
			}
			c.Observe(&metrics.Point{Scenario: "http.Request", Sec: int64(i), Time: time.Now(), Counts: map[string]int64{"requests": 100}, Hist: h, RT: metric.StatsOf(h)})
			select {
			case <-stop:
				return
			case <-time.After(200 * time.Millisecond):
			}
		}
	}()
	cfg := fmt.Sprintf("global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: stampede\n    static_configs:\n      - targets: [%q]\n", srv.Addr())
	for _, mode := range []struct {
		name  string
		flags []string
	}{{"classic", nil}, {"native", []string{"--enable-feature=native-histograms"}}} {
		t.Run(mode.name, func(t *testing.T) {
			base := servertest.PrometheusWith(t, cfg, mode.flags...)
			defer func() {
				// What a classic-only query sees: nothing with native histograms on.
				n, _ := resultCount(base, `histogram_quantile(0.99, sum by (le) (rate(stampede_response_time_seconds_bucket[30s])))`)
				t.Logf("%s: the classic-only query returns %d series", mode.name, n)
			}()
			for _, e := range exprs {
				deadline := time.Now().Add(20 * time.Second)
				for {
					n, err := resultCount(base, e)
					if err != nil {
						t.Fatalf("%s: %v", e, err)
					}
					if n > 0 {
						break
					}
					if time.Now().After(deadline) {
						t.Fatalf("no data for %s", e)
					}
					time.Sleep(500 * time.Millisecond)
				}
			}
		})
	}
}

func resultCount(base, expr string) (int, error) {
	resp, err := http.Get(base + "/api/v1/query?query=" + url.QueryEscape(expr))
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var r struct {
		Status string
		Error  string
		Data   struct{ Result []json.RawMessage }
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		return 0, err
	}
	if r.Status != "success" {
		return 0, fmt.Errorf("%s", r.Error)
	}
	return len(r.Data.Result), nil
}
