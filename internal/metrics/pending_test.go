package metrics

import (
	"testing"
	"time"
)

// What background goroutines leave in a Pending reaches the snapshot once,
// through whichever VU drains it.
func TestPendingDrain(t *testing.T) {
	reg := NewRegistry()
	c := reg.MustAdd(Def{Name: "pending_count", Kind: KindCounter, Unit: UnitNone})
	agg := NewAggregator(reg, NewClock(), []string{"s"})
	go agg.Run()
	r := agg.Recorder(0, 0)
	var p Pending
	if p.Drain(r, time.Second) {
		t.Fatal("an empty Pending recorded something")
	}
	p.Add(c, 2)
	p.Add(c, 3)
	p.Error("boom")
	if !p.Drain(r, time.Second) {
		t.Fatal("Drain recorded nothing")
	}
	if p.Drain(r, time.Second) {
		t.Error("a drained Pending recorded again")
	}
	r.Flush()
	agg.Close()
	sc := agg.Snapshot().Scenarios[0]
	if sc.Counters["pending_count"] != 5 || sc.Errors["boom"] != 1 {
		t.Errorf("counters %v, errors %v", sc.Counters, sc.Errors)
	}
}
