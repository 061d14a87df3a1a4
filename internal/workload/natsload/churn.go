package natsload

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	natsdrv "github.com/stampede-bench/stampede/internal/driver/nats"
	"github.com/stampede-bench/stampede/internal/workload/msgload"
)

// addChurn schedules the churn window of a publishing scenario: stream
// churn (one stream created and the previous deleted every interval) and
// node churn (the last node of the embedded cluster leaves when the window
// opens and rejoins, with its store, when it closes).
func (b *base) addChurn() {
	if !b.opts.churning() {
		return
	}
	b.Fault = msgload.Window{On: true, From: b.opts.ChurnStart, For: b.opts.ChurnFor}
	b.OnStart = append(b.OnStart, func(ctx context.Context) {
		if !msgload.SleepCtx(ctx, b.opts.ChurnStart) {
			return
		}
		end := time.Now().Add(b.opts.ChurnFor)
		node := -1
		if b.opts.ChurnNodes && b.cluster != nil {
			node = b.cluster.Size() - 1
			b.churnEvent("node leaves", b.cluster.Stop(node))
		}
		if b.opts.ChurnInterval > 0 {
			b.streamChurn(ctx, end)
		} else {
			msgload.SleepCtx(ctx, time.Until(end))
		}
		if node >= 0 {
			rctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			b.churnEvent("node rejoins", b.cluster.Restart(rctx, node))
			cancel()
		}
	})
}

func (b *base) churnEvent(what string, err error) {
	b.FaultEvent("churn", what, err, natsdrv.ErrorMessage)
}

// streamChurn creates a stream and deletes the previous one every
// ChurnInterval until end.
func (b *base) streamChurn(ctx context.Context, end time.Time) {
	vc, err := b.vuConn("stampede-churn")
	if err != nil {
		b.churnEvent("connect", err)
		return
	}
	defer vc.close()
	prev := ""
	for i := 0; time.Now().Before(end); i++ {
		name := b.opts.StreamPrefix + "-churn-" + strconv.Itoa(i)
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		_, err := vc.js.CreateStream(cctx, jetstream.StreamConfig{Name: name, Subjects: []string{subjectOf(name)}, Replicas: b.opts.Replicas, Storage: storage(b.opts.Storage)})
		b.churnEvent("create stream", err)
		if prev != "" {
			b.churnEvent("delete stream", vc.js.DeleteStream(cctx, prev))
		}
		cancel()
		prev = name
		if !msgload.SleepCtx(ctx, min(b.opts.ChurnInterval, time.Until(end))) {
			break
		}
	}
	if prev != "" {
		dctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		b.churnEvent("delete stream", vc.js.DeleteStream(dctx, prev))
		cancel()
	}
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
