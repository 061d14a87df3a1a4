package run

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/selfcheck"
)

func TestMeasured(t *testing.T) {
	result := func(dir string) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, resultdir.SnapshotFile), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("writes the samples into a result without them", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "r")
		boom := errors.New("scenario failed")
		err := Measured(dir, func() error {
			result(dir)
			time.Sleep(1500 * time.Millisecond) // samples come every second
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("err = %v, want fn's", err)
		}
		r, err := selfcheck.Read(dir)
		if err != nil || r == nil || len(r.Samples) == 0 {
			t.Fatalf("no self-check samples written: %+v %v", r, err)
		}
	})
	t.Run("keeps the run's own", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "r")
		own := []byte(`{"cores":3}`)
		err := Measured(dir, func() error {
			result(dir)
			return os.WriteFile(filepath.Join(dir, selfcheck.File), own, 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, selfcheck.File)); string(b) != string(own) {
			t.Errorf("selfcheck.json = %s, want the run's own", b)
		}
	})
	t.Run("no result, nothing written", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "r")
		if err := Measured(dir, func() error { return nil }); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("Measured created %s: %v", dir, err)
		}
	})
}
