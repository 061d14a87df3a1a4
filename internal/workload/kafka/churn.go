package kafka

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/stampede-bench/stampede/internal/workload/msgload"
)

// addChurn makes the scenario change the cluster during the load, from
// ChurnStart to ChurnStart+ChurnFor after the scenario starts
// (msgload.Churn): with --churn-interval it creates a topic with the load
// topics' layout every interval and deletes the one created before; with
// --churn-brokers (the embedded cluster only) a broker joins when the
// window opens and leaves when it closes, and partition leaders move both
// times. Load throughput is reported per phase (before, during, after).
func (b *base) addChurn() {
	if !b.churn() {
		return
	}
	o := &b.opts
	c := msgload.Churn{From: o.ChurnStart, For: o.ChurnFor, Interval: o.ChurnInterval,
		CreateOp: "create", DeleteOp: "delete", OpenOp: "broker join", CloseOp: "broker leave",
		// Churn outlives a stopped run by at most one admin call.
		OpTimeout: 30 * time.Second,
		Event:     func(op string, err error) { b.FaultEvent("churn", op, err, reason) },
		Create: func(ctx context.Context, i int) (string, error) {
			name := fmt.Sprintf("%s-churn-%d-%d", o.TopicPrefix, time.Now().UnixNano()%1e6, i)
			return name, createTopics(ctx, b.admin, []string{name}, b.layout)
		},
		Delete: func(ctx context.Context, name string) error { return deleteTopics(ctx, b.admin, []string{name}) },
	}
	if o.ChurnBrokers && b.cluster != nil {
		c.Open = func(context.Context) (func(context.Context) error, error) {
			id, _, err := b.cluster.AddNode(-1, 0)
			if err != nil {
				return nil, err
			}
			return func(context.Context) error { return b.cluster.RemoveNode(id) }, nil
		}
	}
	b.OnStart = append(b.OnStart, c.Run)
}

// reason is the stable part of a churn error: a topic error's reason.
func reason(err error) string {
	var te *topicError
	if errors.As(err, &te) {
		return te.Reason
	}
	return err.Error()
}
