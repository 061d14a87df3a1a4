// Package testenv decides, in one place, what a test does when something
// it needs from outside the process is missing (a server, a binary, a
// kernel feature, a data set): on a developer's machine it skips, in CI it
// fails. CI is "the variable CI is set to anything non-empty", the
// convention of GitHub Actions, GitLab CI and most other runners; a test
// needing a server therefore never passes in CI by skipping.
package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
)

// Env names the variable that marks a CI run.
const Env = "CI"

// InCI reports whether getenv says the tests run in CI: Env non-empty.
func InCI(getenv func(string) string) bool { return getenv(Env) != "" }

// Missing ends t because something it needs is absent: t.Fatalf in CI
// (InCI(os.Getenv)), t.Skipf elsewhere. The message says what is missing
// and how to get it.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	missing(t, os.Getenv, format, args...)
}

// fataler is what missing needs of a testing.TB (a fake in the tests).
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
	Skipf(format string, args ...any)
}

func missing(t fataler, getenv func(string) string, format string, args ...any) {
	t.Helper()
	if InCI(getenv) {
		t.Fatalf("%s (%s=%q: a test that needs it fails in CI, never skips)", fmt.Sprintf(format, args...), Env, getenv(Env))
		return
	}
	t.Skipf(format, args...)
}

// ChromiumEnv names the variable holding the headless browser for the
// page tests (the HTML report, the web dashboard).
const ChromiumEnv = "STAMPEDE_CHROMIUM"

// Chromium returns the browser for the page tests: $STAMPEDE_CHROMIUM or
// /usr/bin/chromium. Without one the test is ended by Missing (skipped
// locally, failed in CI: scripts/test.sh installs Debian's chromium).
func Chromium(t testing.TB) string {
	t.Helper()
	bin := os.Getenv(ChromiumEnv)
	if bin == "" {
		bin = "/usr/bin/chromium"
	}
	if _, err := exec.LookPath(bin); err != nil {
		Missing(t, "no Chromium at %s (set %s or apt-get install chromium)", bin, ChromiumEnv)
	}
	return bin
}
