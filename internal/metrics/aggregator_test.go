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
