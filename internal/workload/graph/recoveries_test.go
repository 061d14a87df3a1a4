package graph

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stampede-bench/stampede/internal/driver/nebula/graphsvc"
	"github.com/stampede-bench/stampede/internal/driver/nebula/nebulatest"
	"github.com/stampede-bench/stampede/internal/workload/graph/ldbctest"
	"github.com/stampede-bench/stampede/internal/workload/graph/ngqlload"
	"github.com/stampede-bench/stampede/vu"
)

// A scenario whose sessions graphd drops mid-run fails the call that
// found out, logs in again and says so in its notes; the other calls
// succeed.
func TestReloginNoted(t *testing.T) {
	data := t.TempDir()
	ldbctest.Write(t, data, ldbctest.Tiny)
	var gos atomic.Int64
	c, err := nebulatest.StartCluster(1, nebulatest.Options{Fail: func(stmt string) (graphsvc.ErrorCode, string, bool) {
		if strings.HasPrefix(stmt, "GO ") && gos.Add(1)%4 == 2 {
			return graphsvc.ErrorCode_E_SESSION_INVALID, "Session not existed!", true
		}
		return 0, "", false
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	target := "nebula://root:nebula@" + c.Addrs()[0] + "/tiny"
	if _, err := ngqlload.Load(t.Context(), ngqlload.Config{Target: target, Data: data, Batch: 3}); err != nil {
		t.Fatal(err)
	}
	env, _ := testEnv(t, target)
	opened, err := newFamily(t, "--data", data).Open(t.Context(), env, []string{Go1Step})
	if err != nil {
		t.Fatal(err)
	}
	defer opened.Close()
	sc := opened.Scenarios[Go1Step]
	snap := run(t, env.Metrics, Go1Step, sc, 1, 8) // GO calls 2 and 6 fail
	if n := snap.Errors["E_SESSION_INVALID(-1002): Session not existed!"]; n != 2 || len(snap.Errors) != 1 {
		t.Errorf("errors %v, want 2 E_SESSION_INVALID", snap.Errors)
	}
	notes := sc.(vu.Noter).Notes()
	want := "go.Go1Step: the driver recovered 2 sessions logged in again after the server dropped them"
	if len(notes) != 1 || !strings.HasPrefix(notes[0], want) {
		t.Errorf("notes %q, want %q", notes, want)
	}
}
