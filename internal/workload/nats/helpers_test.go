package nats

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/natscluster"
	"github.com/stampede-bench/stampede/internal/workload"
)

func TestMain(m *testing.M) {
	natscluster.RunNodeIfChild()
	os.Exit(m.Run())
}

// testLaunch runs this test binary as an embedded node.
func testLaunch(config string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), natscluster.NodeConfigEnv+"="+config)
	return cmd
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// family parses args as run flags of a fresh family whose nodes are this
// test binary.
func family(t testing.TB, args ...string) *Family {
	t.Helper()
	f := New(DefaultOptions())
	f.Launch = testLaunch
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	f.BindFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return f
}

type step struct {
	name string
	cfg  engine.Config
}

// open opens f for names on the embedded cluster (target "") under a
// temp data dir.
func open(t testing.TB, f *Family, target string, maxVUs int, names ...string) (*workload.Opened, *workload.Env, error) {
	t.Helper()
	env := &workload.Env{
		Target: target, Metrics: metrics.NewRegistry(), MaxVUs: maxVUs, Seed: 1, DataDir: t.TempDir(),
		Timeout: 10 * time.Second, Log: &syncBuffer{}, Stderr: &syncBuffer{},
		Getenv: func(string) string { return "" },
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	o, err := f.Open(ctx, env, names)
	if err == nil {
		t.Cleanup(func() {
			if err := o.Close(); err != nil {
				t.Errorf("close: %v", err)
			}
		})
	}
	return o, env, err
}

// runOpened runs the steps one after the other, like `stampede run`.
func runOpened(t testing.TB, opened *workload.Opened, env *workload.Env, steps ...step) *metrics.Snapshot {
	t.Helper()
	clock := metrics.NewClock()
	var specs []engine.Spec
	var names []string
	for _, s := range steps {
		specs = append(specs, engine.Spec{Name: s.name, Scenario: opened.Scenarios[s.name], Config: s.cfg.Defaults()})
		names = append(names, s.name)
	}
	agg := metrics.NewAggregator(env.Metrics, clock, names)
	go agg.Run()
	if _, err := engine.Run(context.Background(), engine.Plan{Scenarios: specs}, engine.Deps{Agg: agg, Clock: clock}); err != nil {
		agg.Close()
		t.Fatal(err)
	}
	agg.Close()
	return agg.Snapshot()
}

func vus(n int64, d time.Duration) engine.Config {
	return engine.Config{Executor: engine.ConstantVUs, VUs: n, Duration: d}
}

func iterations(vus, n int64) engine.Config {
	return engine.Config{Executor: engine.SharedIterations, VUs: vus, Iterations: n, MaxDuration: time.Minute}
}
