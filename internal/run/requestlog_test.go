package run

import (
	"testing"

	"github.com/stampede-bench/stampede/internal/reqlog"
)

type namedLog string

func (namedLog) Writer(string) reqlog.Writer { return nil }

// TestWithLogs: without more request logs the run's log is unchanged (nil
// stays nil: the engine then writes no records at all); with more, one
// flat tee holds them all.
func TestWithLogs(t *testing.T) {
	csv, json, mine := namedLog("csv"), namedLog("json"), namedLog("mine")
	if got := withLogs(nil, nil); got != nil {
		t.Errorf("withLogs(nil, nil) = %v, want nil", got)
	}
	if got := withLogs(csv, nil); got != reqlog.Log(csv) {
		t.Errorf("withLogs(csv, nil) = %v", got)
	}
	if got := withLogs(nil, []reqlog.Log{mine}); got != reqlog.Log(mine) {
		t.Errorf("withLogs(nil, [mine]) = %v", got)
	}
	got := withLogs(withLogs(csv, []reqlog.Log{json}), []reqlog.Log{mine})
	tee, ok := got.(teeLog)
	if !ok || len(tee) != 3 || tee[0] != reqlog.Log(csv) || tee[1] != reqlog.Log(json) || tee[2] != reqlog.Log(mine) {
		t.Errorf("= %#v, want one tee of csv, json, mine", got)
	}
}
