package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHTTPGet runs the program: the http family, opened with only the
// drivers it registers itself, measures requests that all pass.
func TestHTTPGet(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "r")
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"-d", "1s", "-out", dir}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, "snapshot.json"))
	if err != nil {
		t.Fatal(err)
	}
	var snap struct {
		Scenarios []struct {
			Counters map[string]int64 `json:"counters"`
		} `json:"scenarios"`
	}
	if err := json.Unmarshal(b, &snap); err != nil || len(snap.Scenarios) != 1 {
		t.Fatalf("snapshot: %v", err)
	}
	if c := snap.Scenarios[0].Counters; c["requests"] < 1 || c["errors"] != 0 {
		t.Errorf("counters %v", c)
	}
	if !strings.Contains(out.String(), "http.Request") {
		t.Errorf("summary:\n%s", out.String())
	}
}
