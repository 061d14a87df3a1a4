package mq

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/stampede-bench/stampede/internal/workload/msgload"
)

// addChurn makes the scenario change the cluster during the load, from
// ChurnStart to ChurnStart+ChurnFor after the scenario starts: with
// --churn-interval it creates a topic with the load topics' layout every
// interval and deletes the one created before; with --churn-brokers (the
// embedded cluster only) a broker joins when the window opens and leaves
// when it closes, and partition leaders move both times. Load throughput is
// reported per phase (before, during, after).
func (b *base) addChurn() {
	if !b.churn() {
		return
	}
	b.OnStart = append(b.OnStart, b.churnLoop)
}

func (b *base) churnLoop(ctx context.Context) {
	o := &b.opts
	wait := func(d time.Duration) bool { return msgload.SleepCtx(ctx, d) }
	if !wait(o.ChurnStart) {
		return
	}
	end := time.Now().Add(o.ChurnFor)
	var prev string
	joined := int32(-1)
	op := func(name string, f func(context.Context) error) {
		// Churn outlives a stopped run by at most one admin call.
		octx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		b.FaultEvent("churn", name, f(octx), reason)
	}
	if o.ChurnBrokers && b.cluster != nil {
		op("broker join", func(context.Context) error {
			id, _, err := b.cluster.AddNode(-1, 0)
			if err == nil {
				joined = id
			}
			return err
		})
	}
	if o.ChurnInterval <= 0 {
		wait(time.Until(end))
	}
	for i := 0; o.ChurnInterval > 0 && time.Now().Before(end); i++ {
		name := fmt.Sprintf("%s-churn-%d-%d", o.TopicPrefix, time.Now().UnixNano()%1e6, i)
		op("create", func(c context.Context) error { return createTopics(c, b.admin, []string{name}, b.layout) })
		if prev != "" {
			old := prev
			op("delete", func(c context.Context) error { return deleteTopics(c, b.admin, []string{old}) })
		}
		prev = name
		if !wait(o.ChurnInterval) {
			break
		}
	}
	if prev != "" {
		op("delete", func(c context.Context) error { return deleteTopics(c, b.admin, []string{prev}) })
	}
	if joined >= 0 {
		op("broker leave", func(context.Context) error { return b.cluster.RemoveNode(joined) })
	}
}

// reason is the stable part of a churn error: a topic error's reason.
func reason(err error) string {
	var te *topicError
	if errors.As(err, &te) {
		return te.Reason
	}
	return err.Error()
}
