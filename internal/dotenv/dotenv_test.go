package dotenv

import (
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
	get, err := Getenv(func(k string) string { return env[k] }, path)
	if err != nil {
		t.Fatal(err)
	}
	if get("PGPASSWORD") != "from-file" || get("PGUSER") != "env-user" || get("NOPE") != "" {
		t.Errorf("got %q %q %q", get("PGPASSWORD"), get("PGUSER"), get("NOPE"))
	}
	if _, err := Getenv(os.Getenv, filepath.Join(dir, "missing")); err != nil {
		t.Errorf("missing .env: %v", err)
	}
	os.WriteFile(path, []byte("BROKEN LINE WITHOUT EQUALS\n"), 0o600)
	if _, err := Getenv(os.Getenv, path); err == nil {
		t.Error("broken .env accepted")
	}
}

// TestDotenvBounded: a .env past bounded.ConfigBytes (here a sparse file)
// is refused with one line instead of read into memory.
func TestDotenvBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".env")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, bounded.ConfigBytes+1); err != nil { // sparse
		t.Fatal(err)
	}
	if _, err := Getenv(os.Getenv, path); !bounded.IsTooLarge(err) {
		t.Fatalf("huge .env: %v", err)
	}
	if _, err := Getenv(os.Getenv, "/dev/zero"); !bounded.IsTooLarge(err) {
		t.Fatalf("endless .env: %v", err)
	}
}
