package nats

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/stampede-bench/stampede/internal/natscluster"
	"github.com/stampede-bench/stampede/internal/usage"
)

// countStamps reads every message of stream back through a fresh
// consumer, until the consumer has none pending, and returns how many
// distinct (VU, sequence) stamps it holds.
func countStamps(t *testing.T, url, stream string) int {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var c jetstream.Consumer
	for {
		c, err = js.CreateConsumer(ctx, stream, jetstream.ConsumerConfig{AckPolicy: jetstream.AckNonePolicy, DeliverPolicy: jetstream.DeliverAllPolicy})
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("consumer to count the stream: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	seen := map[[2]uint64]bool{}
	for {
		batch, err := c.Fetch(1000, jetstream.FetchMaxWait(2*time.Second))
		if err != nil {
			t.Fatalf("fetch to count the stream: %v", err)
		}
		n := 0
		for m := range batch.Messages() {
			n++
			if st, ok := parseStamp(m.Data()); ok {
				seen[[2]uint64{uint64(st.VU), st.Seq}] = true
			}
		}
		if n == 0 {
			// An empty fetch is the end only when the consumer has nothing
			// pending: after a node restart a pull can come back empty
			// while the stream still holds messages for it.
			info, err := c.Info(ctx)
			if err == nil && info.NumPending == 0 && info.NumAckPending == 0 {
				return len(seen)
			}
			if ctx.Err() != nil {
				t.Fatalf("counting the stream: %d distinct stamps when the count timed out (%v)", len(seen), err)
			}
		}
	}
}

// countAll is countStamps over every stream of the run.
func countAll(t *testing.T, url string, streams []string) int {
	n := 0
	for _, st := range streams {
		n += countStamps(t, url, st)
	}
	return n
}

// TestFaultKillOneNodeOfR3: publishing continues with 2 of 3 nodes, and
// every acknowledged message is in the stream afterwards.
func TestFaultKillOneNodeOfR3(t *testing.T) {
	f := family(t, "--nats-profile", ProfileHighReliability, "--nats-fsync", "default", "--nats-publish-timeout", "2s")
	o, env, err := open(t, f, "", 4, ScenarioPublish)
	if err != nil {
		t.Fatal(err)
	}
	s := o.Scenarios[ScenarioPublish].(*publishScenario)
	var ackedAtKill int64
	kill := time.AfterFunc(2*time.Second, func() {
		ackedAtKill = s.Acked.Load()
		if err := s.cluster.Kill(0); err != nil {
			t.Error(err)
		}
	})
	defer kill.Stop()
	// 15s: when the killed node led the stream, a new leader takes one
	// RAFT election (nats-server waits 4–9 s before it calls one).
	sc := runOpened(t, o, env, step{ScenarioPublish, vus(4, 15*time.Second)}).Scenario(ScenarioPublish)
	acked := sc.Counters[MetricMessages]
	t.Logf("acknowledged %d (%d before the kill), errors %d %v", acked, ackedAtKill, sc.Counters["errors"], sc.Errors)
	if s.cluster.Running(0) {
		t.Fatal("node 1 still running")
	}
	if ackedAtKill == 0 || acked-ackedAtKill < 100 {
		t.Fatalf("publishing did not continue after the kill: %d acknowledged before, %d in all", ackedAtKill, acked)
	}
	if got := countAll(t, s.cluster.URL(), s.streams); int64(got) < acked {
		t.Fatalf("the stream holds %d distinct messages, fewer than the %d acknowledged: acknowledged messages were lost", got, acked)
	}
}

// TestFaultKillTwoNodesOfR3: without a quorum publishes fail with a clear
// error, and the run still ends on time.
func TestFaultKillTwoNodesOfR3(t *testing.T) {
	f := family(t, "--nats-profile", ProfileHighReliability, "--nats-fsync", "default", "--nats-publish-timeout", "1s")
	o, env, err := open(t, f, "", 2, ScenarioPublish)
	if err != nil {
		t.Fatal(err)
	}
	s := o.Scenarios[ScenarioPublish].(*publishScenario)
	kill := time.AfterFunc(1500*time.Millisecond, func() {
		_ = s.cluster.Kill(0)
		_ = s.cluster.Kill(1)
	})
	defer kill.Stop()
	start := time.Now()
	sc := runOpened(t, o, env, step{ScenarioPublish, vus(2, 5*time.Second)}).Scenario(ScenarioPublish)
	if took := time.Since(start); took > 12*time.Second {
		t.Errorf("run took %s for a 5s duration", took)
	}
	if sc.Counters[MetricMessages] == 0 || sc.Counters["errors"] == 0 {
		t.Fatalf("messages %d, errors %d: want acknowledgements before and errors after the kill", sc.Counters[MetricMessages], sc.Counters["errors"])
	}
	for msg := range sc.Errors {
		if !strings.Contains(msg, "no responders") && !strings.Contains(msg, "timeout waiting for the publish acknowledgement") &&
			!strings.Contains(msg, "no servers") && !strings.Contains(msg, "connection closed") {
			t.Errorf("unclear error %q", msg)
		}
	}
	t.Logf("errors: %v", sc.Errors)
}

// TestKillNodeEndToEndR3: --kill-node SIGKILLs the stream leader of a
// 3-node R3 cluster during nats.EndToEnd and restarts it; the durable,
// replicated consumer survives, nothing acknowledged is lost, and the note
// puts the stream's own count beside the acknowledged one.
//
// Mutations caught: a --kill-node that kills nothing or never restarts
// (the note and Running checks); a stream that lost acknowledged messages
// (countStamps). The ledger's rule (lost only when the stream confirms it)
// is TestLedgerLostOnlyWhenTheBrokerSaysSo's; an R1 consumer instead of the
// replicated one still passed here (it was not on the killed node).
func TestKillNodeEndToEndR3(t *testing.T) {
	f := family(t, "--nats-profile", ProfileHighReliability, "--nats-fsync", "default", "--nats-publish-timeout", "2s",
		"--kill-node", "2s,restart 5s", "--kill-which", "leader", "--nats-e2e-timeout", "8s")
	o, env, err := open(t, f, "", 4, ScenarioEndToEnd)
	if err != nil {
		t.Fatal(err)
	}
	s := o.Scenarios[ScenarioEndToEnd].(*e2eScenario)
	sc := runOpened(t, o, env, step{ScenarioEndToEnd, vus(4, 16*time.Second)}).Scenario(ScenarioEndToEnd)
	notes := strings.Join(s.Notes(), "\n")
	t.Logf("notes:\n%s\nerrors %v, retries %d", notes, sc.Errors, sc.Counters[MetricPublishRetries])
	acked := sc.Counters[MetricMessages]
	if acked < 100 {
		t.Fatalf("only %d acknowledged", acked)
	}
	if !strings.Contains(notes, "(leader) killed with SIGKILL at 2") || !strings.Contains(notes, "restarted at") {
		t.Fatalf("no leader kill and restart in the notes:\n%s", notes)
	}
	if sc.Counters[MetricLost] != 0 {
		t.Fatalf("lost %d of %d acknowledged", sc.Counters[MetricLost], acked)
	}
	a := s.ledger.Account()
	if a.Acked != acked || a.Overdue != 0 || a.Lost != 0 || a.Consumed+a.Late != a.Acked {
		t.Fatalf("ledger %+v against %d acknowledged", a, acked)
	}
	if !strings.Contains(notes, sprintf("end to end: %d acknowledged", acked)) || !strings.Contains(notes, "the broker holds ") {
		t.Fatalf("the end-to-end note lacks the acknowledged count or the stream's:\n%s", notes)
	}
	if got := countAll(t, s.cluster.URL(), s.streams); int64(got) < acked {
		t.Fatalf("the stream holds %d distinct messages, fewer than the %d acknowledged", got, acked)
	}
	if !s.cluster.Running(0) || !s.cluster.Running(1) || !s.cluster.Running(2) {
		t.Fatal("the killed node was not restarted")
	}
}

func TestKillNodeBadInput(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		target string
		want   string
	}{
		{[]string{"--kill-node", "soon"}, "", "--kill-node"},
		{[]string{"--kill-node", "1s", "--nats-nodes", "1"}, "", "at least 2 nodes"},
		{[]string{"--kill-node", "1s", "--kill-which", "n5"}, "", "the cluster has 3 nodes"},
		{[]string{"--kill-node", "1s", "--churn-nodes"}, "", "use one of them"},
		{[]string{"--kill-node", "1s"}, "nats://127.0.0.1:1", "needs the embedded cluster"},
		{[]string{"--kill-hook", "true"}, "", "--kill-hook needs --kill-node"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, _, err := open(t, family(t, tc.args...), tc.target, 1, ScenarioPublish)
			if err == nil || !usage.Is(err) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want a usage error with %q", err, tc.want)
			}
		})
	}
}

