package metrics

import (
	"fmt"
	"reflect"
	"testing"
	"time"
)

func TestErrorMessagesBounded(t *testing.T) {
	reg := NewRegistry()
	agg := NewAggregator(reg, NewClock(), []string{"s"})
	go agg.Run()
	r := agg.Recorder(0, 0)
	for i := 0; i < MaxErrorMessages+500; i++ {
		r.Error(time.Duration(i)*time.Millisecond, fmt.Sprintf("error %d", i))
	}
	r.Flush()
	agg.Close()
	sc := agg.Snapshot().Scenarios[0]
	if len(sc.Errors) != MaxErrorMessages+1 || sc.Errors[OtherErrors] != 500 || sc.Counters[Errors] != MaxErrorMessages+500 {
		t.Errorf("%d messages, other=%d, errors=%d", len(sc.Errors), sc.Errors[OtherErrors], sc.Counters[Errors])
	}
}

// TestFinal: a closed aggregator's Final snapshot equals its Snapshot,
// holding the aggregator's own histograms where Snapshot copies them.
func TestFinal(t *testing.T) {
	reg := NewRegistry()
	a := NewAggregator(reg, NewClock(), []string{"s"})
	go a.Run()
	r := a.Recorder(0, 0)
	for i := range int64(50) {
		r.Op(time.Duration(i)*time.Millisecond, i+1, -1, -1, 1, "")
	}
	r.Flush()
	a.Close()
	snap, final := a.Snapshot(), a.Final()
	if !reflect.DeepEqual(snap, final) {
		t.Fatalf("Final %+v, Snapshot %+v", final, snap)
	}
	got, copied := final.Scenarios[0].Trends[ResponseTime].Hist, snap.Scenarios[0].Trends[ResponseTime].Hist
	if got != a.scenarios[0].trends[IDResponseTime] || copied == got {
		t.Error("Final copied the histogram, or Snapshot did not")
	}
}

// TestTotalsOfOpenSeconds: responseTime and the series trends are recorded
// in their second alone and reach the totals when it is finished; a
// Snapshot taken while seconds are open (abortOnFail's, every second)
// holds them all the same, and the final totals are exact.
func TestTotalsOfOpenSeconds(t *testing.T) {
	reg := NewRegistry()
	wire := reg.MustAdd(Def{Name: "wire_time", Kind: KindTrend, Unit: UnitMicros})
	reg.MarkSeries(wire)
	base := time.Now().Add(time.Hour) // no second finishes before Close
	a := NewAggregator(reg, ClockAt(base), []string{"s"})
	go a.Run()
	r := a.Recorder(0, 0)
	for i := int64(1); i <= 100; i++ {
		at := time.Duration(i) * 20 * time.Millisecond // seconds 0 to 2
		r.Op(at, i, -1, -1, 1, "")
		r.Trend(wire, at, 3*i)
		r.trendOrZero(r.batch(at), wire, 0)
	}
	r.Flush()
	check := func(what string, snap *Snapshot) bool {
		sc := snap.Scenarios[0]
		rt, w := sc.Trends[ResponseTime], sc.Trends["wire_time"]
		if sc.Counters[Requests] != 100 {
			return false // batches still queued
		}
		if rt == nil || rt.Hist.TotalCount() != 100 || rt.Hist.Max() != 100 {
			t.Errorf("%s: responseTime %v, want 100 values up to 100", what, rt)
		}
		if w == nil || w.Hist.TotalCount() != 200 || w.Hist.Max() != 300 || w.Hist.ValueAtPercentile(50) != 0 {
			t.Errorf("%s: wire_time %v, want 100 zeros and 100 values up to 300", what, w)
		}
		return true
	}
	deadline := time.Now().Add(5 * time.Second)
	for !check("open seconds", a.Snapshot()) {
		if time.Now().After(deadline) {
			t.Fatal("the batches were never consumed")
		}
		time.Sleep(time.Millisecond)
	}
	a.Close()
	check("final", a.Final())
}
