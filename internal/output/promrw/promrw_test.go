package promrw

import (
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output/servertest"
	"github.com/stampede-bench/stampede/metric"
)

func registry(t *testing.T) *metrics.Registry {
	reg := metrics.NewRegistry()
	if _, err := metrics.RegisterHTTP(reg); err != nil {
		t.Fatal(err)
	}
	return reg
}

// feed observes n seconds ending now: 100 requests a second, 1 failing.
func feed(o *Output, scenario string, n int) {
	now := time.Now().Truncate(time.Second)
	for i := range n {
		h := metric.NewHistogram()
		for v := int64(1); v <= 100; v++ {
			h.RecordValue(v * 1000) // 1..100 ms
		}
		p := &metrics.Point{Scenario: scenario, Sec: int64(i), Time: now.Add(time.Duration(i-n) * time.Second),
			Counts: map[string]int64{"requests": 100, "http_reqs": 100, "http_req_failed": 1, "http_req_failed_total": 100, "data_sent": 6100},
			VUs:    10, Hist: h, RT: metric.StatsOf(h), Trends: map[string]*hdr.Histogram{metrics.HTTPReqDuration: h}}
		o.Observe(p)
	}
}

// TestEncodeWriteRequest decodes the protobuf by hand.
func TestEncodeWriteRequest(t *testing.T) {
	b := appendWriteRequest(nil, []series{{labels: []label{{"__name__", "k6_vus"}, {"testid", "x"}}, samples: []sample{{2.5, 1700000000000}}}})
	num, typ, n := protowire.ConsumeTag(b)
	if num != 1 || typ != protowire.BytesType {
		t.Fatalf("field %d type %d", num, typ)
	}
	ts, _ := protowire.ConsumeBytes(b[n:])
	var labels []string
	var value float64
	var stamp int64
	for len(ts) > 0 {
		num, _, n := protowire.ConsumeTag(ts)
		msg, m := protowire.ConsumeBytes(ts[n:])
		ts = ts[n+m:]
		switch num {
		case 1:
			_, _, k := protowire.ConsumeTag(msg)
			name, l := protowire.ConsumeString(msg[k:])
			_, _, k2 := protowire.ConsumeTag(msg[k+l:])
			val, _ := protowire.ConsumeString(msg[k+l+k2:])
			labels = append(labels, name+"="+val)
		case 2:
			_, _, k := protowire.ConsumeTag(msg)
			bits, l := protowire.ConsumeFixed64(msg[k:])
			value = math.Float64frombits(bits)
			_, _, k2 := protowire.ConsumeTag(msg[k+l:])
			v, _ := protowire.ConsumeVarint(msg[k+l+k2:])
			stamp = int64(v)
		}
	}
	if strings.Join(labels, ",") != "__name__=k6_vus,testid=x" || value != 2.5 || stamp != 1700000000000 {
		t.Errorf("labels %v value %v ts %d", labels, value, stamp)
	}
}

// TestPushFailureIsCounted: a refusing endpoint loses samples, counted and
// noted, and the run goes on.
func TestPushFailureIsCounted(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Content-Encoding") != "snappy" {
			t.Errorf("encoding %q", r.Header.Get("Content-Encoding"))
		}
		http.Error(w, "out of order sample", http.StatusBadRequest)
	}))
	defer srv.Close()
	o, err := New(Config{URL: srv.URL + "/api/v1/write", Registry: registry(t)})
	if err != nil {
		t.Fatal(err)
	}
	feed(o, "http.Request", 2)
	st := o.Close()
	if st.Dropped == 0 || st.Dropped != st.Samples || !strings.Contains(st.Note(o.Display()), "out of order sample") {
		t.Errorf("stats %+v note %q", st, st.Note(o.Display()))
	}
}

// TestRemoteWriteToPrometheus pushes to a real Prometheus (2.42 from
// Debian, started with --web.enable-remote-write-receiver) and reads the
// series back through its query API under k6's names and the run's labels.
func TestRemoteWriteToPrometheus(t *testing.T) {
	base := servertest.Prometheus(t)
	o, err := New(Config{URL: base + "/api/v1/write", Registry: registry(t), Tags: map[string]string{"testid": "rw-test", "env": "ci"}})
	if err != nil {
		t.Fatal(err)
	}
	feed(o, "http.Request", 5)
	if st := o.Close(); st.Dropped != 0 || st.Written == 0 {
		t.Fatalf("stats %+v", st)
	}
	query := func(q string) float64 {
		t.Helper()
		resp, err := http.Get(base + "/api/v1/query?query=" + url.QueryEscape(q))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var r struct {
			Data struct {
				Result []struct {
					Metric map[string]string `json:"metric"`
					Value  [2]any            `json:"value"`
				} `json:"result"`
			} `json:"data"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
			t.Fatal(err)
		}
		if len(r.Data.Result) != 1 {
			t.Fatalf("%s: %d series", q, len(r.Data.Result))
		}
		v, _ := strconv.ParseFloat(r.Data.Result[0].Value[1].(string), 64)
		return v
	}
	for q, want := range map[string]float64{
		`k6_http_reqs_total{testid="rw-test",scenario="http.Request",env="ci"}`: 500,
		`k6_http_req_failed_rate{testid="rw-test"}`:                             0.01,
		`k6_data_sent_total{testid="rw-test"}`:                                  30500,
		`k6_vus{testid="rw-test"}`:                                              10,
		`k6_responseTime_count{testid="rw-test"}`:                               500,
		`k6_responseTime_max{testid="rw-test"}`:                                 0.1,
		`k6_http_req_duration_count{testid="rw-test"}`:                          500,
		`k6_http_req_duration_med{testid="rw-test"}`:                            0.05,
	} {
		if got := query(q); math.Abs(got-want) > want*0.002 {
			t.Errorf("%s = %v, want %v", q, got, want)
		}
	}
	if p99 := query(`k6_responseTime_p99{testid="rw-test"}`); p99 < 0.098 || p99 > 0.1 {
		t.Errorf("p99 = %v s", p99)
	}
}
