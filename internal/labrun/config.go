// Package labrun runs the third seed's experiments in a lab fabric
// (internal/lab): real nats-server JetStream nodes, each in its own
// network namespace on a shaped link with a cgroup CPU quota, and load
// generators (`stampede run nats.Publish`) in namespaces of their own. A
// step is one cluster size and one set of budgets; a preset is a list of
// steps. Every figure comes from the lab's own counters: bytes and
// packets from each namespace's interface, CPU from each host's cgroup,
// acknowledged messages from each stream's sequence on its leader.
package labrun

import (
	"fmt"
	"time"

	"github.com/stampede-bench/stampede/internal/lab"
	"github.com/stampede-bench/stampede/internal/usage"
)

// Profile names follow the nats family's --nats-profile.
const (
	HighThroughput  = "high-throughput"
	HighReliability = "high-reliability"
)

// Config is one step: a cluster, its clients and their budgets.
type Config struct {
	// Exe is the stampede binary run as node and as generator.
	Exe string
	// Dir is the step's scratch directory (stores, logs, summaries).
	Dir string
	// Nodes is the broker count (1–15).
	Nodes int
	// Clients is the generator hosts (1–64); each has its own namespace,
	// link and CPU quota.
	Clients int
	// VUs is the publishing VUs of each generator process (default 2).
	VUs int
	// NodeLink, ClientLink shape each node's and each client's link.
	NodeLink, ClientLink lab.Link
	// NodeCPU, ClientCPU are CPU quotas in cores (0: unlimited).
	NodeCPU, ClientCPU float64
	// Profile is high-throughput (R1) or high-reliability (R3); both
	// publish asynchronously (a window of messages in flight, as Kafka
	// producers do) and fsync in the background, as the seed's setup
	// says ("异步落盘"), unless FsyncAlways.
	Profile     string
	FsyncAlways bool
	// MessageSize is the payload in bytes (default 2048, the seed's).
	MessageSize int
	// StreamsPerPair is the streams each generator process publishes to,
	// all led by its node (default 1). Topics per node = StreamsPerPair ×
	// generator processes on the node.
	StreamsPerPair int
	// AsyncWindow is the messages in flight per VU (default 64).
	AsyncWindow int
	// Warmup is the time after every stream advances before the window
	// opens (default 2s); Window is how long it measures (default 8s).
	Warmup, Window time.Duration
	// LedgerDir is passed to lab.Spec.
	LedgerDir string
	// Log receives progress lines (may be nil).
	Log func(format string, a ...any)
}

// Replicas of the profile.
func (c *Config) Replicas() int {
	if c.Profile == HighReliability {
		return 3
	}
	return 1
}

// Defaults fills the unset fields.
func (c *Config) Defaults() {
	if c.VUs <= 0 {
		c.VUs = 2
	}
	if c.Profile == "" {
		c.Profile = HighThroughput
	}
	if c.MessageSize <= 0 {
		c.MessageSize = 2048
	}
	if c.StreamsPerPair <= 0 {
		c.StreamsPerPair = 1
	}
	if c.AsyncWindow <= 0 {
		c.AsyncWindow = 64
	}
	if c.Warmup <= 0 {
		c.Warmup = 2 * time.Second
	}
	if c.Window <= 0 {
		c.Window = 8 * time.Second
	}
}

// Validate reports bad settings as a usage error.
func (c *Config) Validate() error {
	switch {
	case c.Nodes < 1 || c.Nodes > 15:
		return usage.Errorf("lab nodes %d: want 1–15", c.Nodes)
	case c.Clients < 1 || c.Clients > 64:
		return usage.Errorf("lab clients %d: want 1–64", c.Clients)
	case c.Profile != HighThroughput && c.Profile != HighReliability:
		return usage.Errorf("lab profile %q: want %s or %s", c.Profile, HighThroughput, HighReliability)
	case c.Replicas() > c.Nodes:
		return usage.Errorf("the %s profile keeps %d replicas: it needs at least %d nodes, not %d", c.Profile, c.Replicas(), c.Replicas(), c.Nodes)
	case c.MessageSize < 32 || c.MessageSize > 1<<20:
		return usage.Errorf("lab message size %d: want 32 B–1 MiB", c.MessageSize)
	case c.StreamsPerPair > 256:
		return usage.Errorf("lab streams per generator %d: at most 256", c.StreamsPerPair)
	case pairs(c.Nodes, c.Clients) > 64:
		return usage.Errorf("lab: %d nodes × %d clients need %d generator processes; at most 64", c.Nodes, c.Clients, pairs(c.Nodes, c.Clients))
	}
	return nil
}

// pairs is the number of generator processes: every node gets at least
// one, every client at least one.
func pairs(nodes, clients int) int { return max(nodes, clients) }

// Pair is one generator process: client host Client publishes to the
// streams led by node Node.
type Pair struct {
	Index, Client, Node int
}

// Pairs assigns generator processes round-robin: pair p runs on client
// p mod C and publishes to node p mod N. With C ≥ N each client serves
// one node; with C < N each client serves several, one process per node,
// so that no message takes a route hop between nodes.
func (c *Config) Pairs() []Pair {
	out := make([]Pair, pairs(c.Nodes, c.Clients))
	for p := range out {
		out[p] = Pair{Index: p, Client: p % c.Clients, Node: p % c.Nodes}
	}
	return out
}

func (c *Config) logf(format string, a ...any) {
	if c.Log != nil {
		c.Log(format, a...)
	}
}

// String is the step's budgets in one line.
func (c *Config) String() string {
	cpu := func(v float64) string {
		if v <= 0 {
			return "unlimited CPU"
		}
		return fmt.Sprintf("%.2g cores", v)
	}
	return fmt.Sprintf("%d node(s) [%s, %s], %d client(s) [%s, %s], %s, %d B messages",
		c.Nodes, c.NodeLink, cpu(c.NodeCPU), c.Clients, c.ClientLink, cpu(c.ClientCPU), c.Profile, c.MessageSize)
}
