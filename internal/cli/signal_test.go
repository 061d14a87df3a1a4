package cli

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/resultdir"
)

// buildStampede compiles the binary once per test binary run.
func buildStampede(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "stampede")
	cmd := exec.Command("go", "build", "-o", bin, "../../cmd/stampede")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

// Ctrl+C stops a run within 2 s, with every output flushed and valid and
// the summary marked as interrupted.
func TestInterruptFlushesOutputs(t *testing.T) {
	bin := buildStampede(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "res")
			cmd := exec.Command(bin, "run", "builtin.Sleep", "--sleep", "10ms", "-u", "20", "-d", "60s", "--out", dir, "--no-report")
			cmd.Stdout, cmd.Stderr = new(limitedBuffer), new(limitedBuffer)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(2 * time.Second)
			sent := time.Now()
			cmd.Process.Signal(sig)
			err := cmd.Wait()
			if took := time.Since(sent); took > 2*time.Second {
				t.Errorf("stopped %v after the signal, want < 2s", took)
			}
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != ExitInterrupted {
				t.Errorf("exit = %v, want %d", err, ExitInterrupted)
			}
			res, lerr := resultdir.Load(dir)
			if lerr != nil {
				t.Fatal(lerr)
			}
			if !res.Snapshot.Interrupted {
				t.Error("snapshot not marked interrupted")
			}
			iters := res.Snapshot.Scenarios[0].Counters["iterations"]
			if iters < 100 {
				t.Errorf("only %d iterations recorded", iters)
			}
			var sum map[string]any
			b, _ := os.ReadFile(filepath.Join(dir, resultdir.SummaryFile))
			if err := json.Unmarshal(b, &sum); err != nil {
				t.Errorf("summary.json: %v", err)
			}
			f, _ := os.Open(filepath.Join(dir, resultdir.RequestsFile))
			defer f.Close()
			rows, err := csv.NewReader(f).ReadAll()
			if err != nil {
				t.Fatalf("requests.csv: %v", err)
			}
			if int64(len(rows)-1) != res.Snapshot.Scenarios[0].Counters["requests"] {
				t.Errorf("requests.csv has %d rows, snapshot counts %v requests", len(rows)-1, res.Snapshot.Scenarios[0].Counters["requests"])
			}
			s, _ := os.Open(filepath.Join(dir, resultdir.SeriesFile))
			defer s.Close()
			sc := bufio.NewScanner(s)
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				if !json.Valid(sc.Bytes()) {
					t.Fatalf("series line is not JSON: %s", sc.Text())
				}
			}
		})
	}
}

// limitedBuffer keeps the last 64 KiB written to it.
type limitedBuffer struct{ b []byte }

func (l *limitedBuffer) Write(p []byte) (int, error) {
	l.b = append(l.b, p...)
	if len(l.b) > 64<<10 {
		l.b = l.b[len(l.b)-64<<10:]
	}
	return len(p), nil
}
