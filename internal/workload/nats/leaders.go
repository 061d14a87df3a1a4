package nats

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	natsdrv "github.com/stampede-bench/stampede/internal/driver/nats"
	"github.com/stampede-bench/stampede/internal/natscluster"
	"github.com/stampede-bench/stampede/internal/workload/msgload"
)

// leaderCounts counts the streams each server leads, from the streams'
// leaders ("" unknown, counted as "?"); nodes lists every node name known
// (so that idle nodes show as 0).
func leaderCounts(leaders []string, nodes []string) map[string]int {
	m := map[string]int{}
	for _, n := range nodes {
		m[n] = 0
	}
	for _, l := range leaders {
		if l == "" {
			l = "?"
		}
		m[l]++
	}
	return m
}

// streamLeaders names each stream's leader ("" unknown), in the order of
// infos.
func streamLeaders(infos []*jetstream.StreamInfo) []string {
	leaders := make([]string, len(infos))
	for i, in := range infos {
		if in != nil && in.Cluster != nil {
			leaders[i] = in.Cluster.Leader
		}
	}
	return leaders
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
// layout, rather than the cluster, limits what a node sweep can show
// (msgload.Layout).
func layoutNote(o *Options, leaders map[string]int, nodes, vus int, given bool) string {
	l := msgload.Layout{Parts: o.Streams, Word: "stream", Nodes: nodes, Leaders: leaders, VUs: vus, Flag: "--streams"}
	if !given {
		l.Auto = "one stream per node, stream i led by node i mod N: --streams overrides"
	}
	return l.Note()
}