// TestKillHookOnTarget: on a --target cluster --kill-node runs --kill-hook
// with the leader's server name; here the hook SIGKILLs that node's
// process, as a lab's script would.
func TestKillHookOnTarget(t *testing.T) {
	dir := t.TempDir()
	c, err := natscluster.Start(context.Background(), natscluster.Options{Nodes: 3, Dir: dir, Launch: testLaunch})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for i, pid := range c.PIDs() {
		if err := os.WriteFile(filepath.Join(dir, c.NodeName(i)+".pid"), []byte(strconv.Itoa(pid)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	hook := "kill -9 $(cat " + dir + "/{node}.pid) && echo {action} {node} >> " + dir + "/hook.log"
	f := family(t, "--nats-replicas", "3", "--nats-publish", "sync", "--kill-node", "1s", "--kill-hook", hook, "--nats-publish-timeout", "2s")
	o, env, err := open(t, f, c.URL(), 2, ScenarioPublish)
	if err != nil {
		t.Fatal(err)
	}
	s := o.Scenarios[ScenarioPublish].(*publishScenario)
	runOpened(t, o, env, step{ScenarioPublish, vus(2, 4*time.Second)})
	notes := strings.Join(s.Notes(), "\n")
	log, _ := os.ReadFile(filepath.Join(dir, "hook.log"))
	t.Logf("hook log %q\n%s", log, notes)
	if !strings.HasPrefix(string(log), "kill n") || !strings.Contains(notes, "(leader) killed with SIGKILL at 1") {
		t.Fatalf("the hook did not kill the leader: log %q, notes:\n%s", log, notes)
	}
	running := 0
	for i := range 3 {
		if c.Running(i) {
			running++
		}
	}
	if running != 2 {
		t.Fatalf("%d nodes running after the kill, want 2", running)
	}
}
