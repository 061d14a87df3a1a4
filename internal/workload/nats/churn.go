package nats

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	natsdrv "github.com/stampede-bench/stampede/internal/driver/nats"
	"github.com/stampede-bench/stampede/internal/workload/msgload"
)

// streamOpTimeout bounds a churn stream's creation or deletion.
const streamOpTimeout = 10 * time.Second

// addChurn schedules the churn window of a publishing scenario
// (msgload.Churn): stream churn (one stream created and the previous
// deleted every interval) and node churn (the last node of the embedded
// cluster leaves when the window opens and rejoins, with its store, when
// it closes).
func (b *base) addChurn() {
	o := &b.opts
	if !o.Churning() {
		return
	}
	b.Fault = msgload.Window{On: true, From: o.ChurnStart, For: o.ChurnFor}
	c := msgload.Churn{From: o.ChurnStart, For: o.ChurnFor, Interval: o.ChurnInterval,
		CreateOp: "create stream", DeleteOp: "delete stream", OpenOp: "node leaves", CloseOp: "node rejoins",
		// A rejoining node restarts and catches up its store.
		OpTimeout: time.Minute,
		Event:     func(op string, err error) { b.FaultEvent("churn", op, err, natsdrv.ErrorMessage) },
	}
	if o.ChurnNodes && b.cluster != nil {
		c.Open = func(context.Context) (func(context.Context) error, error) {
			node := b.cluster.Size() - 1
			// Rejoin even when the stop failed: the node may be half down.
			return func(ctx context.Context) error { return b.cluster.Restart(ctx, node) }, b.cluster.Stop(node)
		}
	}
	b.OnStart = append(b.OnStart, func(ctx context.Context) {
		// The churn's own connection, made when the first stream is
		// (after a node left, so it does not pick the leaving node).
		var vc *vuConn
		defer func() { vc.close() }()
		c.Create = func(ctx context.Context, i int) (string, error) {
			if vc == nil {
				var err error
				if vc, err = b.vuConn("stampede-churn"); err != nil {
					return "", fmt.Errorf("connect: %w", err)
				}
			}
			name := o.StreamPrefix + "-churn-" + strconv.Itoa(i)
			ctx, cancel := context.WithTimeout(ctx, streamOpTimeout)
			defer cancel()
			_, err := vc.js.CreateStream(ctx, jetstream.StreamConfig{Name: name, Subjects: []string{subjectOf(name)}, Replicas: o.Replicas, Storage: storage(o.Storage)})
			return name, err
		}
		c.Delete = func(ctx context.Context, name string) error {
			ctx, cancel := context.WithTimeout(ctx, streamOpTimeout)
			defer cancel()
			return vc.js.DeleteStream(ctx, name)
		}
		c.Run(ctx)
	})
}

// addKill schedules --kill-node: the node is SIGKILLed At after the
// scenario starts and restarted Restart later; throughput is reported
// before, during (killed) and after (restarted) the fault.
func (b *base) addKill() {
	if !b.kill.Enabled() || b.cluster == nil && b.killer == nil {
		return
	}
	// Never restarted (Restart 0): "during" lasts to the end.
	b.Fault = msgload.Window{On: true, From: b.kill.At, For: b.kill.Restart}
	b.OnStart = append(b.OnStart, func(ctx context.Context) {
		var k msgload.NodeKiller = broker{b.run}
		if b.killer != nil {
			k = b.killer
		}
		ev := msgload.RunKill(ctx, b.kill, k, 0, b.Clock().Now, b.Start())
		var err error
		if ev.Err != "" {
			err = errors.New(ev.Err)
		}
		b.FaultEvent("kill-node", "", err, error.Error)
		b.killMu.Lock()
		b.killEv = ev
		b.killMu.Unlock()
	})
}
