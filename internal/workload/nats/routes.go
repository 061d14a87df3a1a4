package nats

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// publisherNodes tallies where the publishers' connections landed. A
// client connects to any node of the cluster (nats.go picks one of the
// URLs at random); a publish to a stream led by another node is forwarded
// over a route, one more hop on the broker for every message. Whether a
// run's publishers sat on their streams' leaders moves both msgs/s and the
// broker's CPU per message, so the notes say it.
type publisherNodes struct {
	// leaders are the load streams' leaders when the run began, by stream
	// index ("" unknown).
	leaders []string
	// nodes is the cluster's size (0: unknown, as with --target: then the
	// nodes the publishers and leaders name); one node has no routes.
	nodes int

	mu      sync.Mutex
	perNode map[string]int
	direct  float64 // publishes' share sent straight to their leader, summed over publishers
	n       int
}

// add counts a publisher connected to server that writes the streams
// with the given indexes in equal shares.
func (p *publisherNodes) add(server string, streams []int) {
	if len(streams) == 0 {
		return
	}
	local := 0
	for _, si := range streams {
		if si < len(p.leaders) && p.leaders[si] != "" && p.leaders[si] == server {
			local++
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.perNode == nil {
		p.perNode = map[string]int{}
	}
	p.perNode[server]++
	p.direct += float64(local) / float64(len(streams))
	p.n++
}

// note is "publisher connections per node: n1 2, n2 1, n3 1; 25% of the
// publishes go straight to their stream's leader, 75% cross a route (...)",
// or "" when there is nothing to say (one node, no publisher, a leader
// unknown).
func (p *publisherNodes) note() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.n == 0 || slices.Contains(p.leaders, "") {
		return ""
	}
	names := make([]string, 0, len(p.perNode))
	for name := range p.perNode {
		names = append(names, name)
	}
	slices.Sort(names)
	seen := append(slices.Clone(names), p.leaders...)
	slices.Sort(seen)
	if max(p.nodes, len(slices.Compact(seen))) < 2 {
		return ""
	}
	parts := make([]string, len(names))
	for i, name := range names {
		parts[i] = fmt.Sprintf("%s %d", name, p.perNode[name])
	}
	direct := 100 * p.direct / float64(p.n)
	s := fmt.Sprintf("publisher connections per node: %s; %.0f%% of the publishes go straight to their stream's leader",
		strings.Join(parts, ", "), direct)
	if direct < 99.5 {
		s += fmt.Sprintf(", %.0f%% are forwarded over a route (one more hop on the broker per message: "+
			"which node a client lands on moves msgs/s and the broker's CPU per message)", 100-direct)
	}
	return s
}
