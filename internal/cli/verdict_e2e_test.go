package cli

import (
	"encoding/csv"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// summaryVerdict reads stampede.verdict and the failure counts of the
// run's summary.json.
type summaryDoc struct {
	Metrics map[string]struct {
		Count  int64 `json:"count"`
		Passes int64 `json:"passes"`
	} `json:"metrics"`
	Stampede struct {
		Errors  map[string]map[string]int64 `json:"errors"`
		Verdict struct {
			Status    string `json:"status"`
			Scenarios map[string]struct {
				Status  string `json:"status"`
				Reasons []struct {
					Rule string `json:"rule"`
					Text string `json:"text"`
				} `json:"reasons"`
			} `json:"scenarios"`
		} `json:"verdict"`
	} `json:"stampede"`
}

func readSummary(t *testing.T, dir string) summaryDoc {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var d summaryDoc
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestVerdictAllFailedExits1: http.Request against a path that answers
// 404 to every request used to exit 0 with "100% failed"; a scenario with
// no successful operation is a failed run: exit 1, one line naming the
// scenario and its top error, FAILED headline, verdict "failed" in
// summary.json. With the res.Verdict.Failed() case removed from
// executePlan, the exit code is 0 and the test fails.
func TestVerdictAllFailedExits1(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	dir := filepath.Join(t.TempDir(), "r")
	code, stdout, stderr := runMain(t, t.Context(), "run", "http.Request", "--target", srv.URL+"/nope",
		"-u", "2", "-d", "1s", "--out", dir, "--no-report", "-q")
	if code != ExitRunError {
		t.Fatalf("exit %d, want 1\nstderr: %s", code, stderr)
	}
	want := "stampede: run failed: http.Request: no successful operation: all "
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, want) || !strings.HasSuffix(last, "top error") && !strings.Contains(last, "HTTP 404 Not Found") {
		t.Errorf("stderr's last line %q, want %q… naming the top error HTTP 404", last, want)
	}
	if first := strings.TrimSpace(stdout); !strings.HasPrefix(first, "✗ FAILED http.Request: no successful operation") {
		t.Errorf("the summary does not start with the verdict:\n%s", stdout)
	}
	if !strings.Contains(stdout, "verdict: failed") {
		t.Errorf("the overview lacks the verdict:\n%s", stdout)
	}
	d := readSummary(t, dir)
	sc := d.Stampede.Verdict.Scenarios["http.Request"]
	if d.Stampede.Verdict.Status != "failed" || sc.Status != "failed" || len(sc.Reasons) == 0 || sc.Reasons[0].Rule != "no_successful_operation" {
		t.Errorf("summary.json verdict %+v", d.Stampede.Verdict)
	}
}

// TestVerdictDegradedHeadline: a run that measured something, but not all
// that was asked, exits 0 with a DEGRADED headline naming why: one request
// in 10 failing (failed operations > 1%), and an arrival rate one VU
// cannot reach (rate missed). With the degraded headline removed from the
// console summary (or the 1% / 5% rules loosened to 50%), it fails.
func TestVerdictDegradedHeadline(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			time.Sleep(20 * time.Millisecond)
			return
		}
		if n.Add(1)%10 == 0 {
			w.WriteHeader(http.StatusInternalServerError)
		}
	}))
	defer srv.Close()
	for _, tc := range []struct {
		name string
		args []string
		head string
		rule string
	}{
		{"failed operations", []string{"--target", srv.URL + "/", "-u", "2", "-d", "1s"},
			"! DEGRADED http.Request: ", "failed_operations"},
		// 1 VU at 20 ms a request reaches about 50/s of the 500/s asked.
		{"rate missed", []string{"--target", srv.URL + "/slow", "--rate", "500", "-u", "1", "--max-vus", "1", "-d", "1s"},
			"! DEGRADED http.Request: rate missed:", "rate_missed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "r")
			args := append([]string{"run", "http.Request", "--out", dir, "--no-report", "-q"}, tc.args...)
			code, stdout, stderr := runMain(t, t.Context(), args...)
			if code != 0 {
				t.Fatalf("exit %d, want 0 (degraded is not a failure)\nstderr: %s", code, stderr)
			}
			if first := strings.TrimSpace(stdout); !strings.HasPrefix(first, tc.head) {
				t.Errorf("the summary does not start with %q:\n%s", tc.head, stdout)
			}
			if !strings.Contains(stdout, "verdict: degraded") {
				t.Errorf("the overview lacks the verdict:\n%s", stdout)
			}
			d := readSummary(t, dir)
			sc := d.Stampede.Verdict.Scenarios["http.Request"]
			if sc.Status != "degraded" || len(sc.Reasons) == 0 || sc.Reasons[0].Rule != tc.rule {
				t.Errorf("summary.json verdict %+v, want degraded by %s first", sc, tc.rule)
			}
		})
	}
}

// TestOneFailureCountTargetKilled: an HTTP target killed mid-run gives
// one failure count everywhere: errors, requests_failed, http_req_failed,
// the error breakdown and the CSV's isSucceed=false rows (it used to
// give errors 272, http_req_failed 270, top error 266×).
func TestOneFailureCountTargetKilled(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	go func() {
		time.Sleep(500 * time.Millisecond)
		srv.CloseClientConnections()
		srv.Close()
	}()
	dir := filepath.Join(t.TempDir(), "r")
	csvPath := filepath.Join(dir, "requests.csv")
	code, _, stderr := runMain(t, t.Context(), "run", "http.Request", "--target", srv.URL+"/", "-u", "8", "-d", "2s",
		"--backoff", "5ms", "--backoff-max", "20ms", "--out", dir, "--csv", csvPath, "--no-report", "-q")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	d := readSummary(t, dir)
	errs := d.Metrics["errors"].Count
	var breakdown int64
	for _, n := range d.Stampede.Errors["http.Request"] {
		breakdown += n
	}
	f, err := os.Open(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var csvFailed int64
	for _, r := range rows[1:] {
		if r[4] == "false" {
			csvFailed++
		}
	}
	counts := map[string]int64{
		"errors": errs, "requests_failed": d.Metrics["requests_failed"].Passes,
		"http_req_failed": d.Metrics["http_req_failed"].Passes, "error breakdown": breakdown, "CSV isSucceed=false": csvFailed,
	}
	for _, n := range counts {
		if n != errs || n == 0 {
			t.Errorf("failure counts differ or are zero: %v", counts)
			break
		}
	}
}
