package msgload

import (
	"sort"
	"strconv"
	"strings"
)

// Layout is where a load's writes go: every write goes to the leader of
// its partition or stream, so a node sweep can only show scaling when
// there are at least as many of them as nodes, led by different nodes,
// and at least as many clients. Both families describe their layout with
// it (the sweep's verdict reads the same facts from leader_nodes and
// load_partitions).
type Layout struct {
	// Parts is how many partitions or streams the load writes; Word names
	// one ("partition", "stream").
	Parts int
	Word  string
	// Nodes is the cluster's size (0: unknown); Leaders counts the parts
	// each node leads, by node name, idle nodes included as 0.
	Nodes   int
	Leaders map[string]int
	// VUs is the run's VUs (0: unknown).
	VUs int
	// Auto, when set, says how the parts followed the node count, e.g.
	// "one stream per node, stream i led by node i mod N: --streams
	// overrides".
	Auto string
	// Flag is the option that sets Parts ("--streams", "--partitions").
	Flag string
}

// Note is "P stream(s) on N node(s); leaders per node: n1 1, n2 1 (auto)"
// and, when the layout rather than the cluster limits what adding nodes
// can show, why: fewer nodes lead a part than there are nodes, or fewer
// VUs than nodes.
func (l Layout) Note() string {
	s := sprintf("%d %s(s) on %s; %s", l.Parts, l.Word, nodesText(l.Nodes), DescribeLeaders(l.Leaders))
	if l.Auto != "" {
		s += " (" + l.Auto + ")"
	}
	k := Leading(l.Leaders)
	switch {
	case l.Nodes > 1 && k < l.Nodes:
		s += sprintf("; only %d of %d nodes lead a load %s: every write goes to %d leader(s), so the setup, not the cluster, limits throughput as nodes are added (give %s ≥ %d)", k, l.Nodes, l.Word, k, l.Flag, l.Nodes)
	case l.Nodes > 1 && l.VUs > 0 && l.VUs < l.Nodes:
		s += sprintf("; %d VU(s) for %d nodes: the clients, not the cluster, limit throughput as nodes are added (give -u ≥ %d)", l.VUs, l.Nodes, l.Nodes)
	}
	return s
}

func nodesText(n int) string {
	if n <= 0 {
		return "a cluster of unknown size (give the target monitor= to read it)"
	}
	return sprintf("%d node(s)", n)
}

// DescribeLeaders is "leaders per node: n1 2, n2 1, n3 0", names in
// natural order (n2 before n10).
func DescribeLeaders(m map[string]int) string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if len(names[i]) != len(names[j]) {
			return len(names[i]) < len(names[j])
		}
		return names[i] < names[j]
	})
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + " " + strconv.Itoa(m[n])
	}
	return "leaders per node: " + strings.Join(parts, ", ")
}

// Leading counts the nodes that lead at least one part ("?", an unknown
// leader, is not a node).
func Leading(m map[string]int) int {
	k := 0
	for n, c := range m {
		if c > 0 && n != "?" {
			k++
		}
	}
	return k
}
