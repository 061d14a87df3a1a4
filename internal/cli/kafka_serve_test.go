package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/analysis/sweep"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/testenv"
)

// lockedBuffer is an output stream a test reads while Main still writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// serveKafka starts `stampede kafka serve args...` and returns its URL
// once printed; the server stops when the test ends.
func serveKafka(t *testing.T, args ...string) (url string, stderr *lockedBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var out lockedBuffer
	stderr = &lockedBuffer{}
	done := make(chan int, 1)
	go func() { done <- Main(ctx, append([]string{"kafka", "serve"}, args...), &out, stderr) }()
	t.Cleanup(func() {
		cancel()
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("kafka serve exit %d: %s", code, stderr)
			}
		case <-time.After(5 * time.Second):
			t.Error("kafka serve did not stop within 5s")
		}
	})
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if line, _, ok := strings.Cut(out.String(), "\n"); ok {
			return line, stderr
		}
		select {
		case code := <-done:
			t.Fatalf("kafka serve exit %d: %s", code, stderr)
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatalf("kafka serve printed no URL: %s", stderr)
	return "", nil
}

// needKcat returns kcat's path, or skips (fails under CI) without it.
func needKcat(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("kcat")
	if err != nil {
		testenv.Missing(t, "kcat is not installed (scripts/test.sh installs it)")
	}
	return p
}

// kcat runs kcat with args and stdin, within 20s (a hang is a failure).
func kcat(t *testing.T, bin, stdin string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("kcat %s: %v (ctx %v): %s", strings.Join(args, " "), err, ctx.Err(), errb.String())
	}
	return out.String()
}

// A real client (kcat, librdkafka) produces to and consumes from a topic
// nobody created, and from one created with --topic, on kafka serve.
func TestKafkaServeKcat(t *testing.T) {
	bin := needKcat(t)
	url, stderr := serveKafka(t, "--brokers", "3", "--partitions", "2", "--topic", "made:4:3")
	brokers := strings.TrimPrefix(url, "kafka://")
	if !strings.Contains(stderr.String(), "does not model replication") {
		t.Errorf("serve does not say what it does not model: %s", stderr)
	}
	const n = 50
	var msgs []string
	for i := range n {
		msgs = append(msgs, fmt.Sprintf("message-%03d", i))
	}
	for _, topic := range []string{"fresh-topic", "made"} {
		kcat(t, bin, strings.Join(msgs, "\n")+"\n", "-P", "-b", brokers, "-t", topic)
		got := kcat(t, bin, "", "-C", "-b", brokers, "-t", topic, "-o", "beginning", "-c", fmt.Sprint(n), "-e", "-q")
		lines := strings.Fields(got)
		if len(lines) != n {
			t.Fatalf("%s: consumed %d messages, want %d: %q", topic, len(lines), n, got)
		}
		seen := map[string]bool{}
		for _, l := range lines {
			seen[l] = true
		}
		for _, m := range msgs {
			if !seen[m] {
				t.Errorf("%s: %s not consumed", topic, m)
			}
		}
	}
	md := kcat(t, bin, "", "-L", "-b", brokers)
	for _, want := range []string{`topic "fresh-topic" with 2 partitions`, `topic "made" with 4 partitions`, "3 brokers"} {
		if !strings.Contains(md, want) {
			t.Errorf("kcat -L lacks %q:\n%s", want, md)
		}
	}
}

