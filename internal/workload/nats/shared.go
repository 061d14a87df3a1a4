package nats

import (
	"context"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/stampede-bench/stampede/internal/natscluster"
	"github.com/stampede-bench/stampede/internal/workload/msgload"
)

// run is what every scenario of one Open shares.
type run struct {
	opts    Options
	ids     *ids
	streams []string
	// connect opens a client connection to the target.
	connect func(name string) (*nats.Conn, error)
	// cluster is the embedded cluster; nil with --target.
	cluster *natscluster.Cluster
	// admin is the run's JetStream context for stream questions (the
	// ledger's, the kill's leader).
	admin jetstream.JetStream
	// kill is --kill-node (parsed).
	kill msgload.KillSpec
	// windowAuto is set when the async window is the default 500 divided
	// among the VUs.
	windowAuto bool
	// killer carries out --kill-node on a --target cluster (--kill-hook);
	// nil on the embedded cluster, which broker kills directly.
	killer msgload.NodeKiller
	// leaderNodes is how many nodes lead at least one load stream;
	// streamLeaders names each stream's leader when the run began ("":
	// unknown) and nodes the embedded cluster's size (0 with --target).
	leaderNodes   int
	streamLeaders []string
	nodes         int
	maxVUs        int
	seed          int64
	logf          func(format string, args ...any)
}

// base is one scenario's state: the messaging core's (counts, sampler,
// fault window, background work, notes) and the kill's outcome.
type base struct {
	*run
	msgload.Core

	// subjects are the streams' subjects, made once for the VUs.
	subjects []string
	// killEv is what --kill-node did (set when its goroutine ended).
	killMu sync.Mutex
	killEv msgload.KillEvent
	// pubNodes tallies where the publishers connected, for a note.
	pubNodes *publisherNodes
}

func newBase(r *run, name string) *base {
	b := &base{run: r, pubNodes: &publisherNodes{leaders: r.streamLeaders, nodes: r.nodes}}
	b.Name, b.IDs, b.Parts, b.Logf = name, &r.ids.IDs, r.streams, r.logf
	b.Produces = name != ScenarioConsume && r.ids.Throughput != 0
	if r.ids.LeaderNodes != 0 {
		b.LeaderNodes, b.LoadParts = r.leaderNodes, len(r.streams)
	}
	for _, st := range r.streams {
		b.subjects = append(b.subjects, subjectOf(st))
	}
	if r.cluster != nil {
		b.OnStart = append(b.OnStart, b.sampleServerCPU)
	}
	// Once the VUs exist, say where their publishers landed.
	b.OnStart = append(b.OnStart, func(context.Context) {
		if n := b.pubNodes.note(); n != "" {
			b.Note("%s", n)
		}
	})
	return b
}

// pinned tells whether each VU writes one stream (VU i → stream i mod S),
// so that per-stream rates are measured (a slow leader shows); with fewer
// VUs than streams they rotate over the streams instead, and per-stream
// counts are equal by construction.
func (b *base) pinned() bool { return msgload.Pinned(b.maxVUs, len(b.streams)) }

// sampleServerCPU records every second the embedded nodes' CPU as per
// cent of this machine's cores.
func (b *base) sampleServerCPU(ctx context.Context) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	last, ok := b.cluster.CPU()
	lastAt := time.Now()
	if !ok {
		return
	}
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			cpu, ok := b.cluster.CPU()
			if !ok {
				return
			}
			pct := 100 * float64(cpu-last) / float64(now.Sub(lastAt)) / float64(cores())
			last, lastAt = cpu, now
			b.Pending.Trend(b.ids.cpu, int64(pct+0.5))
		}
	}
}

// vuConn is one VU's connection and JetStream context.
type vuConn struct {
	nc *nats.Conn
	js jetstream.JetStream
}

func (r *run) vuConn(name string, opts ...jetstream.JetStreamOpt) (*vuConn, error) {
	nc, err := r.connect(name)
	if err != nil {
		return nil, err
	}
	js, err := jetstream.New(nc, opts...)
	if err != nil {
		nc.Close()
		return nil, err
	}
	return &vuConn{nc: nc, js: js}, nil
}

func (c *vuConn) close() {
	if c != nil && c.nc != nil {
		c.nc.Close()
	}
}
