package natscluster

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

func TestMain(m *testing.M) {
	RunNodeIfChild()
	os.Exit(m.Run())
}

// testLaunch runs this test binary as a node.
func testLaunch(config string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), NodeConfigEnv+"="+config)
	return cmd
}

func TestClusterStartsReplicatesAndSurvivesANodeKill(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := Start(ctx, Options{Nodes: 3, Dir: t.TempDir(), SyncAlways: true, Launch: testLaunch})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.MetaLeader(ctx) == "" {
		t.Fatal("ready but no meta leader")
	}
	j, err := c.JSZ(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !j.Config.SyncAlways {
		t.Errorf("sync_always not in effect: %+v", j.Config)
	}
	nc, err := nats.Connect(c.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "T", Subjects: []string{"t"}, Replicas: 3, Storage: jetstream.FileStorage}); err != nil {
		t.Fatal(err)
	}
	for range 10 {
		if _, err := js.Publish(ctx, "t", []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	cpu0, ok := c.CPU()
	if !ok || cpu0 <= 0 {
		t.Errorf("node CPU = %v, %v; want > 0", cpu0, ok)
	}
	if err := c.Kill(2); err != nil {
		t.Fatal(err)
	}
	if c.Running(2) || len(c.PIDs()) != 2 {
		t.Fatalf("node 3 still running after Kill")
	}
	pctx, pcancel := context.WithTimeout(ctx, 20*time.Second)
	defer pcancel()
	for {
		actx, acancel := context.WithTimeout(pctx, 2*time.Second)
		_, err := js.Publish(actx, "t", []byte("y"))
		acancel()
		t.Logf("publish after kill: %v (connected to %s)", err, nc.ConnectedServerName())
		if err == nil {
			break
		} else if pctx.Err() != nil {
			t.Fatalf("R3 stream with 2 of 3 nodes: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if cpu1, _ := c.CPU(); cpu1 < cpu0 {
		t.Errorf("CPU went backwards after a kill: %v < %v", cpu1, cpu0)
	}
	if err := c.Restart(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if !c.Running(2) {
		t.Fatal("node 3 not running after Restart")
	}
}

func TestSingleNode(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := Start(ctx, Options{Nodes: 1, Dir: t.TempDir(), Launch: testLaunch})
	if err != nil {
		t.Fatal(err)
	}
	if c.Size() != 1 || len(c.Addrs()) != 1 {
		t.Fatalf("size %d", c.Size())
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if c.Running(0) {
		t.Fatal("running after Close")
	}
}