// A run against kafka serve recognises kfake by its cluster id: the same
// note as on the embedded cluster, the stand-in marked in options.json.
func TestKafkaServeRunNotes(t *testing.T) {
	url, _ := serveKafka(t, "--brokers", "3")
	dir := filepath.Join(t.TempDir(), "res")
	code, _, stderr := runMain(t, t.Context(), "run", "kafka.Produce", "-i", "200", "-u", "4", "--target", url,
		"--kafka-profile", "high-reliability", "--out", dir, "--quiet", "--no-csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	res, err := resultdir.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Options.StandIn || res.Options.InProcess {
		t.Errorf("options: standIn %v inProcess %v, want true false", res.Options.StandIn, res.Options.InProcess)
	}
	notes := strings.Join(res.Snapshot.Scenario("kafka.Produce").Notes, "\n")
	for _, want := range []string{"stand-in target: kfake", "served by another process, e.g. stampede kafka serve", "does not model replication",
		"replication factor 3 (one copy is kept)", "min.insync.replicas=2 (never enforced)", "acks=all (waits for the one copy only)",
		"flush.messages=1 (not flushed on that count)"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	summary, err := os.ReadFile(filepath.Join(dir, resultdir.ConsoleFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(summary), "does not model replication") {
		t.Errorf("console summary lacks the stand-in note:\n%s", summary)
	}
}

func TestKafkaServeBadTopic(t *testing.T) {
	for _, args := range [][]string{
		{"--topic", "a b:1:1"},
		{"--topic", "t:1:4", "--brokers", "3"},
		{"--partitions", "0"},
	} {
		code, _, stderr := runMain(t, t.Context(), append([]string{"kafka", "serve", "--for", "1ms"}, args...)...)
		if code != ExitUsage || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
}

// Two segments of one kafka.Produce run against one kafka serve cluster,
// merged: msgs_per_s is the total of both processes, second by second,
// so its mean matches the merged messages over the duration.
func TestKafkaSegmentsMergedRate(t *testing.T) {
	url, _ := serveKafka(t, "--brokers", "1")
	root := t.TempDir()
	startAt := time.Now().Add(1500 * time.Millisecond).UTC().Format(time.RFC3339Nano)
	var wg sync.WaitGroup
	errs := make([]string, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code, _, stderr := runMain(t, t.Context(), "run", "kafka.Produce", "-u", "8", "-d", "3s", "--target", url,
				"--segment", fmt.Sprintf("%d/2", i+1), "--start-at", startAt, "--out", filepath.Join(root, "seg", fmt.Sprint(i+1)), "--quiet", "--no-csv", "--no-report")
			if code != 0 {
				errs[i] = fmt.Sprintf("segment %d: exit %d: %s", i+1, code, stderr)
			}
		}()
	}
	wg.Wait()
	for _, e := range errs {
		if e != "" {
			t.Fatal(e)
		}
	}
	merged := filepath.Join(root, "merged")
	if code, _, stderr := runMain(t, t.Context(), "merge", filepath.Join(root, "seg"), "-o", merged, "-q", "--no-report"); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	res, err := resultdir.Load(merged)
	if err != nil {
		t.Fatal(err)
	}
	sc := res.Snapshot.Scenario("kafka.Produce")
	tr := sc.Trends["msgs_per_s"]
	if tr == nil || tr.Hist.TotalCount() == 0 {
		t.Fatal("merged run has no msgs_per_s")
	}
	total := float64(sc.Counters["messages"]) / sc.MeasuredDuration().Seconds()
	if got := tr.Hist.Mean(); got < 0.8*total || got > 1.2*total {
		t.Errorf("merged msgs_per_s mean %.0f, want the total rate %.0f (messages %d over %v)", got, total, sc.Counters["messages"], sc.MeasuredDuration())
	}
	var perProcess float64
	for i := range 2 {
		part, err := resultdir.Load(filepath.Join(root, "seg", fmt.Sprint(i+1)))
		if err != nil {
			t.Fatal(err)
		}
		perProcess = max(perProcess, part.Snapshot.Scenario("kafka.Produce").Trends["msgs_per_s"].Hist.Mean())
	}
	if tr.Hist.Mean() < 1.4*perProcess {
		t.Errorf("merged msgs_per_s mean %.0f is not the sum of two processes (each up to %.0f)", tr.Hist.Mean(), perProcess)
	}
}

// A node sweep of kafka scenarios on the embedded cluster with a
// --before-step hook, which cannot resize it, is refused before anything
// runs, with a pointer to what works.
func TestSweepNodesEmbeddedKafkaHookRefused(t *testing.T) {
	out := filepath.Join(t.TempDir(), "sweep")
	code, _, stderr := runMain(t, t.Context(), "sweep", "kafka.Produce", "--nodes", "1,3", "--before-step", "true", "-d", "1s", "--out", out)
	if code != ExitUsage || !strings.Contains(stderr, "drop --before-step") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("refused sweep left %s behind (%v)", out, err)
	}
}

// A node sweep over kafka serve clusters (--targets with multi-broker
// URLs) runs with one partition per broker in each step, and its analysis
// says the curve is not meaningful instead of a scaling verdict.
func TestSweepNodesKafkaServeNotMeaningful(t *testing.T) {
	one, _ := serveKafka(t, "--brokers", "1")
	three, _ := serveKafka(t, "--brokers", "3")
	out := filepath.Join(t.TempDir(), "sweep")
	code, stdout, stderr := runMain(t, t.Context(), "sweep", "kafka.Produce", "--nodes", "1,3", "--targets", one+" "+three,
		"-u", "2", "-d", "1s", "--out", out, "--no-report", "--quiet", "--no-csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
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
	if len(c.Points) != 2 || c.Points[1].Nodes != 3 || !c.Points[1].StandIn {
		t.Fatalf("points %+v", c.Points)
	}
	// The partitions follow the broker count of each target.
	for _, p := range c.Points {
		if p.Partitions != p.Nodes || p.LeaderNodes < 1 {
			t.Errorf("%d broker(s): %d partition(s), %d leading broker(s); want one partition per broker", p.Nodes, p.Partitions, p.LeaderNodes)
		}
	}
	if c.Verdict.Side != sweep.SideUnknown || c.Scaling == nil || c.Scaling.NotMeaningful == "" {
		t.Errorf("verdict %+v scaling %+v", c.Verdict, c.Scaling)
	}
	if !strings.Contains(stdout, "not meaningful") {
		t.Errorf("table does not say the sweep is not meaningful:\n%s", stdout)
	}
}

// TestSweepKafkaProduceSpreadsLeaders: `sweep kafka.Produce --nodes 1,3,5`
// on the embedded cluster sets --brokers per step; every step writes one
// partition per broker, each led by another broker, and the verdict says
// the curve is the stand-in's, not a scaling verdict.
//
// Mutation caught: kfake's own random leaders (no Embedded.SpreadLeaders)
// give fewer leading brokers than brokers in most 5-broker steps.
func TestSweepKafkaProduceSpreadsLeaders(t *testing.T) {
	out := filepath.Join(t.TempDir(), "sweep")
	code, stdout, stderr := runMain(t, t.Context(), "sweep", "kafka.Produce", "--nodes", "1,3,5", "-u", "5", "-d", "1s",
		"--out", out, "--no-report", "--quiet", "--no-csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
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
	if len(c.Points) != 3 {
		t.Fatalf("points %+v", c.Points)
	}
	for _, p := range c.Points {
		if p.Partitions != p.Nodes || p.LeaderNodes != p.Nodes || !p.StandIn {
			t.Errorf("%d broker(s): %d partition(s), %d leading broker(s), stand-in %t; want one partition per broker, each led by another", p.Nodes, p.Partitions, p.LeaderNodes, p.StandIn)
		}
	}
	if c.Verdict.Side != sweep.SideUnknown || !strings.Contains(c.Verdict.Reason, "limited by the stand-in") || strings.Contains(c.Verdict.Reason, "the setup limits the curve") {
		t.Errorf("verdict %+v", c.Verdict)
	}
	if !strings.Contains(stdout, "not meaningful") {
		t.Errorf("table does not say the sweep is not meaningful:\n%s", stdout)
	}
}
