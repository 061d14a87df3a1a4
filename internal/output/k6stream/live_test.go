package k6stream

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/output"
)

// TestLive: json= and csv= registry entries create their file on Start
// (never over an existing one), write requests through engine.RequestLog
// and are complete after Stop.
func TestLive(t *testing.T) {
	for _, format := range []Format{JSON, CSV} {
		t.Run(string(format), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "out."+string(format))
			o, err := Factory(format).New(output.Params{Arg: path, Registry: httpRegistry(t), Tags: map[string]string{"testid": "t1"}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(path); err == nil {
				t.Fatal("New created the file")
			}
			if err := o.Start(); err != nil {
				t.Fatal(err)
			}
			o.Observe(&metrics.Point{}) // per request: seconds are ignored
			w := o.(engine.RequestLog).Writer("http.Request")
			for i := range 3 {
				w.Write(httpRecord(i))
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if err := o.Stop(); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			n := 0
			for sc := bufio.NewScanner(f); sc.Scan(); {
				if strings.Contains(sc.Text(), "http_reqs") && strings.Contains(sc.Text(), "t1") {
					n++
				}
			}
			if n != 3 {
				t.Errorf("%d http_reqs lines with the run's tag, want 3", n)
			}
			again, _ := Factory(format).New(output.Params{Arg: path, Registry: httpRegistry(t)})
			if err := again.Start(); err == nil || !strings.Contains(err.Error(), "exists") {
				t.Errorf("Start over an existing file: %v", err)
			}
		})
	}
}
