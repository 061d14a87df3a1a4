package labrun

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/internal/lab"
	"github.com/stampede-bench/stampede/internal/natscluster"
)

// Ports every node uses on its own address.
const (
	clientPort  = 4222
	clusterPort = 6222
	httpPort    = 8222
)

// nodeConfig renders node i's nats-server config: it listens on its own
// lab address only, routes to every other node, and carries the tag
// node:NAME so that an R1 stream can be placed on it.
func nodeConfig(dir string, hosts []*lab.Host, i, replicas int, fsyncAlways bool) string {
	h := hosts[i]
	q := strconv.Quote
	addr := h.Addr.String()
	var b strings.Builder
	fmt.Fprintf(&b, "server_name: %s\nhost: %s\nport: %d\nhttp: %s\n", q(h.Name), q(addr), clientPort, q(addr+":"+strconv.Itoa(httpPort)))
	tags := []string{q("node:" + h.Name)}
	for _, g := range groupsOf(i, len(hosts), replicas) {
		tags = append(tags, q(groupTag(g)))
	}
	fmt.Fprintf(&b, "server_tags: [%s]\n", strings.Join(tags, ", "))
	fmt.Fprintf(&b, "log_file: %s\nmax_payload: 8MB\n", q(filepath.Join(dir, h.Name+".log")))
	// max_file_store is an accounting limit (each stream reserves its
	// MaxBytes); the disk holds what the window writes.
	fmt.Fprintf(&b, "jetstream {\n  store_dir: %s\n  max_memory_store: 64MB\n  max_file_store: 16GB\n", q(filepath.Join(dir, h.Name)))
	if fsyncAlways {
		b.WriteString("  sync_interval: always\n")
	}
	b.WriteString("}\n")
	if len(hosts) > 1 {
		var routes []string
		for j, m := range hosts {
			if j != i {
				routes = append(routes, q("nats-route://"+m.Addr.String()+":"+strconv.Itoa(clusterPort)))
			}
		}
		fmt.Fprintf(&b, "cluster {\n  name: \"lab\"\n  host: %s\n  port: %d\n  routes: [%s]\n}\n", q(addr), clusterPort, strings.Join(routes, ", "))
	}
	return b.String()
}

// Replica groups: for R > 1, group j is the nodes j, j+1, …, j+R-1
// (mod N). A stream led by node j is placed on group j by its tag, so
// every node leads its own streams and follows those of the R-1 nodes
// before it: leaders and replicas spread evenly.
func groupsOf(i, n, replicas int) []int {
	if replicas <= 1 {
		return nil
	}
	var out []int
	for r := range replicas {
		out = append(out, ((i-r)%n+n)%n)
	}
	return out
}

func groupTag(g int) string { return "group:" + strconv.Itoa(g) }

// node is a running broker process.
type node struct {
	host  *lab.Host
	cmd   *exec.Cmd
	stdin io.WriteCloser
	done  chan struct{}
}

// startNodes launches every node (in its namespace and cgroup) and waits
// for each to print its ready line.
func startNodes(c *Config, f *lab.Fabric, hosts []*lab.Host) ([]*node, error) {
	var nodes []*node
	ready := make(chan error, len(hosts))
	for i, h := range hosts {
		cfg := filepath.Join(c.Dir, h.Name+".conf")
		if err := os.WriteFile(cfg, []byte(nodeConfig(c.Dir, hosts, i, c.Replicas(), c.FsyncAlways)), 0o600); err != nil {
			return nodes, err
		}
		cmd := f.Command(h, c.Exe, "nats", "node", "--config", cfg)
		stdin, err := cmd.StdinPipe()
		if err != nil {
			return nodes, err
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			return nodes, err
		}
		var stderr strings.Builder
		cmd.Stderr = natscluster.HeadWriter(&stderr, 2048)
		if err := cmd.Start(); err != nil {
			return nodes, fmt.Errorf("lab node %s: %w", h.Name, err)
		}
		n := &node{host: h, cmd: cmd, stdin: stdin, done: make(chan struct{})}
		nodes = append(nodes, n)
		go func() {
			sc := bufio.NewScanner(stdout)
			ok := false
			for sc.Scan() {
				if !ok && strings.TrimSpace(sc.Text()) == "ready" {
					ok = true
					ready <- nil
				}
			}
			_ = cmd.Wait()
			if !ok {
				ready <- fmt.Errorf("lab node %s did not start: %s", h.Name, oneLine(stderr.String(), cmd.ProcessState))
			}
			close(n.done)
		}()
	}
	timeout := time.After(60 * time.Second)
	for range hosts {
		select {
		case err := <-ready:
			if err != nil {
				return nodes, err
			}
		case <-timeout:
			return nodes, fmt.Errorf("lab nodes not ready within 60s")
		}
	}
	return nodes, nil
}

// stopNodes closes every node's stdin (it shuts down cleanly) and waits
// up to 10 s; the fabric's Down kills what is left.
func stopNodes(nodes []*node) {
	for _, n := range nodes {
		_ = n.stdin.Close()
	}
	deadline := time.After(10 * time.Second)
	for _, n := range nodes {
		select {
		case <-n.done:
		case <-deadline:
			return
		}
	}
}

func oneLine(s string, ps *os.ProcessState) string {
	s = strings.TrimSpace(s)
	if s == "" {
		if ps != nil {
			return ps.String()
		}
		return "no output"
	}
	l, _, _ := strings.Cut(s, "\n")
	return l
}
