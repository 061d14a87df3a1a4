package natscluster

import (
	"context"
	"fmt"
	"time"

	natsdrv "github.com/stampede-bench/stampede/internal/driver/nats"
)

// WaitReady waits until every running node is healthy and, clustered,
// every one of them knows the same JetStream meta leader.
func (c *Cluster) WaitReady(ctx context.Context) error {
	var last error
	for {
		last = c.ready(ctx)
		if last == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("embedded nats cluster not ready: %v", last)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func (c *Cluster) ready(ctx context.Context) error {
	leader := ""
	for i, n := range c.nodes {
		if !c.Running(i) {
			continue
		}
		if err := natsdrv.Healthy(ctx, c.MonitorURL(i)); err != nil {
			return fmt.Errorf("node %s: %v", n.Name, err)
		}
		if len(c.nodes) == 1 && !c.opts.Clustered {
			continue
		}
		j, err := natsdrv.ReadJSZ(ctx, c.MonitorURL(i))
		if err != nil {
			return fmt.Errorf("node %s: %v", n.Name, err)
		}
		if j.Meta == nil || j.Meta.Leader == "" {
			return fmt.Errorf("node %s: no JetStream meta leader yet", n.Name)
		}
		if j.Meta.Leader == n.Name {
			if err := c.peersCurrent(j); err != nil {
				return err
			}
		}
		if leader != "" && j.Meta.Leader != leader {
			return fmt.Errorf("nodes disagree on the meta leader (%s, %s)", leader, j.Meta.Leader)
		}
		leader = j.Meta.Leader
	}
	return nil
}

// waitHealthy waits until node i is healthy.
func (c *Cluster) waitHealthy(ctx context.Context, i int) error {
	ctx, cancel := context.WithTimeout(ctx, c.opts.ReadyTimeout)
	defer cancel()
	for {
		err := natsdrv.Healthy(ctx, c.MonitorURL(i))
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("nats node %s not healthy: %v", c.nodes[i].Name, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// JSZ reads node i's JetStream settings and meta state back from its
// monitoring endpoint.
func (c *Cluster) JSZ(ctx context.Context, i int) (*natsdrv.JSZ, error) {
	return natsdrv.ReadJSZ(ctx, c.MonitorURL(i))
}

// MetaLeader is the server name of the JetStream meta leader as a running
// node sees it ("" when none).
func (c *Cluster) MetaLeader(ctx context.Context) string {
	for i := range c.nodes {
		if !c.Running(i) {
			continue
		}
		if j, err := c.JSZ(ctx, i); err == nil && j.Meta != nil {
			return j.Meta.Leader
		}
	}
	return ""
}

// peersCurrent checks, on the meta leader's view, that every other
// running node is a current meta peer: only then can streams with as
// many replicas as nodes be placed.
func (c *Cluster) peersCurrent(j *natsdrv.JSZ) error {
	ok := map[string]bool{}
	for _, r := range j.Meta.Replicas {
		ok[r.Name] = r.Current && !r.Offline
	}
	for i, n := range c.nodes {
		if n.Name == j.Meta.Leader || !c.Running(i) {
			continue
		}
		if !ok[n.Name] {
			return fmt.Errorf("node %s is not yet a current JetStream peer", n.Name)
		}
	}
	return nil
}
