package csvlog

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/reqlog"
)

// TestSeedAwkCountsErrors runs the seed's own error count,
// awk -F ',' '{print $NF}' output/output_Go2Step.csv | sort | uniq -c,
// over a log with successes, statements full of commas, a label and an
// answer: errorMsg being the last column, it counts the successes (empty),
// each message and the header's "errorMsg", as it did on nebula-bench's
// files.
func TestSeedAwkCountsErrors(t *testing.T) {
	if _, err := exec.LookPath("awk"); err != nil {
		t.Skip("no awk")
	}
	var buf bytes.Buffer
	l := New(&buf, Options{StatementColumn: StatementNGQL})
	w := l.Writer("go.Go2Step")
	for i := range 40 {
		r := reqlog.Record{Time: t0.Add(time.Duration(i) * time.Millisecond), Query: "go.Go2Step personId=933", Latency: -1, ResponseTime: time.Millisecond, OK: true, Rows: 3,
			Op: &driver.Op{Query: "GO 2 STEPS FROM $1 OVER KNOWS YIELD dst(edge), src(edge)", Args: []any{int64(933)}}, Answer: 2, HasAnswer: i%2 == 0}
		switch {
		case i%10 == 3:
			r.OK, r.Err = false, "error: E_CONSENSUS_ERROR(-16). "
		case i%10 == 7:
			r.OK, r.Err = false, "timeout"
		}
		w.Write(r)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), "timestamp,nGQL,latency,responseTime,isSucceed,rows,label,answer,errorMsg\n") {
		t.Fatalf("header: %q", strings.SplitN(buf.String(), "\n", 2)[0])
	}
	dir := filepath.Join(t.TempDir(), "output")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "output_Go2Step.csv"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", "-c", `awk -F ',' '{print $NF}' output/output_Go2Step.csv | sort | uniq -c`)
	cmd.Dir = filepath.Dir(dir)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		f := strings.Fields(line)
		got[strings.Join(f[1:], " ")] = f[0]
	}
	want := map[string]string{"": "32", "error: E_CONSENSUS_ERROR(-16).": "4", "timeout": "4", "errorMsg": "1"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("awk count of %q = %q, want %q (all: %q)", k, got[k], v, out)
		}
	}
	if len(got) != len(want) {
		t.Errorf("awk found %d distinct values, want %d: %q", len(got), len(want), out)
	}
}

func TestHeaderFor(t *testing.T) {
	for _, tc := range []struct{ col, want string }{
		{"", Header},
		{StatementQuery, Header},
		{StatementNGQL, "timestamp,nGQL,latency,responseTime,isSucceed,rows,label,answer,errorMsg\n"},
	} {
		if got := HeaderFor(tc.col); got != tc.want {
			t.Errorf("HeaderFor(%q) = %q, want %q", tc.col, got, tc.want)
		}
	}
}
