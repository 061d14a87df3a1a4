package k6stream

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/reqlog"
)

// TestTagsAndEvents: HTTP points carry error_code and the sample's own
// url and name (a template); iterations, iteration_duration and checks
// are streamed from the engine's events, in both formats.
func TestTagsAndEvents(t *testing.T) {
	for _, format := range []Format{JSON, CSV} {
		t.Run(string(format), func(t *testing.T) {
			reg := httpRegistry(t)
			check := reg.MustAdd(metrics.CheckMetric("status is 200"))
			path := filepath.Join(t.TempDir(), "out."+string(format))
			s, err := Open(path, format, reg, Config{Tags: map[string]string{"testid": "t1"}, Origin: "http://h"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			w := s.Writer("http.Request")
			r := httpRecord(0)
			r.HTTP.Status, r.HTTP.Expected, r.HTTP.ErrorCode = 500, false, 1500
			r.HTTP.URL, r.HTTP.Name = "http://h/p/7", "http://h/p/{{id}}"
			w.Write(r)
			ew := w.(reqlog.EventWriter)
			ew.Iteration(t0, 1500*time.Microsecond, false)
			ew.Check(t0, check, false)
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			type pt struct {
				metric string
				value  float64
				tags   map[string]string
			}
			var pts []pt
			if format == JSON {
				for _, line := range strings.Split(strings.TrimSpace(readAll(t, path)), "\n") {
					var l struct {
						Type, Metric string
						Data         struct {
							Value float64
							Tags  map[string]string
						}
					}
					if err := json.Unmarshal([]byte(line), &l); err != nil {
						t.Fatalf("%v: %s", err, line)
					}
					if l.Type == "Point" {
						pts = append(pts, pt{l.Metric, l.Data.Value, l.Data.Tags})
					}
				}
			} else {
				rows, err := csv.NewReader(strings.NewReader(readAll(t, path))).ReadAll()
				if err != nil {
					t.Fatal(err)
				}
				head := rows[0]
				for _, row := range rows[1:] {
					if len(row) != len(head) {
						t.Fatalf("row %q has %d columns, header %d", row, len(row), len(head))
					}
					tags := map[string]string{}
					for i := 3; i < len(head); i++ {
						if row[i] != "" {
							tags[head[i]] = row[i]
						}
					}
					var v float64
					if err := json.Unmarshal([]byte(row[2]), &v); err != nil {
						t.Fatal(err)
					}
					pts = append(pts, pt{row[0], v, tags})
				}
			}
			got := map[string]pt{}
			for _, p := range pts {
				got[p.metric] = p
			}
			reqs := got[metrics.HTTPReqs]
			if reqs.tags["error_code"] != "1500" || reqs.tags["url"] != "http://h/p/7" || reqs.tags["name"] != "http://h/p/{{id}}" || reqs.tags["status"] != "500" {
				t.Errorf("http_reqs tags %v", reqs.tags)
			}
			if p := got[metrics.IterationDuration]; p.value != 1.5 || p.tags["scenario"] != "http.Request" {
				t.Errorf("iteration_duration %+v", p)
			}
			if p := got[metrics.Iterations]; p.value != 1 {
				t.Errorf("iterations %+v", p)
			}
			if p := got[metrics.Checks]; p.value != 0 || p.tags["check"] != "status is 200" || p.tags["scenario"] != "http.Request" {
				t.Errorf("checks %+v", p)
			}
		})
	}
}

func readAll(t *testing.T, path string) string {
	b, err := io.ReadAll(open(t, path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
