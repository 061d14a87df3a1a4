package metrics

import (
	"fmt"
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
