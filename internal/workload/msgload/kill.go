package msgload

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// KillSpec is a --kill-node fault: At after the scenario starts, SIGKILL
// one node of the embedded cluster; when Restart > 0, start it again
// Restart later (with its store). Which names the node: "leader" (the
// leader of the first stream or topic when the node is killed: a leader
// kill), "follower" (a node that leads nothing of it) or "n3" (the third
// node).
type KillSpec struct {
	At, Restart time.Duration
	Which       string
}

// Enabled tells whether a kill is scheduled.
func (k KillSpec) Enabled() bool { return k.At > 0 }

// String is the flag form of k.
func (k KillSpec) String() string {
	if !k.Enabled() {
		return ""
	}
	s := k.At.String()
	if k.Restart > 0 {
		s += ",restart " + k.Restart.String()
	}
	return s
}

// ParseKill parses --kill-node AT[,restart AFTER] (also "restart=AFTER"):
// durations in Go form (5s, 1m30s), AT > 0, AFTER > 0. The empty string is
// no kill. which is --kill-which: leader, follower or nN (N ≥ 1).
func ParseKill(spec, which string) (KillSpec, error) {
	var k KillSpec
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return k, nil
	}
	at, rest, _ := strings.Cut(spec, ",")
	d, err := time.ParseDuration(strings.TrimSpace(at))
	if err != nil || d <= 0 {
		return k, fmt.Errorf("--kill-node %q: want AT[,restart AFTER] with durations such as 5s,restart 10s", spec)
	}
	k.At = d
	if rest = strings.TrimSpace(rest); rest != "" {
		v, ok := strings.CutPrefix(rest, "restart")
		v = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), "="))
		r, err := time.ParseDuration(v)
		if !ok || err != nil || r <= 0 {
			return KillSpec{}, fmt.Errorf("--kill-node %q: after AT, want restart AFTER (e.g. 5s,restart 10s)", spec)
		}
		k.Restart = r
	}
	switch which = strings.ToLower(strings.TrimSpace(which)); {
	case which == "" || which == "leader":
		k.Which = "leader"
	case which == "follower":
		k.Which = which
	case strings.HasPrefix(which, "n"):
		if n, err := strconv.Atoi(which[1:]); err != nil || n < 1 {
			return KillSpec{}, fmt.Errorf("--kill-which %q: want leader, follower or nN (n1, n2, ...)", which)
		}
		k.Which = which
	default:
		return KillSpec{}, fmt.Errorf("--kill-which %q: want leader, follower or nN (n1, n2, ...)", which)
	}
	return k, nil
}

// Check returns a usage problem of k against a cluster of nodes nodes.
func (k KillSpec) Check(nodes int) error {
	if !k.Enabled() {
		return nil
	}
	if nodes < 2 {
		return fmt.Errorf("--kill-node needs a cluster of at least 2 nodes to keep serving (--nats-nodes %d)", nodes)
	}
	if n, err := strconv.Atoi(strings.TrimPrefix(k.Which, "n")); err == nil && n > nodes {
		return fmt.Errorf("--kill-which %s: the cluster has %d nodes", k.Which, nodes)
	}
	return nil
}

// KillEvent is what happened to the node of a kill.
type KillEvent struct {
	// Node is the killed node's name; Role what it was (leader of S,
	// follower, or the node asked for).
	Node, Role string
	// KilledAt and RestartedAt are run offsets (RestartedAt 0: not
	// restarted); RestartTook how long the restart took until healthy.
	KilledAt, RestartedAt, RestartTook time.Duration
	Err                                string
}

// RunKill carries out k on c from the scenario's start (run offset start;
// now reads the run clock): it waits until At, picks the node, kills it,
// and restarts it Restart later unless ctx ended first (the restart then
// happens at once, so that the cluster is whole for teardown). part is the
// stream or topic whose leader a leader kill takes.
func RunKill(ctx context.Context, k KillSpec, c NodeKiller, part int, now func() time.Duration, start time.Duration) KillEvent {
	var ev KillEvent
	if !SleepCtx(ctx, start+k.At-now()) {
		return ev
	}
	i := -1
	switch {
	case k.Which == "leader":
		i = c.Leader(ctx, part)
		ev.Role = "leader"
	case k.Which == "follower":
		l := c.Leader(ctx, part)
		for j := c.Nodes() - 1; j >= 0; j-- {
			if j != l {
				i = j
				break
			}
		}
		ev.Role = "follower"
	default:
		n, _ := strconv.Atoi(strings.TrimPrefix(k.Which, "n"))
		i = n - 1
		ev.Role = "asked for"
		if l := c.Leader(ctx, part); l == i {
			ev.Role = "asked for; the leader"
		}
	}
	if i < 0 || i >= c.Nodes() {
		ev.Err = "no node to kill: the leader is unknown"
		return ev
	}
	ev.Node = c.NodeName(i)
	ev.KilledAt = now() - start
	if err := c.Kill(i); err != nil {
		ev.Err = err.Error()
		return ev
	}
	if k.Restart <= 0 {
		return ev
	}
	SleepCtx(ctx, k.Restart)
	t0 := now()
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	if err := c.Restart(rctx, i); err != nil {
		ev.Err = "restart: " + err.Error()
		return ev
	}
	ev.RestartedAt, ev.RestartTook = t0-start, now()-t0
	return ev
}

// Describe is the note line of the event.
func (e KillEvent) Describe(k KillSpec) string {
	if e.Node == "" && e.Err == "" {
		return fmt.Sprintf("--kill-node %s: the scenario ended before the kill", k)
	}
	if e.Node == "" {
		return fmt.Sprintf("--kill-node %s: %s", k, e.Err)
	}
	s := fmt.Sprintf("fault: node %s (%s) killed with SIGKILL at %s", e.Node, e.Role, e.KilledAt.Round(time.Millisecond))
	switch {
	case e.RestartedAt > 0:
		s += fmt.Sprintf(", restarted at %s (healthy %s later)", e.RestartedAt.Round(time.Millisecond), e.RestartTook.Round(time.Millisecond))
	case k.Restart > 0 && e.Err == "":
		s += ", not restarted: the scenario ended first"
	default:
		if k.Restart == 0 {
			s += ", not restarted"
		}
	}
	if e.Err != "" {
		s += "; " + e.Err
	}
	return s
}
