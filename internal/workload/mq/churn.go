package mq

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// addChurn makes the scenario create and delete extra topics during the
// load when --churn-interval is set: from ChurnStart to ChurnStart+ChurnFor
// after the scenario starts, every interval it creates a topic with the
// load topics' layout and deletes the one created before. Load throughput
// is reported per phase (before, during, after).
func (b *base) addChurn() {
	if !b.churn() {
		return
	}
	b.onStart = append(b.onStart, b.churnLoop)
}

func (b *base) churnLoop(ctx context.Context, _ time.Duration) {
	o := &b.opts
	wait := func(d time.Duration) bool {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
			return true
		}
	}
	if !wait(o.ChurnStart) {
		return
	}
	end := time.Now().Add(o.ChurnFor)
	var prev string
	var ops, errs int
	op := func(name string, f func(context.Context) error) {
		// Churn outlives a stopped run by at most one admin call.
		octx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		if err := f(octx); err != nil {
			errs++
			reason := err.Error()
			var te *topicError
			if errors.As(err, &te) {
				reason = te.Reason
			}
			b.pending.error("churn: " + name + ": " + reason)
			return
		}
		ops++
		b.pending.add(b.ids.churnOps, 1)
	}
	for i := 0; time.Now().Before(end); i++ {
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
	b.churnOps.Store(int64(ops))
	b.churnErrs.Store(int64(errs))
}
