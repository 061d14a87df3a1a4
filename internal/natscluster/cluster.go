package natscluster

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Options configure Start.
type Options struct {
	// Nodes is the cluster size (default 3). One node runs JetStream
	// standalone unless Clustered.
	Nodes int
	// Clustered gives a one-node cluster a cluster block too.
	Clustered bool
	// Dir holds one store directory and one log file per node; it is
	// created when missing. Required.
	Dir string
	// SyncAlways sets JetStream's sync_interval to always: every write is
	// fsynced before it is acknowledged. Default: the server's (2m).
	SyncAlways bool
	// MaxStore caps each node's file storage in bytes (default 8 GiB).
	MaxStore int64
	// Launch makes the command of a node given its config file (default:
	// this executable with `nats node`, and NodeConfigEnv set).
	Launch func(config string) *exec.Cmd
	// ReadyTimeout bounds Start's wait for the meta leader (default 60s).
	ReadyTimeout time.Duration
}

// Node is one server of the cluster.
type Node struct {
	// Name is the server name (n1, n2, ...).
	Name string
	// Port serves clients, ClusterPort routes, HTTPPort monitoring.
	Port, ClusterPort, HTTPPort int

	cfg   string
	cmd   *exec.Cmd
	stdin io.WriteCloser
	done  chan struct{}
}

// Cluster is a running embedded cluster. Its methods are safe for
// concurrent use.
type Cluster struct {
	opts Options
	dir  string
	// name is the NATS cluster name, this cluster's own (newClusterName).
	name  string
	mu    sync.Mutex
	nodes []*Node
	// deadCPU is the CPU time of node processes that have exited.
	deadCPU time.Duration
	closed  bool
}

// DefaultLaunch runs this executable as `stampede nats node --config
// FILE` with NodeConfigEnv set. In a test binary it runs no test
// (-test.run=^$): a TestMain that calls RunNodeIfChild serves as the node,
// any other exits at once and Start reports that the node did not start.
func DefaultLaunch(config string) *exec.Cmd {
	exe, err := os.Executable()
	if err != nil {
		exe = os.Args[0]
	}
	args := []string{"nats", "node", "--config", config}
	if testing.Testing() {
		args = []string{"-test.run=^$"}
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), NodeConfigEnv+"="+config)
	return cmd
}

// Start launches the nodes and waits until the cluster is ready: every
// node healthy and the JetStream meta leader elected.
func Start(ctx context.Context, o Options) (_ *Cluster, err error) {
	if o.Nodes < 1 {
		o.Nodes = 3
	}
	if o.Dir == "" {
		return nil, errors.New("embedded nats cluster: no data directory")
	}
	if o.MaxStore <= 0 {
		o.MaxStore = 8 << 30
	}
	if o.Launch == nil {
		o.Launch = DefaultLaunch
	}
	if o.ReadyTimeout <= 0 {
		o.ReadyTimeout = 60 * time.Second
	}
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("embedded nats cluster: %w", err)
	}
	ports, err := freePorts(3 * o.Nodes)
	if err != nil {
		return nil, err
	}
	c := &Cluster{opts: o, dir: o.Dir, name: newClusterName()}
	for i := range o.Nodes {
		c.nodes = append(c.nodes, &Node{Name: "n" + strconv.Itoa(i+1), Port: ports[3*i], ClusterPort: ports[3*i+1], HTTPPort: ports[3*i+2]})
	}
	defer func() {
		if err != nil {
			_ = c.Close()
		}
	}()
	for i, n := range c.nodes {
		n.cfg = filepath.Join(c.dir, n.Name+".conf")
		if err := os.WriteFile(n.cfg, []byte(c.nodeConfig(i)), 0o600); err != nil {
			return nil, fmt.Errorf("embedded nats cluster: %w", err)
		}
	}
	// Start every node before waiting for any: a clustered node is only
	// ready once it sees its peers.
	waits := make([]func() error, len(c.nodes))
	for i := range c.nodes {
		w, err := c.launch(i)
		if err != nil {
			return nil, err
		}
		waits[i] = w
	}
	for _, w := range waits {
		if err := w(); err != nil {
			return nil, err
		}
	}
	rctx, cancel := context.WithTimeout(ctx, o.ReadyTimeout)
	defer cancel()
	if err := c.WaitReady(rctx); err != nil {
		return nil, err
	}
	return c, nil
}

