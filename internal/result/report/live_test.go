package report

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/monitor"
	"github.com/stampede-bench/stampede/metric"
)

// livePoint is second sec of scenario s with n requests of i·100 µs
// (i = 1..n), n bytes sent, 10·n received and a waiting phase of n ms.
func livePoint(s string, base time.Time, sec int64, n int64) *metrics.Point {
	h := metric.NewHistogram()
	for i := int64(1); i <= n; i++ {
		_ = h.RecordValue(i * 100)
	}
	return &metrics.Point{
		Scenario: s, Sec: sec, Time: base.Add(time.Duration(sec) * time.Second), VUs: 2, Hist: h, RT: metric.StatsOf(h),
		Counts:     map[string]int64{metrics.Requests: n, metrics.Errors: 1, metrics.DataSent: n, metrics.DataReceived: 10 * n},
		Errors:     map[string]int64{"boom": 1},
		TrendStats: map[string]metrics.PointStats{metrics.HTTPReqWaiting: {N: n, Mean: float64(n) * 1000}},
	}
}

// The live payload draws every second as series.jsonl has it, totals over
// the whole run, the target's samples, and keeps only the window.
func TestLivePayload(t *testing.T) {
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	l := NewLive(LiveOptions{Scenarios: []string{"a", "later"}, Window: 10})
	for sec := int64(3); sec < 18; sec++ { // 15 seconds, the first 5 fall out of the window
		l.Observe(livePoint("a", base, sec, sec))
		l.ObserveTarget(monitor.Sample{Time: base.Add(time.Duration(sec+1) * time.Second), Source: "host", DT: 1,
			Values: map[string]float64{monitor.CPUUtil: 0.5, monitor.NetRx: float64(sec)}})
	}
	l.End()
	p := l.Payload()
	if !p.Live || !p.Ended || !reflect.DeepEqual(p.Scenarios, []string{"a", "later"}) {
		t.Fatalf("payload %+v", p)
	}
	a := p.Runs[0].Scenarios[0]
	se := a.Series
	var wantReq, wantSent, wantWait, wantP50 Floats
	for sec := int64(8); sec < 18; sec++ {
		wantReq = append(wantReq, float64(sec))
		wantSent = append(wantSent, float64(sec))
		wantWait = append(wantWait, float64(sec))
		wantP50 = append(wantP50, usToMs(float64(metric.StatsOf(livePoint("a", base, sec, sec).Hist).P50)))
	}
	if !reflect.DeepEqual(se.Req, wantReq) || !reflect.DeepEqual(se.Sent, wantSent) || !reflect.DeepEqual(se.P50, wantP50) {
		t.Errorf("series req %v sent %v p50 %v\nwant %v %v %v", se.Req, se.Sent, se.P50, wantReq, wantSent, wantP50)
	}
	if len(se.Phases) != 1 || se.Phases[0].Name != metrics.HTTPReqWaiting || !reflect.DeepEqual(se.Phases[0].Mean, wantWait) {
		t.Errorf("phases %+v, want waiting %v", se.Phases, wantWait)
	}
	if len(se.ErrMsgs) != 1 || len(se.ErrMsgs[0].N) != 10 {
		t.Errorf("error messages %+v", se.ErrMsgs)
	}
	// Totals cover all 15 seconds: 3+4+…+17 requests.
	if a.Summary.Requests != 150 || a.Summary.Errors != 15 || a.Errors[0] != (Count{Name: "boom", N: 15}) || a.Duration != 15 {
		t.Errorf("summary %+v errors %v duration %v", a.Summary, a.Errors, a.Duration)
	}
	if a.Summary.Max != 1.7 || a.Distribution == nil {
		t.Errorf("max %v distribution %v", a.Summary.Max, a.Distribution)
	}
	if len(a.Target) != 1 || len(a.Target[0].T) != 10 || a.Target[0].CPU[0] != 50 {
		t.Errorf("target %+v", a.Target)
	}
	if later := p.Runs[0].Scenarios[1]; later.Series != nil || later.Summary.Checks != -1 {
		t.Errorf("a scenario not started: %+v", later)
	}
	if _, err := json.Marshal(p); err != nil {
		t.Fatal(err)
	}
}
