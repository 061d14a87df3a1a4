package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/analysis/sweep"
)

func TestSweepNodesResizesTheEmbeddedNatsCluster(t *testing.T) {
	tests := []struct {
		name      string
		scenarios []string
		before    string
		wantArg   string
		wantErr   string
	}{
		{name: "nats scenarios: each step sizes the embedded cluster", scenarios: []string{"nats.Publish"}, wantArg: "--nats-nodes=3"},
		{name: "a resize hook wins", scenarios: []string{"nats.Publish"}, before: "true"},
		{name: "kafka scenarios: each step sizes the embedded kfake cluster", scenarios: []string{"kafka.Produce"}, wantArg: "--brokers=3"},
		{name: "a hook cannot resize the embedded kfake cluster", scenarios: []string{"kafka.Produce"}, before: "true", wantErr: "sets --brokers per step"},
		{name: "other families still need a hook", scenarios: []string{"go.Go1Step"}, wantErr: "--before-step"},
		{name: "nats and kafka need a hook", scenarios: []string{"nats.Publish", "kafka.Produce"}, wantErr: "--before-step"},
		{name: "mixed families need a hook", scenarios: []string{"nats.Publish", "go.Go1Step"}, wantErr: "--before-step"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &sweepFlags{nodes: "1,3", beforeStep: tt.before, out: filepath.Join(t.TempDir(), "sw")}
			steps, err := planSweep(f, tt.scenarios)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, arg := range []string{"--nats-nodes=3", "--brokers=3"} {
				if has := slices.Contains(stepArgs(steps[1]), arg); has != (arg == tt.wantArg) {
					t.Fatalf("step 2 args %v: %s present %v, want %v", stepArgs(steps[1]), arg, has, arg == tt.wantArg)
				}
			}
		})
	}
}

// TestSweepNatsPublishSpreadsLeaders is the issue's "sweep nats.Publish
// --nodes 1,3,5 spreads leaders across nodes", on 1 and 3 nodes (five
// nodes time out creating streams on a loaded 2-core test machine): every
// step writes one stream per node, each led by a different node, so the
// layout does not limit the curve (the analysis names no layout limit).
//
// Mutation caught: one stream for every size (--streams 1) gives points of
// 1 partition and 1 leader, and the verdict "the setup limits the curve".
func TestSweepNatsPublishSpreadsLeaders(t *testing.T) {
	bin := buildStampede(t) // the embedded nodes are this binary
	out := filepath.Join(t.TempDir(), "sweep")
	cmd := exec.Command(bin, "sweep", "nats.Publish", "--nodes", "1,3", "-u", "4", "-d", "1s",
		"--out", out, "--no-report", "--no-csv", "-q", "--data-dir", t.TempDir())
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	b, err := os.ReadFile(filepath.Join(out, "sweep.json"))
	if err != nil {
		t.Fatal(err)
	}
	var a sweep.Analysis
	if err := json.Unmarshal(b, &a); err != nil {
		t.Fatal(err)
	}
	c := a.Curves[0]
	if len(c.Points) != 2 {
		t.Fatalf("points %+v", c.Points)
	}
	for _, p := range c.Points {
		if p.Partitions != p.Nodes || p.LeaderNodes != p.Nodes {
			t.Errorf("%d node(s): %d stream(s), %d leading node(s); want one stream per node, each led by another node", p.Nodes, p.Partitions, p.LeaderNodes)
		}
	}
	if strings.Contains(c.Verdict.Reason, "the setup limits the curve") {
		t.Errorf("verdict names a layout limit: %s", c.Verdict.Reason)
	}
}
