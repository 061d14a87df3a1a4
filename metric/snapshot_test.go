package metric

import (
	"reflect"
	"testing"
)

func TestSortedErrors(t *testing.T) {
	sc := NewScenarioSnapshot("s", "")
	sc.Errors = map[string]int64{"b": 2, "a": 2, "c": 5, "d": 1}
	want := []ErrorCount{{Msg: "c", N: 5}, {Msg: "a", N: 2}, {Msg: "b", N: 2}, {Msg: "d", N: 1}}
	if got := sc.SortedErrors(); !reflect.DeepEqual(got, want) {
		t.Errorf("%v, want %v", got, want)
	}
}
