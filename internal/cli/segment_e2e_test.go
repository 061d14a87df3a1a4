package cli

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/resultdir"
)

// TestSegmentsEndToEnd is the local proof of distributed runs: the same
// shared-iterations workload against an HTTP server on loopback, once as
// one process and once as 4 `--segment i/4` processes with a common
// --start-at, merged with `stampede merge`. Totals must be identical, and
// the merged percentiles must be those of every request the 4 processes
// logged, within HDR precision (3 significant digits).
func TestSegmentsEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs 6 processes")
	}
	bin := filepath.Join(t.TempDir(), "stampede")
	build := exec.Command("go", "build", "-o", bin, "github.com/stampede-bench/stampede/cmd/stampede")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// Requests take 0–1.5 ms, spread by a counter, so the percentiles
	// have something to measure.
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(time.Duration(n.Add(1)%16) * 100 * time.Microsecond)
		io.WriteString(w, "ok")
	}))
	defer srv.Close()

	const iterations = 4000
	work := []string{"run", "http.Request", "--target", srv.URL + "/", "-i", fmt.Sprint(iterations), "-u", "8", "--no-report", "-q"}
	root := t.TempDir()
	run := func(extra ...string) error {
		cmd := exec.Command(bin, append(append([]string(nil), work...), extra...)...)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		if err != nil {
			return fmt.Errorf("%v: %v\n%s", cmd.Args, err, out)
		}
		return nil
	}
	if err := run("--out", filepath.Join(root, "whole")); err != nil {
		t.Fatal(err)
	}
	startAt := time.Now().Add(3 * time.Second).UTC().Format(time.RFC3339Nano)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = run("--segment", fmt.Sprintf("%d/4", i+1), "--start-at", startAt, "--out", filepath.Join(root, "segments", fmt.Sprint(i+1)))
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	merge := exec.Command(bin, "merge", filepath.Join(root, "segments"), "-o", filepath.Join(root, "merged"), "-q")
	if out, err := merge.CombinedOutput(); err != nil {
		t.Fatalf("merge: %v\n%s", err, out)
	}

	whole, err := resultdir.Load(filepath.Join(root, "whole"))
	if err != nil {
		t.Fatal(err)
	}
	merged, err := resultdir.Load(filepath.Join(root, "merged"))
	if err != nil {
		t.Fatal(err)
	}
	ws, ms := whole.Snapshot.Scenarios[0], merged.Snapshot.Scenarios[0]
	for _, c := range []string{metrics.Iterations, metrics.Requests, metrics.Errors} {
		if ws.Counters[c] != ms.Counters[c] {
			t.Errorf("%s: whole %d, 4 segments merged %d", c, ws.Counters[c], ms.Counters[c])
		}
	}
	if ms.Counters[metrics.Iterations] != iterations {
		t.Errorf("merged iterations %d, want %d", ms.Counters[metrics.Iterations], iterations)
	}
	if got := ms.Trends[metrics.ResponseTime].Hist.TotalCount(); got != iterations {
		t.Errorf("merged responseTime count %d", got)
	}

	// Merged percentiles against the exact samples of requests.csv.
	var samples []int64
	for i := 1; i <= 4; i++ {
		samples = append(samples, readResponseTimes(t, filepath.Join(root, "segments", fmt.Sprint(i), resultdir.RequestsFile))...)
	}
	if len(samples) != iterations {
		t.Fatalf("%d logged requests, want %d", len(samples), iterations)
	}
	slices.Sort(samples)
	mt, wt := ms.Trends[metrics.ResponseTime], ws.Trends[metrics.ResponseTime]
	for _, q := range []float64{50, 95, 99} {
		exact := samples[int(math.Ceil(q/100*float64(len(samples))))-1]
		got := int64(mt.Percentile(q))
		if got < exact || float64(got) > float64(exact)*1.001+1 {
			t.Errorf("p%v: merged %d µs, exact %d µs (beyond HDR precision)", q, got, exact)
		}
		t.Logf("p%v: merged %d µs, exact over all segments %d µs, single process %d µs", q, got, exact, int64(wt.Percentile(q)))
	}
}

// readResponseTimes returns the responseTime column (µs) of a requests.csv.
func readResponseTimes(t *testing.T, path string) []int64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := slices.Index(rows[0], "responseTime")
	if col < 0 {
		t.Fatalf("%s has no responseTime column: %v", path, rows[0])
	}
	var out []int64
	for _, r := range rows[1:] {
		v, err := strconv.ParseInt(r[col], 10, 64)
		if err != nil {
			t.Fatalf("%s: responseTime %q", path, r[col])
		}
		out = append(out, v)
	}
	return out
}