// launch starts node i and returns a function that waits for its ready
// line.
func (c *Cluster) launch(i int) (func() error, error) {
	n := c.nodes[i]
	cmd := c.opts.Launch(n.cfg)
	detach(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr strings.Builder
	cmd.Stderr = &limitWriter{w: &stderr, n: 4096}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("embedded nats node %s: %w", n.Name, err)
	}
	done := make(chan struct{})
	c.mu.Lock()
	n.cmd, n.stdin, n.done = cmd, stdin, done
	c.mu.Unlock()
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		ok := false
		for sc.Scan() {
			if !ok && strings.TrimSpace(sc.Text()) == readyLine {
				ok = true
				ready <- true
			}
		}
		if !ok {
			ready <- false
		}
		_ = cmd.Wait()
		c.mu.Lock()
		if ps := cmd.ProcessState; ps != nil {
			c.deadCPU += ps.UserTime() + ps.SystemTime()
		}
		c.mu.Unlock()
		close(done)
	}()
	return func() error {
		select {
		case ok := <-ready:
			if ok {
				return nil
			}
			<-done
			return fmt.Errorf("embedded nats node %s did not start: %s", n.Name, firstLine(stderr.String(), cmd.ProcessState))
		case <-time.After(c.opts.ReadyTimeout):
			_ = cmd.Process.Kill()
			return fmt.Errorf("embedded nats node %s: not ready within %s", n.Name, c.opts.ReadyTimeout)
		}
	}, nil
}

func firstLine(s string, ps *os.ProcessState) string {
	s = strings.TrimSpace(s)
	if s == "" {
		if ps != nil {
			return ps.String()
		}
		return "no output"
	}
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// HeadWriter returns a writer that passes the first n bytes written to it
// on to w and drops the rest, never failing: a node's stderr kept for an
// error message.
func HeadWriter(w io.Writer, n int) io.Writer { return &limitWriter{w: w, n: n} }

// limitWriter keeps the first n bytes written to it.
type limitWriter struct {
	w io.Writer
	n int
}

func (l *limitWriter) Write(p []byte) (int, error) {
	if l.n > 0 {
		k := min(len(p), l.n)
		l.n -= k
		_, _ = l.w.Write(p[:k])
	}
	return len(p), nil
}

// Size is the number of nodes (running or not).
func (c *Cluster) Size() int { return len(c.nodes) }

// proc returns node i's current process state.
func (c *Cluster) proc(i int) (cmd *exec.Cmd, stdin io.WriteCloser, done chan struct{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.nodes[i]
	return n.cmd, n.stdin, n.done
}

// Addrs are the client addresses of all nodes, host:port.
func (c *Cluster) Addrs() []string {
	out := make([]string, len(c.nodes))
	for i, n := range c.nodes {
		out[i] = "127.0.0.1:" + strconv.Itoa(n.Port)
	}
	return out
}

// URL is the nats:// target of the cluster.
func (c *Cluster) URL() string { return "nats://" + strings.Join(c.Addrs(), ",") }

// MonitorURL is node i's HTTP monitoring endpoint.
func (c *Cluster) MonitorURL(i int) string {
	return "http://127.0.0.1:" + strconv.Itoa(c.nodes[i].HTTPPort)
}

// Running tells whether node i's process is alive.
func (c *Cluster) Running(i int) bool {
	_, _, done := c.proc(i)
	if done == nil {
		return false
	}
	select {
	case <-done:
		return false
	default:
		return true
	}
}

// PIDs are the process ids of the running nodes.
func (c *Cluster) PIDs() []int {
	var out []int
	for i := range c.nodes {
		if cmd, _, _ := c.proc(i); c.Running(i) {
			out = append(out, cmd.Process.Pid)
		}
	}
	return out
}

// Kill crashes node i (SIGKILL) and waits for its process to end.
func (c *Cluster) Kill(i int) error {
	cmd, _, done := c.proc(i)
	if cmd == nil || !c.Running(i) {
		return fmt.Errorf("nats node %s is not running", c.nodes[i].Name)
	}
	_ = cmd.Process.Kill()
	<-done
	return nil
}

// Stop shuts node i down cleanly (it leaves the cluster) and waits.
func (c *Cluster) Stop(i int) error {
	cmd, stdin, done := c.proc(i)
	if cmd == nil || !c.Running(i) {
		return nil
	}
	_ = stdin.Close()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		<-done
	}
	return nil
}

// Restart starts a stopped or killed node i again with its store: it
// rejoins the cluster and catches up. It waits until the node is healthy.
func (c *Cluster) Restart(ctx context.Context, i int) error {
	if c.Running(i) {
		return fmt.Errorf("nats node %s is running", c.nodes[i].Name)
	}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return errors.New("cluster closed")
	}
	c.mu.Unlock()
	w, err := c.launch(i)
	if err != nil {
		return err
	}
	if err := w(); err != nil {
		return err
	}
	return c.waitHealthy(ctx, i)
}

// Close stops every node; it is safe to call more than once.
func (c *Cluster) Close() error {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	var wg sync.WaitGroup
	for i := range c.nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = c.Stop(i)
		}()
	}
	wg.Wait()
	return nil
}

// CPU is the CPU time (user + system) that the node processes used so
// far, exited ones included. ok is false where it cannot be measured.
func (c *Cluster) CPU() (d time.Duration, ok bool) {
	c.mu.Lock()
	d = c.deadCPU
	c.mu.Unlock()
	for _, pid := range c.PIDs() {
		t, ok := processCPU(pid)
		if !ok {
			return 0, false
		}
		d += t
	}
	return d, true
}
