package nats

import (
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"

	natsdrv "github.com/stampede-bench/stampede/internal/driver/nats"
	"github.com/stampede-bench/stampede/internal/natscluster"
	"github.com/stampede-bench/stampede/internal/workload/msgload"
)

// broker is the nats adapter of the messaging core: it answers the
// ledger's "does the stream hold this message" (msgload.Holder) and, on
// the embedded cluster, kills and restarts nodes (msgload.NodeKiller).
type broker struct {
	r *run
}

var (
	_ msgload.Holder     = broker{}
	_ msgload.NodeKiller = broker{}
)

// Holds asks the stream for the message at ref's sequence. A sequence
// below the stream's first is one the stream's limits discarded
// (--nats-stream-max-bytes): not a loss, and not a hold either, so it is
// an error (the message stays unconfirmed).
func (b broker) Holds(ctx context.Context, ref msgload.Ref) (bool, error) {
	name := b.r.streams[ref.Part]
	s, err := b.r.admin.Stream(ctx, name)
	if err != nil {
		return false, fmt.Errorf("stream %s: %s", name, natsdrv.ErrorMessage(err))
	}
	if _, err := s.GetMsg(ctx, uint64(ref.Seq)); err == nil {
		return true, nil
	} else if !errors.Is(err, jetstream.ErrMsgNotFound) {
		return false, fmt.Errorf("stream %s: %s", name, natsdrv.ErrorMessage(err))
	}
	if first := s.CachedInfo().State.FirstSeq; uint64(ref.Seq) < first {
		return false, fmt.Errorf("stream %s: sequence %d discarded by the stream's limits (first sequence %d)", name, ref.Seq, first)
	}
	return false, nil
}

func (b broker) cluster() *natscluster.Cluster { return b.r.cluster }

// Nodes is the size of the embedded cluster.
func (b broker) Nodes() int { return b.cluster().Size() }

// NodeName is node i's server name.
func (b broker) NodeName(i int) string { return b.cluster().NodeName(i) }

// Kill sends node i SIGKILL.
func (b broker) Kill(i int) error { return b.cluster().Kill(i) }

// Restart starts node i again with its store.
func (b broker) Restart(ctx context.Context, i int) error { return b.cluster().Restart(ctx, i) }

// Leader is the index of the node leading stream part, -1 when unknown.
func (b broker) Leader(ctx context.Context, part int) int {
	s, err := b.r.admin.Stream(ctx, b.r.streams[part])
	if err != nil {
		return -1
	}
	info := s.CachedInfo()
	if info.Cluster == nil {
		return -1
	}
	if info.Cluster.Leader == "" && info.Cluster.Name == "" {
		return -1
	}
	return b.cluster().Index(info.Cluster.Leader)
}
