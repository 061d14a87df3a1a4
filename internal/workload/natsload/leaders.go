package natsload

import (
	"context"
	"encoding/json"
	"sort"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	natsdrv "github.com/stampede-bench/stampede/internal/driver/nats"
	"github.com/stampede-bench/stampede/internal/natscluster"
)

// leaderCounts counts the streams each server leads, from stream infos;
// nodes lists every node name known (so that idle nodes show as 0).
func leaderCounts(infos []*jetstream.StreamInfo, nodes []string) map[string]int {
	m := map[string]int{}
	for _, n := range nodes {
		m[n] = 0
	}
	for _, in := range infos {
		if in == nil {
			continue
		}
		l := "?"
		if in.Cluster != nil && in.Cluster.Leader != "" {
			l = in.Cluster.Leader
		}
		m[l]++
	}
	return m
}

// describeLeaders is "leaders per node: n1 2, n2 1, n3 0".
func describeLeaders(m map[string]int) string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if len(names[i]) != len(names[j]) {
			return len(names[i]) < len(names[j]) // n2 before n10
		}
		return names[i] < names[j]
	})
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + " " + sprintf("%d", m[n])
	}
	return "leaders per node: " + strings.Join(parts, ", ")
}

// leading counts the nodes that lead at least one stream.
func leading(m map[string]int) int {
	k := 0
	for n, c := range m {
		if c > 0 && n != "?" {
			k++
		}
	}
	return k
}

// stepdownRequest is JetStream's leader stepdown request with a preferred
// new leader (nats-server 2.11 and later).
type stepdownRequest struct {
	Placement struct {
		Preferred string `json:"preferred"`
	} `json:"placement"`
}

// spreadLeaders asks replicated streams whose leader is not their share
// of the nodes (stream i → node i mod N) to step down in favour of it, so
// that the load's writes spread over the nodes; one-replica streams were
// placed on their node when created (placement tags, embedded cluster).
// It returns how many stepdowns the cluster accepted; failures only leave
// the leaders where they are (the note says where they are).
func spreadLeaders(ctx context.Context, nc *nats.Conn, infos []*jetstream.StreamInfo, nodes []string) int {
	if len(nodes) < 2 {
		return 0
	}
	moved := 0
	for i, in := range infos {
		if in == nil || in.Config.Replicas < 2 || in.Cluster == nil {
			continue
		}
		want := nodes[i%len(nodes)]
		if in.Cluster.Leader == want || !hasPeer(in, want) {
			continue
		}
		var req stepdownRequest
		req.Placement.Preferred = want
		body, _ := json.Marshal(req)
		rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		msg, err := nc.RequestWithContext(rctx, "$JS.API.STREAM.LEADER.STEPDOWN."+in.Config.Name, body)
		cancel()
		if err == nil && !strings.Contains(string(msg.Data), `"error"`) {
			moved++
		}
	}
	return moved
}

func hasPeer(in *jetstream.StreamInfo, name string) bool {
	if in.Cluster.Leader == name {
		return true
	}
	for _, r := range in.Cluster.Replicas {
		if r.Name == name {
			return true
		}
	}
	return false
}

// clusterSize is the number of nodes: the embedded cluster's, or the meta
// group's read back from the monitoring endpoint; 0 when unknown.
func clusterSize(c *natscluster.Cluster, jsz *natsdrv.JSZ) int {
	if c != nil {
		return c.Size()
	}
	if jsz != nil && jsz.Meta != nil {
		return jsz.Meta.Size
	}
	return 0
}

// layoutNote says where the load's stream leaders are and whether the
// layout, rather than the cluster, limits what a node sweep can show:
// fewer streams (or leaders) than nodes, or fewer VUs than nodes.
func layoutNote(o *Options, leaders map[string]int, nodes, vus int, given bool) string {
	s := sprintf("%d stream(s) on %s; %s", o.Streams, nodesText(nodes), describeLeaders(leaders))
	if !given {
		s += " (one stream per node, stream i led by node i mod N: --streams overrides)"
	}
	k := leading(leaders)
	switch {
	case nodes > 1 && k < nodes:
		s += sprintf("; only %d of %d nodes lead a load stream: every write goes to %d leader(s), so the setup, not the cluster, limits throughput as nodes are added (give --streams ≥ %d)", k, nodes, k, nodes)
	case nodes > 1 && vus > 0 && vus < nodes:
		s += sprintf("; %d VU(s) for %d nodes: the clients, not the cluster, limit throughput as nodes are added (give -u ≥ %d)", vus, nodes, nodes)
	}
	return s
}

func nodesText(n int) string {
	if n <= 0 {
		return "a cluster of unknown size (give the target monitor= to read it)"
	}
	return sprintf("%d node(s)", n)
}
