package output_test

import (
	"errors"
	"testing"

	"github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/internal/reqlog"
)

// loggingFake is a fake output that also takes request records.
type loggingFake struct{ *fakeOutput }

func (loggingFake) Writer(string) reqlog.Writer { return nil }

// TestManagerRequestLogs: only the started outputs that take request records
// are request logs, in start order; a set without one has none, so the
// engine gets no request log.
func TestManagerRequestLogs(t *testing.T) {
	log := &callLog{}
	var s output.Manager
	if err := s.Start("", newFake("plain", log), nil); err != nil {
		t.Fatal(err)
	}
	if got := s.RequestLogs(); got != nil {
		t.Fatalf("request logs of a set without loggers: %v", got)
	}
	a, b := loggingFake{newFake("a", log)}, loggingFake{newFake("b", log)}
	failing := loggingFake{newFake("failing", log)}
	failing.startErr = errors.New("port busy")
	for _, o := range []output.Output{a, failing, b} {
		_ = s.Start("", o, nil)
	}
	got := s.RequestLogs()
	if len(got) != 2 || got[0] != reqlog.Log(a) || got[1] != reqlog.Log(b) {
		t.Errorf("request logs %v, want [a b]", got)
	}
	var _ output.RequestLogger = a
}
