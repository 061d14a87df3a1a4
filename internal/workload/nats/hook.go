package nats

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/internal/workload/msgload"
)

// hookTimeout bounds one run of --kill-hook.
const hookTimeout = time.Minute

// hookKiller is --kill-node on a --target cluster: stampede cannot signal
// the nodes, so --kill-hook CMD does (sh -c CMD, with {action} and {node}
// replaced and STAMPEDE_KILL_ACTION=kill|restart and STAMPEDE_KILL_NODE
// set to the server name). The nodes are the first stream's peers as the
// cluster reports them.
type hookKiller struct {
	r     *run
	cmd   string
	names []string
}

var _ msgload.NodeKiller = (*hookKiller)(nil)

// newHookKiller reads the first stream's peers.
func newHookKiller(ctx context.Context, r *run, cmd string) (*hookKiller, error) {
	s, err := r.admin.Stream(ctx, r.streams[0])
	if err != nil {
		return nil, err
	}
	h := &hookKiller{r: r, cmd: cmd}
	if c := s.CachedInfo().Cluster; c != nil {
		if c.Leader != "" {
			h.names = append(h.names, c.Leader)
		}
		for _, p := range c.Replicas {
			h.names = append(h.names, p.Name)
		}
	}
	return h, nil
}

func (h *hookKiller) Nodes() int            { return len(h.names) }
func (h *hookKiller) NodeName(i int) string { return h.names[i] }

func (h *hookKiller) Leader(ctx context.Context, part int) int {
	s, err := h.r.admin.Stream(ctx, h.r.streams[part])
	if err != nil || s.CachedInfo().Cluster == nil {
		return -1
	}
	l := s.CachedInfo().Cluster.Leader
	for i, n := range h.names {
		if n == l {
			return i
		}
	}
	return -1
}

func (h *hookKiller) Kill(i int) error { return h.run(context.Background(), "kill", h.names[i]) }

func (h *hookKiller) Restart(ctx context.Context, i int) error {
	return h.run(ctx, "restart", h.names[i])
}

// run runs the hook for action on node; its output is kept (bounded) for
// the error.
func (h *hookKiller) run(ctx context.Context, action, node string) error {
	ctx, cancel := context.WithTimeout(ctx, hookTimeout)
	defer cancel()
	line := strings.NewReplacer("{action}", action, "{node}", node).Replace(h.cmd)
	cmd := exec.CommandContext(ctx, "sh", "-c", line)
	cmd.Env = append(os.Environ(), "STAMPEDE_KILL_ACTION="+action, "STAMPEDE_KILL_NODE="+node)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &capped{b: &out, n: 512}, &capped{b: &out, n: 512}
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("--kill-hook %s %s: %v: %s", action, node, err, strings.TrimSpace(out.String()))
	}
	return nil
}

// capped keeps the first n bytes written to it.
type capped struct {
	b *strings.Builder
	n int
}

func (c *capped) Write(p []byte) (int, error) {
	if k := min(len(p), c.n); k > 0 {
		c.b.Write(p[:k])
		c.n -= k
	}
	return len(p), nil
}
