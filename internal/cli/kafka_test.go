package cli

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/resultdir"
)

// kafka.Produce and kafka.Consume end to end through the CLI, on the
// embedded cluster: exact counts, the embedded-cluster note, the summary.
func TestRunKafkaEmbedded(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "res")
	cfg := filepath.Join(tmp, "kafka.yaml")
	os.WriteFile(cfg, []byte(`scenarios:
  kafka.Produce: {executor: shared-iterations, vus: 8, iterations: 2000}
  kafka.Consume: {executor: constant-vus, vus: 4, duration: 2s}
options:
  topics: "2"
  partitions: "2"
  consumers: "2"
`), 0o644)
	code, _, stderr := runMain(t, t.Context(), "run", "--config", cfg, "--out", dir, "--quiet", "--no-csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	res, err := resultdir.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Options.InProcess {
		t.Error("options.json does not mark the embedded cluster as in-process")
	}
	p, c := res.Snapshot.Scenario("kafka.Produce"), res.Snapshot.Scenario("kafka.Consume")
	if p.Counters["messages"] != 2000 || p.Counters["bytes"] != 2000*2048 {
		t.Errorf("produce counters %v, errors %v", p.Counters, p.Errors)
	}
	if c.Counters["consumed"] != 2000 {
		t.Errorf("consumed = %d, want 2000 (errors %v)", c.Counters["consumed"], c.Errors)
	}
	if !strings.Contains(strings.Join(p.Notes, "\n"), "kfake, an in-memory Kafka-protocol test cluster (3 broker(s) inside this process)") {
		t.Errorf("notes = %q", p.Notes)
	}
	summary, err := os.ReadFile(filepath.Join(dir, resultdir.ConsoleFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"publish_latency", "messages", "not a real broker", "does not model replication"} {
		if !strings.Contains(string(summary), want) {
			t.Errorf("console summary lacks %q:\n%s", want, summary)
		}
	}
}

func TestRunKafkaUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	start := time.Now()
	code, _, stderr := runMain(t, t.Context(), "run", "kafka.Produce", "-d", "2s",
		"--target", "kafka://bench:secret99@"+addr+"?sasl=plain&dial_timeout=1s", "--out", filepath.Join(t.TempDir(), "r"))
	if code != ExitUsage {
		t.Errorf("exit %d, want 2; stderr: %s", code, stderr)
	}
	if !strings.Contains(stderr, "no broker reachable") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Errorf("stderr = %q, want one line saying no broker is reachable", stderr)
	}
	if strings.Contains(stderr, "secret99") {
		t.Errorf("password leaked: %s", stderr)
	}
	if el := time.Since(start); el > 15*time.Second {
		t.Errorf("took %v", el)
	}
}

func TestKafkaServe(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	code, stdout, stderr := runMain(t, ctx, "kafka", "serve", "--brokers", "2", "--for", "300ms")
	if code != 0 || !strings.HasPrefix(stdout, "kafka://127.0.0.1:") || strings.Count(stdout, ",") != 1 {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if code, _, stderr := runMain(t, ctx, "kafka", "serve", "--ports", "x"); code != ExitUsage {
		t.Errorf("bad ports: exit %d %s", code, stderr)
	}
}
