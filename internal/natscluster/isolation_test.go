package natscluster

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// numRoutes is the number of servers node i has routes to (/routez;
// nats-server pools several connections per peer).
func numRoutes(t *testing.T, c *Cluster, i int) int {
	t.Helper()
	resp, err := http.Get(c.MonitorURL(i) + "/routez")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var rz struct {
		Routes []struct {
			RemoteName string `json:"remote_name"`
		} `json:"routes"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&rz); err != nil {
		t.Fatal(err)
	}
	peers := map[string]bool{}
	for _, r := range rz.Routes {
		peers[r.RemoteName] = true
	}
	return len(peers)
}

// A node killed in one cluster leaves its route port to whoever takes it
// next, and its peers keep dialling it. A node of another embedded cluster
// on that port (here forced, in CI it happens by chance when tests run side
// by side) must not join: each cluster has its own name.
func TestClustersDoNotJoinThroughAReusedRoutePort(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	a, err := Start(ctx, Options{Nodes: 3, Dir: t.TempDir(), Launch: testLaunch})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if err := a.Kill(2); err != nil {
		t.Fatal(err)
	}
	// A two-node cluster, one of its nodes on the killed node's route
	// port. Its server names differ from the first cluster's: with one
	// cluster name for both, nats-server joins them then (tried: the test
	// fails within 2 s).
	ports, err := freePorts(5)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	b := &Cluster{opts: Options{Nodes: 2, Dir: dir, MaxStore: 1 << 30, Launch: testLaunch, ReadyTimeout: time.Minute}, dir: dir, name: newClusterName()}
	b.nodes = []*Node{
		{Name: "n4", Port: ports[0], ClusterPort: a.nodes[2].ClusterPort, HTTPPort: ports[1]},
		{Name: "n5", Port: ports[2], ClusterPort: ports[3], HTTPPort: ports[4]},
	}
	defer b.Close()
	var waits []func() error
	for i, n := range b.nodes {
		n.cfg = filepath.Join(dir, n.Name+".conf")
		if err := os.WriteFile(n.cfg, []byte(b.nodeConfig(i)), 0o600); err != nil {
			t.Fatal(err)
		}
		w, err := b.launch(i)
		if err != nil {
			t.Fatal(err)
		}
		waits = append(waits, w)
	}
	for i, w := range waits {
		if err := w(); err != nil {
			log, _ := os.ReadFile(filepath.Join(dir, b.nodes[i].Name+".log"))
			t.Fatalf("%v\n%s", err, log)
		}
	}
	// The other cluster's nodes find each other first (a ready node may
	// not have dialled its routes yet).
	for i := range 2 {
		for wait := time.Now().Add(30 * time.Second); numRoutes(t, b, i) != 1; time.Sleep(100 * time.Millisecond) {
			if time.Now().After(wait) {
				t.Fatalf("node %s of the other cluster never routed to its peer", b.nodes[i].Name)
			}
		}
	}
	// nats-server redials a lost explicit route every second.
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		for i := range 2 {
			if n := numRoutes(t, b, i); n != 1 {
				t.Fatalf("node %s of the other cluster has %d routes, want 1 (its own peer): the clusters joined", b.nodes[i].Name, n)
			}
		}
		for i := range 2 {
			if n := numRoutes(t, a, i); n != 1 {
				t.Fatalf("node %s of the first cluster has %d routes, want 1 (its live peer only)", a.nodes[i].Name, n)
			}
		}
		time.Sleep(500 * time.Millisecond)
	}
}
