package cli

import (
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/k8s"
	"github.com/stampede-bench/stampede/internal/run"
	"github.com/stampede-bench/stampede/internal/secret"
)

// TestSecretTagsRedacted plants secrets in tags (one named like a token,
// one marked with --secret-tag) and in a header marked with
// --secret-header, then greps every file the run wrote: the result
// directory, report.html and the k6 JSON and CSV streams. The names stay
// (a header name is never redacted), the values never appear.
func TestSecretTagsRedacted(t *testing.T) {
	const (
		tokenValue  = "tok-VALUE-90817"
		markedValue = "build-VALUE-55123"
		headerValue = "hdr-VALUE-33179"
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "res")
	streams := filepath.Join(tmp, "streams")
	os.Mkdir(streams, 0o755)
	code, stdout, stderr := runMain(t, t.Context(), "run", "http.Request", "--target", srv.URL+"/", "-i", "30", "-u", "2",
		"--tag", "apitoken="+tokenValue, "--tag", "build="+markedValue, "--secret-tag", "build", "--tag", "team=blue",
		"--secret-header", "X-Custom", "--header", "X-Custom: "+headerValue,
		"--out", dir, "--out", "json="+filepath.Join(streams, "k6.json"), "--out", "csv="+filepath.Join(streams, "k6.csv"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	all := map[string]string{"stdout": stdout, "stderr": stderr}
	for _, root := range []string{dir, streams} {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				b, rerr := os.ReadFile(p)
				if rerr != nil {
					t.Fatal(rerr)
				}
				all[p] = string(b)
			}
			return nil
		})
	}
	for _, want := range []string{"options.json", "summary.json", "report.html", "k6.json", "k6.csv"} {
		found := false
		for p := range all {
			found = found || filepath.Base(p) == want
		}
		if !found {
			t.Errorf("no %s written", want)
		}
	}
	for where, text := range all {
		for _, secret := range []string{tokenValue, markedValue, headerValue} {
			if strings.Contains(text, secret) {
				t.Errorf("%s holds the secret %s", where, secret)
			}
		}
	}
	opts := all[filepath.Join(dir, "options.json")]
	for _, want := range []string{"X-Custom", "apitoken=xxxxx", "build=xxxxx", "team=blue"} {
		if !strings.Contains(opts, want) {
			t.Errorf("options.json lacks %q", want)
		}
	}
	if !strings.Contains(all[filepath.Join(dir, "summary.json")], `"team": "blue"`) && !strings.Contains(all[filepath.Join(dir, "summary.json")], `"team":"blue"`) {
		t.Errorf("summary.json lost the ordinary tag team=blue")
	}
}

// TestRedactArgsNamesAndTags: a header name given to --secret-header is
// kept, its value hidden; secret tags lose their values, other tags keep
// them; a k8s manifest moves secret tag values into the Secret.
func TestRedactArgsNamesAndTags(t *testing.T) {
	args := []string{"http.Request", "--secret-header", "X-Custom", "--header", "X-Custom: v1", "--secret-tag=build",
		"--tag", "apitoken=v2", "--tag=build=v3", "--tag", "team=blue", "--secret-file", "creds.yaml"}
	got := strings.Join(secret.RedactArgs(args), " ")
	want := "http.Request --secret-header X-Custom --header X-Custom: xxxxx --secret-tag=build --tag apitoken=xxxxx --tag=build=xxxxx --tag team=blue --secret-file creds.yaml"
	if got != want {
		t.Errorf("redactArgs:\n got %s\nwant %s", got, want)
	}
	out, creds := k8s.MoveCredentials(args)
	joined := strings.Join(out, " ")
	for _, secret := range []string{"v1", "v2", "v3"} {
		if strings.Contains(joined, "="+secret) || strings.Contains(joined, ": "+secret) {
			t.Errorf("manifest args hold %s: %s", secret, joined)
		}
	}
	if len(creds) != 3 || !strings.Contains(joined, "team=blue") {
		t.Errorf("creds %v, args %s", creds, joined)
	}
	if tags := secret.RedactTags(map[string]string{"apitoken": "a", "db_password": "b", "build": "c", "team": "d"}, []string{"build"}); tags["apitoken"] != "xxxxx" ||
		tags["db_password"] != "xxxxx" || tags["build"] != "xxxxx" || tags["team"] != "d" {
		t.Errorf("redactTags: %v", tags)
	}
	if err := run.CheckTagNames(map[string]string{"scenario": "x"}); err == nil {
		t.Errorf("scenario tag accepted")
	}
	if err := run.CheckTagNames(map[string]string{"testid": "x", "env": "ci"}); err != nil {
		t.Errorf("ordinary tags refused: %v", err)
	}
}
