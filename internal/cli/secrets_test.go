package cli

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// No credential given in a target URL, a flag or the environment appears in
// any output, log or file of the result directory.
func TestNoCredentialInOutputs(t *testing.T) {
	const secret = "s3cr3t-pw-4711"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/fail" {
			http.Error(w, "no", 500)
		}
	}))
	defer srv.Close()
	target := strings.Replace(srv.URL, "http://", "http://admin:"+secret+"@", 1) + "/fail?token=" + secret
	dir := filepath.Join(t.TempDir(), "res")
	t.Setenv("STAMPEDE_INFLUX_TOKEN", secret)
	code, stdout, stderr := runMain(t, t.Context(), "run", "http.Request", "--target", target, "-i", "20", "-u", "2", "--out", dir)
	if code != ExitRunError { // every request fails: the run failed (its one line checked below too)
		t.Fatalf("exit %d, want 1: %s", code, stderr)
	}
	check := func(where, text string) {
		if strings.Contains(text, secret) {
			t.Errorf("%s contains the secret", where)
		}
	}
	check("stdout", stdout)
	check("stderr", stderr)
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) < 5 {
		t.Fatalf("result dir has %d files", len(files))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		check(filepath.Base(f), string(b))
	}
	// Unreachable targets are reported without the password too.
	code, _, stderr = runMain(t, t.Context(), "run", "http.Request", "--target", "http://admin:"+secret+"@127.0.0.1:1/", "-d", "1s", "--out", filepath.Join(t.TempDir(), "x"))
	if code != ExitUsage {
		t.Errorf("exit %d", code)
	}
	check("unreachable error", stderr)
}
