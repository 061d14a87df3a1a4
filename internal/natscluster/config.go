package natscluster

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"strings"
)

// nodeConfig renders the nats-server config file of node i.
func (c *Cluster) nodeConfig(i int) string {
	n := c.nodes[i]
	q := strconv.Quote
	var b strings.Builder
	fmt.Fprintf(&b, "server_name: %s\nhost: \"127.0.0.1\"\nport: %d\nhttp: %s\n", q(n.Name), n.Port, q("127.0.0.1:"+strconv.Itoa(n.HTTPPort)))
	fmt.Fprintf(&b, "log_file: %s\nmax_payload: 8MB\n", q(filepath.Join(c.dir, n.Name+".log")))
	// A tag per node lets a one-replica stream be placed on a chosen node.
	fmt.Fprintf(&b, "server_tags: [%s]\n", q(NodeTag(n.Name)))
	fmt.Fprintf(&b, "jetstream {\n  store_dir: %s\n  max_memory_store: 256MB\n  max_file_store: %d\n", q(filepath.Join(c.dir, n.Name)), c.opts.MaxStore)
	if c.opts.SyncAlways {
		b.WriteString("  sync_interval: always\n")
	}
	b.WriteString("}\n")
	if len(c.nodes) > 1 || c.opts.Clustered {
		var routes []string
		for j, m := range c.nodes {
			if j != i {
				routes = append(routes, q("nats-route://127.0.0.1:"+strconv.Itoa(m.ClusterPort)))
			}
		}
		fmt.Fprintf(&b, "cluster {\n  name: %s\n  host: \"127.0.0.1\"\n  port: %d\n  routes: [%s]\n}\n", q(c.name), n.ClusterPort, strings.Join(routes, ", "))
	}
	return b.String()
}

// newClusterName names one embedded cluster: "stampede-" and 8 random
// hex digits. Every cluster has its own name, because a node's routes
// outlive its peers: when a node is killed, the others keep dialling its
// route port, and a node of another cluster started later on this machine
// may get that port. With one name for all, nats-server would join the two
// clusters (their JetStream meta groups and streams mixed); with distinct
// names it refuses the route.
func newClusterName() string {
	var b [4]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on Linux
	return "stampede-" + hex.EncodeToString(b[:])
}

// freePorts returns n distinct free loopback TCP ports. They are free
// when returned; a node that loses the race fails to start and says so.
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			_ = l.Close()
		}
	}()
	out := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("pick a free port: %w", err)
		}
		ls = append(ls, l)
		out = append(out, l.Addr().(*net.TCPAddr).Port)
	}
	return out, nil
}
