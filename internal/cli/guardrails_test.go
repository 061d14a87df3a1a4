package cli

import (
	"context"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// listFiles returns every file and directory below root, relative.
func listFiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && p != root {
			rel, _ := filepath.Rel(root, p)
			out = append(out, rel)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// TestGuardRailsRefuse is issue #11's table of inputs a new user types in
// the first week: each is refused with one line and exit 2 before any
// expensive work, from an empty working directory that stays empty.
func TestGuardRailsRefuse(t *testing.T) {
	tmp := t.TempDir()
	emptyData := filepath.Join(tmp, "empty-data")
	os.Mkdir(emptyData, 0o755)
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	manifest := filepath.Join(tmp, "job.yaml")
	huge := hugeInputs(t, tmp)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"a billion VUs", []string{"run", "builtin.Noop", "-u", "1000000000", "-d", "1s"}, "VUs fit"},
		{"a billion VUs at a rate", []string{"run", "builtin.Noop", "--rate", "10", "-u", "10", "--max-vus", "1000000000", "-d", "1s"}, "VUs fit"},
		{"a billion VUs ramping", []string{"run", "builtin.Noop", "-s", "1s:1000000000"}, "VUs fit"},
		{"graph defaults on an http target", []string{"run", "--target", "http://127.0.0.1:1/", "--sf", "10"}, "graph scenarios need a sqlite://, postgres:// or nebula:// target"},
		{"unknown threshold metric", []string{"run", "go.Go1Step", "--threshold", "nope: p(95)<1", "-d", "1s"}, `unknown metric "nope"`},
		{"threshold statistic misfit", []string{"run", "builtin.Noop", "--threshold", "iterations: p(95)<1", "-d", "1s"}, "does not apply"},
		{"threshold on an unknown scenario", []string{"run", "builtin.Noop", "--threshold", "responseTime{scenario:go.Nope}: p(95)<1", "-d", "1s"}, "unknown scenario"},
		{"empty --data", []string{"run", "go.Go1Step", "--data", emptyData, "-d", "1s"}, "holds no LDBC data set"},
		{"missing --data", []string{"run", "go.Go1Step", "--data", filepath.Join(tmp, "nope"), "-d", "1s"}, "holds no LDBC data set"},
		{"-u 0", []string{"run", "builtin.Noop", "-u", "0", "-d", "1s"}, "vus ≥ 1"},
		{"warm-up longer than the run", []string{"run", "builtin.Noop", "--warmup", "5s", "-d", "1s"}, "warmup (5s) must be shorter than the duration (1s)"},
		{"warm-up as long as the run", []string{"run", "builtin.Noop", "--warmup", "1s", "-d", "1s"}, "must be shorter"},
		{"--time-unit 0", []string{"run", "builtin.Noop", "--rate", "5", "--time-unit", "0", "-d", "1s"}, "--time-unit 0s: must be > 0"},
		{"--max-vus below --vus", []string{"run", "builtin.Noop", "--rate", "5", "--max-vus", "1", "-u", "50", "-d", "1s"}, "--max-vus 1 is below -u/--vus 50"},
		{"--rate 0", []string{"run", "builtin.Noop", "--rate", "0", "-d", "1s"}, "--rate 0"},
		{"-d 0", []string{"run", "builtin.Noop", "-d", "0s"}, "-d/--duration 0s"},
		{"-i 0", []string{"run", "builtin.Noop", "-i", "0"}, "-i/--iterations 0"},
		{"negative backoff", []string{"run", "builtin.Noop", "--backoff", "-1s", "-d", "1s"}, "must not be negative"},
		{"--csv unwritable", []string{"run", "builtin.Noop", "-d", "1s", "--csv", "/proc/stampede/requests.csv"}, "--csv /proc/stampede/requests.csv"},
		{"--csv a directory", []string{"run", "builtin.Noop", "-d", "1s", "--csv", tmp}, "is a directory"},
		{"--summary-export unwritable", []string{"run", "builtin.Noop", "-d", "1s", "--summary-export", "/proc/stampede/s.json"}, "--summary-export"},
		{"--out unwritable", []string{"run", "builtin.Noop", "-d", "1s", "--out", "/proc/stampede/res"}, "--out /proc/stampede/res"},
		{"--prometheus on a busy port", []string{"run", "builtin.Noop", "-d", "1s", "--prometheus", busy.Addr().String()}, "address already in use"},
		{"unreachable http target", []string{"run", "http.Request", "-d", "1s", "--target", "http://127.0.0.1:1/"}, "unreachable"},
		{"gen nope", []string{"gen", "nope"}, `unknown command "nope" for "stampede gen"`},
		{"k8s nope", []string{"k8s", "nope"}, `unknown command "nope" for "stampede k8s"`},
		{"unknown command", []string{"nope"}, `unknown command "nope"`},
		{"manifest with an unknown scenario", []string{"k8s", "manifest", "-n", "2", "--image", "x", "-o", manifest, "--", "go.Nope"}, `unknown scenario "go.Nope"`},
		{"manifest with -u 0", []string{"k8s", "manifest", "-n", "2", "--image", "x", "-o", manifest, "--", "builtin.Noop", "-u", "0"}, "vus ≥ 1"},
		{"manifest with a bad pull policy", []string{"k8s", "manifest", "-n", "2", "--image", "x", "-o", manifest, "--pull-policy", "Sometimes", "--", "builtin.Noop"}, `--pull-policy "Sometimes"`},
	}
	tests = append(tests, guardRails2Rows(huge)...)
	if pg := os.Getenv("STAMPEDE_TEST_POSTGRES"); pg != "" {
		wrong := strings.Replace(pg, "://stampede:stampede-test-pw@", "://stampede:wrong-pw@", 1)
		tests = append(tests, struct {
			name string
			args []string
			want string
		}{"wrong PostgreSQL password", []string{"run", "go.Go1Step", "--target", wrong, "-d", "1s"}, "password authentication failed"})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cwd := t.TempDir()
			t.Chdir(cwd)
			start := time.Now()
			code, stdout, stderr := runMain(t, t.Context(), tc.args...)
			if code != ExitUsage {
				t.Errorf("exit %d, want 2; stderr: %s", code, stderr)
			}
			if !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
				t.Errorf("stderr %q, want one line with %q", stderr, tc.want)
			}
			if stdout != "" {
				t.Errorf("stdout %q", stdout)
			}
			if strings.Contains(stderr, "wrong-pw") {
				t.Errorf("password in the message: %s", stderr)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %s to refuse", d)
			}
			if left := listFiles(t, cwd); len(left) > 0 {
				t.Errorf("left behind in the working directory: %v", left)
			}
			if left := listFiles(t, emptyData); len(left) > 0 {
				t.Errorf("wrote into the user's --data directory: %v", left)
			}
			if _, err := os.Stat(manifest); err == nil {
				t.Errorf("a refused manifest was written")
			}
		})
	}
}

