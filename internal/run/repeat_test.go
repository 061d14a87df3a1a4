package run

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/resultdir"
)

func TestRepeat(t *testing.T) {
	t.Run("every run, into run-NN, failed thresholds go on", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "rep")
		p := noopPlan(t, dir, 20, "iterations: count>1000")
		p.Repeat = 3
		var info bytes.Buffer
		shown := 0
		failed, err := Repeat(context.Background(), p, testDeps(), RepeatOptions{
			Info: &info, Show: func(r *Result) error { shown++; return nil },
		})
		if err != nil || !failed {
			t.Fatalf("failed %v, err %v; want failed thresholds and no error", failed, err)
		}
		for i, d := range []string{"run-01", "run-02", "run-03"} {
			if !resultdir.IsResult(filepath.Join(dir, d)) {
				t.Errorf("run %d: no result in %s", i+1, d)
			}
		}
		if shown != 3 || !strings.Contains(info.String(), "=== run 3 of 3 → "+filepath.Join(dir, "run-03")) {
			t.Errorf("shown %d times, info %q", shown, info.String())
		}
	})
	t.Run("a failing show ends the runs", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "rep")
		p := noopPlan(t, dir, 20)
		p.Repeat = 2
		boom := errors.New("stdout closed")
		_, err := Repeat(context.Background(), p, testDeps(), RepeatOptions{Show: func(*Result) error { return boom }})
		if !errors.Is(err, boom) || resultdir.IsResult(filepath.Join(dir, "run-02")) {
			t.Fatalf("err %v; want the show's, and no second run", err)
		}
	})
	t.Run("interrupted", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		p := noopPlan(t, filepath.Join(t.TempDir(), "rep"), 20)
		p.Repeat = 2
		_, err := Repeat(ctx, p, testDeps(), RepeatOptions{})
		var ie *InterruptedError
		if !errors.As(err, &ie) || ie.Msg != "interrupted" {
			t.Fatalf("err %v, want an interruption", err)
		}
	})
}
