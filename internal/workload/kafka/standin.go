package kafka

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/twmb/franz-go/pkg/kadm"
)

// Cluster ids of the embedded cluster (kfake), which stampede kafka serve
// also uses, so that a run with --target knows it measures the stand-in.
// EmbeddedClusterIDFsync marks a cluster that writes every produced batch
// to disk with fsync (--fsync, or flush.messages=1 on the embedded one).
const (
	EmbeddedClusterID      = "stampede-embedded"
	EmbeddedClusterIDFsync = "stampede-embedded-fsync"
	// kfakeClusterID is kfake's own default id (another program's kfake).
	kfakeClusterID = "kfake"
)

// standIn describes a kfake cluster found behind the target: what the
// run's notes must say it does not model.
type standIn struct {
	// brokers is the broker count the cluster reports.
	brokers int
	// fsync is set when the cluster fsyncs every produced batch.
	fsync bool
	// inProcess is set for the embedded cluster of this run.
	inProcess bool
}

// isStandInID tells whether a cluster id is kfake's (ours or its default).
func isStandInID(id string) bool {
	return id == EmbeddedClusterID || id == EmbeddedClusterIDFsync || id == kfakeClusterID
}

// detectStandIn asks the cluster for its id; ok is false for a real
// cluster (or one that does not say).
func detectStandIn(ctx context.Context, adm *kadm.Client) (standIn, bool) {
	md, err := adm.BrokerMetadata(ctx)
	if err != nil || !isStandInID(md.Cluster) {
		return standIn{}, false
	}
	return standIn{brokers: len(md.Brokers), fsync: md.Cluster == EmbeddedClusterIDFsync}, true
}

// note is the one summary note of a run on kfake: what it does not
// model, and which of the run's settings therefore cannot take effect.
func (s standIn) note(o *Options) string {
	where := "served by another process, e.g. stampede kafka serve"
	if s.inProcess {
		where = "inside this process"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "stand-in target: kfake, an in-memory Kafka-protocol test cluster (%d broker(s) %s); it does not model replication (one copy per partition whatever the replication factor), in-sync replicas (every replica is always in sync), leader election (leaders move only when stampede moves them), brokers working in parallel (one goroutine serves the requests of every broker, so brokers add no capacity) or the network (loopback, no latency or loss): figures reflect the client and a test broker, not a real broker",
		s.brokers, where)
	if u := unmodelled(o, s.fsync); o != nil && len(u) > 0 {
		b.WriteString("; settings without effect here: ")
		b.WriteString(strings.Join(u, ", "))
	}
	if s.fsync {
		b.WriteString("; flush cost is real: every produced batch is written to disk with fsync")
	}
	return b.String()
}

// unmodelled lists the settings of o that kfake accepts but cannot honour.
// fsync tells whether the cluster fsyncs every batch (flush.messages=1 is
// then real).
func unmodelled(o *Options, fsync bool) []string {
	var out []string
	if o == nil {
		return nil
	}
	if o.ReplicationFactor > 1 {
		out = append(out, fmt.Sprintf("replication factor %d (one copy is kept)", o.ReplicationFactor))
	}
	cfgs, _ := topicConfigs(o)
	if v, ok := cfgs["min.insync.replicas"]; ok {
		out = append(out, "min.insync.replicas="+v+" (never enforced)")
	}
	if a := strings.ToLower(o.Acks); a == "all" || a == "-1" {
		out = append(out, "acks=all (waits for the one copy only)")
	}
	if v, ok := cfgs["flush.messages"]; ok && !(fsync && v == "1") {
		out = append(out, "flush.messages="+v+" (not flushed on that count)")
	}
	if v, ok := cfgs["flush.ms"]; ok {
		out = append(out, "flush.ms="+v+" (no timed flush)")
	}
	return out
}

// wantsFsync tells whether the options ask for a flush after every
// message (flush.messages=1), which the embedded cluster honours by
// fsyncing every batch.
func wantsFsync(o *Options) bool {
	cfgs, _ := topicConfigs(o)
	n, err := strconv.ParseInt(cfgs["flush.messages"], 10, 64)
	return err == nil && n == 1
}

// spreadNote says how the embedded cluster's leaders were placed and what
// that cannot show: kfake places leaders where stampede asks, but one
// goroutine serves every broker, so a curve over the broker count is the
// stand-in's.
func spreadNote(brokers int) string {
	return sprintf("kfake leaders: kfake picks each partition's leader at random; stampede moved them so that partition k of the load is led by broker k mod %d (leaders per broker in the layout note). The leaders are spread, but kfake is a stand-in: it does not model brokers working in parallel (one goroutine of this process serves every broker), so a curve over --brokers is limited by the stand-in and says nothing about how Kafka scales", brokers)
}
