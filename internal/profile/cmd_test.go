//go:build unix

package profile

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// waitFor polls cond until it holds or 5 s pass: the command is a real
// process, so there is no clock to fake.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func readString(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

// exited waits until the running command of c has exited by itself.
func exited(t *testing.T, c *CmdCollector) {
	t.Helper()
	select {
	case <-c.run.done:
	case <-time.After(5 * time.Second):
		t.Fatal("command did not exit")
	}
}

func TestCmdCollectorLifecycle(t *testing.T) {
	// Like perf record: runs until Ctrl+C, then finishes its file. The
	// trap is double-quoted because {out} (it has a space) becomes a
	// single-quoted word.
	c := &CmdCollector{
		Command: `trap "echo stopped >> {out}; exit 0" INT; echo started > {out}; while :; do sleep 0.05; done`,
	}
	dir := filepath.Join(t.TempDir(), "with space")
	ctx := context.Background()
	if err := c.Start(ctx, Scope{Scenario: "go.Go1Step", Dir: dir}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "go.Go1Step.perf.data")
	waitFor(t, "the command to start", func() bool { return readString(out) == "started\n" })
	if err := c.Start(ctx, Scope{Scenario: "again", Dir: dir}); err == nil {
		t.Error("second Start while recording succeeded")
	}
	files, err := c.Stop(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0] != out {
		t.Errorf("files = %v, want [%s]", files, out)
	}
	if got := readString(out); got != "started\nstopped\n" {
		t.Errorf("marker = %q, want started then stopped", got)
	}
	if _, err := c.Stop(ctx); err == nil {
		t.Error("Stop without Start succeeded")
	}
}

func TestCmdCollectorFailures(t *testing.T) {
	tests := []struct {
		name          string
		command       string
		exitsByItself bool
		wantText      []string
	}{
		{
			name:          "exits early with failure after Start",
			command:       `sleep 0.1; echo "perf: no such pid" >&2; exit 3`,
			exitsByItself: true,
			wantText:      []string{`"s": command exited early: exit status 3; stderr: perf: no such pid`},
		},
		{
			name:     "fails when interrupted",
			command:  `trap 'echo line1 >&2; echo cannot write data >&2; exit 4' INT; touch {out}; while :; do sleep 0.05; done`,
			wantText: []string{"command failed: exit status 4", "stderr: line1 | cannot write data"},
		},
		{
			name:     "ignores SIGINT and is killed",
			command:  `trap '' INT; touch {out}; while :; do sleep 0.05; done`,
			wantText: []string{"did not exit within 200ms of SIGINT and was killed"},
		},
		{
			name:     "does not write {out}",
			command:  `trap 'exit 0' INT; touch {out}.tmp; while :; do sleep 0.05; done`,
			wantText: []string{"command wrote no ", "s.perf.data"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &CmdCollector{Command: tt.command, StopTimeout: 200 * time.Millisecond, Settle: 50 * time.Millisecond}
			dir := t.TempDir()
			if err := c.Start(context.Background(), Scope{Scenario: "s", Dir: dir}); err != nil {
				t.Fatal(err)
			}
			if tt.exitsByItself {
				exited(t, c)
			} else {
				waitFor(t, "the command to start", func() bool {
					m, _ := filepath.Glob(filepath.Join(dir, "s.perf.data*"))
					return len(m) > 0
				})
			}
			files, err := c.Stop(context.Background())
			if err == nil {
				t.Fatalf("Stop = %v, nil; want an error", files)
			}
			for _, want := range tt.wantText {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("err = %q, want it to contain %q", err, want)
				}
			}
		})
	}
}

func TestCmdCollectorPlaceholders(t *testing.T) {
	tests := []struct {
		name     string
		c        CmdCollector
		scenario string
		wantFile string
		want     string
	}{
		{
			name:     "pid list, scenario and default out",
			c:        CmdCollector{Command: `printf '%s %s' {pid} {scenario} > {out}`, PID: "305516,305707"},
			scenario: "find_path.FindShortestPath",
			wantFile: "find_path.FindShortestPath.perf.data",
			want:     "305516,305707 find_path.FindShortestPath",
		},
		{
			name:     "out= template and an odd scenario name",
			c:        CmdCollector{Command: `printf '%s' {scenario} > {out}`, Out: "{scenario}.data"},
			scenario: "it's a/b",
			wantFile: "it_s_a_b.data",
			want:     "it's a/b",
		},
		{
			name:     "command exiting early with success is fine",
			c:        CmdCollector{Command: `true`},
			scenario: "s",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "profiles dir")
			c := tt.c
			if err := c.Start(context.Background(), Scope{Scenario: tt.scenario, Dir: dir}); err != nil {
				t.Fatal(err)
			}
			exited(t, &c)
			files, err := c.Stop(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantFile == "" {
				if len(files) != 0 {
					t.Errorf("files = %v, want none", files)
				}
				return
			}
			path := filepath.Join(dir, tt.wantFile)
			if len(files) != 1 || files[0] != path {
				t.Fatalf("files = %v, want [%s]", files, path)
			}
			if got := readString(path); got != tt.want {
				t.Errorf("%s = %q, want %q", tt.wantFile, got, tt.want)
			}
		})
	}
}
