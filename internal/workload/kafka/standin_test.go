package kafka

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/engine"
	"github.com/stampede-bench/stampede/internal/usage"
)

// The high-reliability profile on the embedded cluster: one note says
// what kfake does not model and which settings cannot take effect, and
// flush.messages=1 runs kfake in disk mode with fsync.
func TestStandInNoteHighReliability(t *testing.T) {
	f := family(t, "--kafka-profile", "high-reliability")
	res := runSteps(t, f, "", step{ScenarioProduce, engine.Config{Executor: engine.SharedIterations, VUs: 8, Iterations: 200}})
	if p := res.sc(ScenarioProduce); p.Counters[MetricMessages] != 200 || len(p.Errors) > 0 {
		t.Fatalf("messages %d, errors %v", p.Counters[MetricMessages], p.Errors)
	}
	var standIn []string
	for _, n := range res.opened.Notes {
		if strings.HasPrefix(n, "stand-in target") {
			standIn = append(standIn, n)
		}
	}
	if len(standIn) != 1 {
		t.Fatalf("want one stand-in note, got %q", res.opened.Notes)
	}
	note := standIn[0]
	for _, want := range []string{"does not model replication", "in-sync replicas", "leader election", "the network",
		"replication factor 3 (one copy is kept)", "min.insync.replicas=2 (never enforced)", "acks=all (waits for the one copy only)",
		"flush cost is real: every produced batch is written to disk with fsync"} {
		if !strings.Contains(note, want) {
			t.Errorf("note lacks %q: %s", want, note)
		}
	}
	if strings.Contains(note, "flush.messages=1 (") {
		t.Errorf("flush.messages=1 is real here but listed as without effect: %s", note)
	}
	if !res.opened.StandIn || !res.opened.InProcess {
		t.Errorf("opened: StandIn %v InProcess %v", res.opened.StandIn, res.opened.InProcess)
	}
	s := res.opened.Scenarios[ScenarioProduce].(*produceScenario)
	md, err := s.admin.BrokerMetadata(t.Context())
	if err != nil || md.Cluster != EmbeddedClusterIDFsync {
		t.Errorf("cluster id %q (%v), want %s", md.Cluster, err, EmbeddedClusterIDFsync)
	}
}

func TestEmbeddedFsyncDir(t *testing.T) {
	e, err := StartEmbedded(EmbeddedOptions{Brokers: 1, Fsync: true})
	if err != nil {
		t.Fatal(err)
	}
	dir := e.dataDir
	if st, err := os.Stat(dir); err != nil || !st.IsDir() || !e.Fsync() {
		t.Fatalf("data dir %q: %v", dir, err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("data dir %s left behind (%v)", dir, err)
	}
}

// A real cluster gets no stand-in note; a plain run on the embedded one
// names no setting as without effect.
func TestStandInNoteDefaults(t *testing.T) {
	o := DefaultOptions()
	if u := unmodelled(&o, false); len(u) != 0 {
		t.Errorf("defaults listed as without effect: %q", u)
	}
	n := standIn{brokers: 3, inProcess: true}.note(&o)
	if strings.Contains(n, "settings without effect") || !strings.Contains(n, "3 broker(s) inside this process") {
		t.Errorf("note = %s", n)
	}
}

func TestMinISRAboveRF(t *testing.T) {
	for _, args := range [][]string{
		{"--kafka-profile", "high-reliability", "--min-insync-replicas", "4"},
		{"--replication-factor", "1", "--topic-config", "min.insync.replicas=2"},
		{"--topic-config", "min.insync.replicas=x"},
	} {
		_, _, _, err := open(t, family(t, args...), "", 1, ScenarioProduce)
		if !usage.Is(err) || !strings.Contains(err.Error(), "min.insync.replicas") {
			t.Errorf("%v: err = %v, want a usage error about min.insync.replicas", args, err)
		}
	}
}
