package workload

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/family"
	"github.com/stampede-bench/stampede/internal/usage"
)

// What a family can do beyond running scenarios is package family's
// (public, documented there); these names let the internals keep theirs.
type (
	Commander      = family.Commander
	Command        = family.Command
	CommandEnv     = family.CommandEnv
	Interrupted    = family.Interrupted
	ClusterResizer = family.ClusterResizer
	StandInCluster = family.StandInCluster
	RateTrend      = family.RateTrend
	RateTrender    = family.RateTrender
)

// ParseIntList parses a comma-separated list of whole numbers ≥ 1 given
// as flag ("" is none); anything else is a usage error.
func ParseIntList(flag, s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []int
	for _, part := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || n < 1 {
			return nil, usage.Errorf("%s: %q is not a whole number ≥ 1 (want a list like 50,100,200)", flag, part)
		}
		out = append(out, n)
	}
	return out, nil
}

// Commands returns the commands of every Commander family, in catalog
// order.
func (c *Catalog) Commands() []Command {
	var out []Command
	for _, f := range c.families {
		if cm, ok := f.(Commander); ok {
			out = append(out, cm.Commands()...)
		}
	}
	return out
}

// RateTrends returns the rate trends of every RateTrender family.
func (c *Catalog) RateTrends() []RateTrend {
	var out []RateTrend
	for _, f := range c.families {
		if rt, ok := f.(RateTrender); ok {
			out = append(out, rt.RateTrends()...)
		}
	}
	return out
}

// NodesFlag returns the run flag that resizes the embedded cluster of
// every named scenario, when all of them belong to ClusterResizer
// families that agree on it; "" when they do not (or names is empty).
func (c *Catalog) NodesFlag(names []string) string {
	flag := ""
	for i, n := range names {
		f, _, ok := c.Find(n)
		r, can := f.(ClusterResizer)
		if !ok || !can || (i > 0 && r.NodesFlag() != flag) {
			return ""
		}
		flag = r.NodesFlag()
	}
	return flag
}

// ResizeNotes joins the ResizeNote of every ClusterResizer family with
// ", " ("" when there is none).
func (c *Catalog) ResizeNotes() string {
	out := ""
	for _, f := range c.families {
		if r, ok := f.(ClusterResizer); ok {
			if out != "" {
				out += ", "
			}
			out += r.ResizeNote()
		}
	}
	return out
}

// RefuseNodeSweep returns the first refusal of a StandInCluster family of
// the named scenarios for a node sweep on the embedded cluster.
func (c *Catalog) RefuseNodeSweep(names []string) error {
	for _, n := range names {
		f, _, ok := c.Find(n)
		if s, can := f.(StandInCluster); ok && can {
			if err := s.RefuseNodeSweep(n); err != nil {
				return err
			}
		}
	}
	return nil
}

// ServeUntil blocks a `serve` command until ctx ends (Ctrl+C) or, when
// d > 0, d has passed.
func ServeUntil(ctx context.Context, d time.Duration) {
	if d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	<-ctx.Done()
}