// TestGuardRailsFlagsNotChanged: what the user asked for is what runs.
func TestGuardRailsFlagsNotChanged(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "r")
	code, _, stderr := runMain(t, t.Context(), "run", "builtin.Noop", "--rate", "20", "-u", "2", "--max-vus", "3", "--time-unit", "500ms", "-d", "1s", "--warmup", "200ms", "--out", dir, "-q", "--no-report")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "options.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"maxVUs": 3`, `"preAllocatedVUs": 2`, `"timeUnit": 500000000`, `"warmup": 200000000`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("options.json lacks %s:\n%s", want, b)
		}
	}
}

// TestGuardRailsDataFromAnyDirectory: --data DIR works from a directory
// without ./stampede-data and leaves DIR as it was.
func TestGuardRailsDataFromAnyDirectory(t *testing.T) {
	data := filepath.Join(t.TempDir(), "ldbc")
	if code, _, stderr := runMain(t, t.Context(), "gen", "ldbc", "--sf", "0.1", "--out", data); code != 0 {
		t.Fatalf("gen: exit %d: %s", code, stderr)
	}
	before := listFiles(t, data)
	t.Chdir(t.TempDir())
	code, _, stderr := runMain(t, t.Context(), "run", "go.Go1Step", "--data", data, "-i", "20", "-u", "2", "-q", "--no-report", "--out", filepath.Join(t.TempDir(), "r"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if after := listFiles(t, data); strings.Join(after, ",") != strings.Join(before, ",") {
		t.Errorf("the --data directory changed:\nbefore %v\nafter  %v", before, after)
	}
}

// TestGuardRailsTargetDies: a target that dies mid-run is the headline of
// the summary, its VUs back off instead of spinning, and the run ends by
// itself with valid outputs.
func TestGuardRailsTargetDies(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	addr := srv.Listener.Addr().String()
	go func() {
		time.Sleep(700 * time.Millisecond)
		srv.CloseClientConnections()
		srv.Close()
	}()
	dir := filepath.Join(t.TempDir(), "r")
	code, stdout, stderr := runMain(t, t.Context(), "run", "http.Request", "--target", "http://"+addr+"/", "-u", "4", "-d", "3s",
		"--backoff", "20ms", "--backoff-max", "200ms", "--out", dir, "--no-report")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	first := strings.TrimSpace(stdout)
	// Requests succeeded before the target died: degraded, not failed
	// (the verdict), and headlined.
	if !strings.HasPrefix(first, "! DEGRADED http.Request") {
		t.Errorf("the summary does not start with the failure:\n%s", stdout)
	}
	if !strings.Contains(stdout, "connection refused") || !strings.Contains(stdout, addr) {
		t.Errorf("the cause is not shown in full:\n%s", stdout)
	}
	if !strings.Contains(stdout, "target unreachable") {
		t.Errorf("no note on the VUs backing off:\n%s", stdout)
	}
	b, err := os.ReadFile(filepath.Join(dir, "summary.txt"))
	if err != nil || !strings.HasPrefix(strings.TrimSpace(string(b)), "! DEGRADED") {
		t.Errorf("summary.txt: %v\n%s", err, b)
	}
}

// TestGuardRailsMergeUnrelated: merging unrelated runs is refused unless
// --force.
func TestGuardRailsMergeUnrelated(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	root := t.TempDir()
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	for _, args := range [][]string{
		{"run", "builtin.Noop", "-i", "50", "--out", a, "-q", "--no-report"},
		{"run", "http.Request", "--target", srv.URL, "-i", "20", "--out", b, "-q", "--no-report"},
	} {
		if code, _, stderr := runMain(t, context.Background(), args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}
	out := filepath.Join(root, "m")
	code, _, stderr := runMain(t, context.Background(), "merge", a, b, "-o", out, "-q")
	if code != ExitUsage || !strings.Contains(stderr, "--force") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a refused merge created %s", out)
	}
	if code, _, stderr := runMain(t, context.Background(), "merge", a, b, "-o", out, "-q", "--force"); code != 0 {
		t.Errorf("--force: exit %d: %s", code, stderr)
	}
}

// TestGuardRailsInterruptDuringAllocation: Ctrl+C while a large plan's VUs
// are being allocated stops the run at once.
func TestGuardRailsInterruptDuringAllocation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	dir := filepath.Join(t.TempDir(), "r")
	code, _, stderr := runMain(t, ctx, "run", "builtin.Sleep", "--sleep", "10s", "-u", "300000", "-d", "1m", "--no-csv", "--no-report", "-q", "--out", dir)
	if code != ExitInterrupted {
		t.Errorf("exit %d, want 130: %s", code, stderr)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("stopped after %s", d)
	}
}

// TestGuardRailsSecrets plants credentials in a target URL, secret headers
// (Authorization, Cookie, X-Api-Key, one marked with --secret-header), a
// secret flag and the environment, then greps every byte that run, merge,
// sweep, compare, report and k8s manifest wrote.
func TestGuardRailsSecrets(t *testing.T) {
	const (
		pw     = "PLANTED-url-pw-1"
		bearer = "PLANTED-bearer-2"
		cookie = "PLANTED-cookie-3"
		apiKey = "PLANTED-apikey-4"
		marked = "PLANTED-marked-5"
		token  = "PLANTED-token-6"
	)
	secrets := []string{pw, bearer, cookie, apiKey, marked, token}
	var seenAuth bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seenAuth = seenAuth || r.Header.Get("Authorization") == "Bearer "+bearer
	}))
	defer srv.Close()
	t.Setenv("STAMPEDE_INFLUX_TOKEN", token)
	target := strings.Replace(srv.URL, "http://", "http://admin:"+pw+"@", 1) + "/?token=" + token
	headers := []string{
		"--header", "Authorization: Bearer " + bearer,
		"--header=Cookie: session=" + cookie,
		"--header", "X-Api-Key: " + apiKey,
		"--header", "X-Custom: " + marked, "--secret-header", "X-Custom",
	}
	root := t.TempDir()
	var console strings.Builder
	run := func(args ...string) {
		t.Helper()
		code, stdout, stderr := runMain(t, context.Background(), args...)
		console.WriteString(stdout + stderr)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args[0], code, stderr)
		}
	}
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	for _, dir := range []string{a, b} {
		run(append([]string{"run", "http.Request", "--target", target, "-i", "20", "-u", "2", "--out", dir}, headers...)...)
	}
	if !seenAuth {
		t.Error("the Authorization header did not reach the target")
	}
	run("merge", a, b, "-o", filepath.Join(root, "merged"))
	run(append([]string{"sweep", "http.Request", "--target", target, "--vus", "1,2", "-i", "10", "--out", filepath.Join(root, "sweep")}, headers...)...)
	run("compare", a, b)
	run("report", a, b, "-o", filepath.Join(root, "report.html"))
	run(append([]string{"k8s", "manifest", "-n", "2", "--image", "x", "-o", filepath.Join(root, "job.yaml"), "--",
		"http.Request", "--target", target}, headers...)...)

	for _, s := range secrets {
		if strings.Contains(console.String(), s) {
			t.Errorf("console output holds %s", s)
		}
	}
	files := listFiles(t, root)
	if len(files) < 20 {
		t.Fatalf("only %d files written: %v", len(files), files)
	}
	for _, f := range files {
		p := filepath.Join(root, f)
		if st, err := os.Stat(p); err != nil || st.IsDir() {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range secrets {
			if strings.Contains(string(data), s) {
				t.Errorf("%s holds %s", f, s)
			}
		}
	}
	job, err := os.ReadFile(filepath.Join(root, "job.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"$(STAMPEDE_CRED_1)", "secretKeyRef", "stampede-credentials"} {
		if !strings.Contains(string(job), want) {
			t.Errorf("manifest lacks %s:\n%s", want, job)
		}
	}
}

// TestGuardRailsSecretFile: --secret-file writes the credentials the
// manifest refers to, readable by the user only.
func TestGuardRailsSecretFile(t *testing.T) {
	dir := t.TempDir()
	job, sec := filepath.Join(dir, "job.yaml"), filepath.Join(dir, "secret.yaml")
	code, _, stderr := runMain(t, context.Background(), "k8s", "manifest", "-n", "2", "--image", "x", "--name", "bench", "-o", job, "--secret-file", sec,
		"--", "go.Go1Step", "--target=postgres://u:PLANTED-pw@db:5432/ldbc")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	j, _ := os.ReadFile(job)
	s, err := os.ReadFile(sec)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(j), "PLANTED") || !strings.Contains(string(j), "--target=$(STAMPEDE_CRED_1)") || !strings.Contains(string(j), "name: bench-credentials") {
		t.Errorf("job:\n%s", j)
	}
	if !strings.Contains(string(s), "STAMPEDE_CRED_1: postgres://u:PLANTED-pw@db:5432/ldbc") || !strings.Contains(string(s), "kind: Secret") {
		t.Errorf("secret:\n%s", s)
	}
	if st, _ := os.Stat(sec); st.Mode().Perm() != 0o600 {
		t.Errorf("secret file mode %v", st.Mode().Perm())
	}
	if strings.Contains(stderr, "PLANTED") {
		t.Errorf("stderr: %s", stderr)
	}
}
