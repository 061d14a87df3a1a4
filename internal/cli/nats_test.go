package cli

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
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
		{name: "other families still need a hook", scenarios: []string{"kafka.Produce"}, wantErr: "--before-step"},
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
			has := slices.Contains(stepArgs(steps[1]), "--nats-nodes=3")
			if has != (tt.wantArg != "") {
				t.Fatalf("step 2 args %v: --nats-nodes=3 present %v, want %v", stepArgs(steps[1]), has, tt.wantArg != "")
			}
		})
	}
}
