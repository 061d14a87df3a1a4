package cli

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stampede-bench/stampede/internal/bounded"
)

func TestDotenv(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".env")
	os.WriteFile(path, []byte("PGPASSWORD=from-file\nPGUSER=file-user\n"), 0o600)
	env := map[string]string{"PGUSER": "env-user"}
	get, err := withDotenv(func(k string) string { return env[k] }, path)
	if err != nil {
		t.Fatal(err)
	}
	if get("PGPASSWORD") != "from-file" || get("PGUSER") != "env-user" || get("NOPE") != "" {
		t.Errorf("got %q %q %q", get("PGPASSWORD"), get("PGUSER"), get("NOPE"))
	}
	if _, err := withDotenv(os.Getenv, filepath.Join(dir, "missing")); err != nil {
		t.Errorf("missing .env: %v", err)
	}
	os.WriteFile(path, []byte("BROKEN LINE WITHOUT EQUALS\n"), 0o600)
	if _, err := withDotenv(os.Getenv, path); err == nil {
		t.Error("broken .env accepted")
	}
}

func TestOneLine(t *testing.T) {
	err := errors.New("cannot connect: first\n  second  try\nfirst")
	if got := oneLine(err); got != "cannot connect: first; second try; first" {
		t.Errorf("oneLine = %q", got)
	}
	if got := oneLine(errors.New("a\nb\nb")); got != "a; b" {
		t.Errorf("oneLine dedupe = %q", got)
	}
}

func TestOneLineAfterColon(t *testing.T) {
	if got := oneLine(errors.New("failed to connect:\nhost a: refused\nhost a: refused")); got != "failed to connect: host a: refused" {
		t.Errorf("oneLine = %q", got)
	}
}

// TestDotenvBounded: a .env past bounded.ConfigBytes (here a sparse file)
// is refused with one line instead of read into memory.
func TestDotenvBounded(t *testing.T) {
	path := sparse(t, filepath.Join(t.TempDir(), ".env"), bounded.ConfigBytes+1)
	if _, err := withDotenv(os.Getenv, path); !bounded.IsTooLarge(err) {
		t.Fatalf("huge .env: %v", err)
	}
	if _, err := withDotenv(os.Getenv, "/dev/zero"); !bounded.IsTooLarge(err) {
		t.Fatalf("endless .env: %v", err)
	}
}
