package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	pprofile "github.com/google/pprof/profile"

	"github.com/stampede-bench/stampede/internal/testenv"
)

// writeCPUProfile records a short real CPU profile into path.
func writeCPUProfile(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		testenv.Missing(t, "cannot profile: %v", err)
	}
	x := uint64(1)
	for end := time.Now().Add(200 * time.Millisecond); time.Now().Before(end); {
		for i := 0; i < 100000; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	pprof.StopCPUProfile()
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	_ = x
}

func TestProfileMerge(t *testing.T) {
	dir := t.TempDir()
	profiles := filepath.Join(dir, "profiles")
	if err := os.Mkdir(profiles, 0o755); err != nil {
		t.Fatal(err)
	}
	writeCPUProfile(t, filepath.Join(profiles, "go.Go1Step.cpu.pprof"))
	writeCPUProfile(t, filepath.Join(profiles, "go.Go2Step.cpu.pprof"))
	notProfile := filepath.Join(dir, "notes.pprof")
	if err := os.WriteFile(notProfile, []byte("just text"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "default.pgo")

	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStdout string // substring
		wantStderr string // substring of the single stderr line
	}{
		{
			name:       "directory into default.pgo",
			args:       []string{"profile", "merge", profiles, "-o", out},
			wantStdout: "merged 2 profiles (",
		},
		{
			name:       "files, long flag",
			args:       []string{"profile", "merge", filepath.Join(profiles, "go.Go1Step.cpu.pprof"), filepath.Join(profiles, "go.Go2Step.cpu.pprof"), "--output", out},
			wantStdout: "samples) into " + out,
		},
		{
			name:       "no inputs",
			args:       []string{"profile", "merge"},
			wantCode:   ExitUsage,
			wantStderr: "stampede: profile merge: give at least one profile file or directory",
		},
		{
			name:       "not a profile names the file",
			args:       []string{"profile", "merge", profiles, notProfile, "-o", out},
			wantCode:   ExitUsage,
			wantStderr: notProfile + ": not a pprof profile",
		},
		{
			name:       "missing input",
			args:       []string{"profile", "merge", filepath.Join(dir, "nope")},
			wantCode:   ExitUsage,
			wantStderr: "no such file or directory",
		},
		{
			name:       "unwritable output is a run error",
			args:       []string{"profile", "merge", profiles, "-o", filepath.Join(dir, "no", "such", "dir", "x.pgo")},
			wantCode:   ExitRunError,
			wantStderr: "stampede: profile merge: writing profile",
		},
		{
			name:       "unknown subcommand",
			args:       []string{"profile", "split"},
			wantCode:   ExitUsage,
			wantStderr: `unknown command "split"`,
		},
		{
			name:       "bare profile shows help",
			args:       []string{"profile"},
			wantStdout: "merge",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Main(context.Background(), tt.args, &stdout, &stderr)
			if code != tt.wantCode {
				t.Fatalf("exit code = %d, want %d; stderr: %s", code, tt.wantCode, stderr.String())
			}
			if !strings.Contains(stdout.String(), tt.wantStdout) {
				t.Errorf("stdout = %q, want it to contain %q", stdout.String(), tt.wantStdout)
			}
			if tt.wantStderr == "" {
				if stderr.Len() != 0 {
					t.Errorf("stderr = %q, want nothing", stderr.String())
				}
				return
			}
			if got := stderr.String(); !strings.Contains(got, tt.wantStderr) || strings.Count(got, "\n") != 1 {
				t.Errorf("stderr = %q, want one line containing %q", got, tt.wantStderr)
			}
		})
	}

	// The merged file is a valid gzipped profile holding both inputs.
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		t.Errorf("%s is not gzip-compressed", out)
	}
	p, err := pprofile.ParseData(data)
	if err != nil {
		t.Fatalf("%s: %v", out, err)
	}
	if len(p.Sample) == 0 {
		t.Errorf("%s has no samples", out)
	}
}
