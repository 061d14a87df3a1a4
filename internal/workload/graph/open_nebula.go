package graph

import (
	"context"
	"net/url"
	"strings"

	"github.com/stampede-bench/stampede/internal/driver/nebula"
	"github.com/stampede-bench/stampede/internal/workload/graph/loader"
	"github.com/stampede-bench/stampede/internal/workload/graph/ngqlload"
)

// inspect reports what target holds: package ngqlload's load record for a
// NebulaGraph space, package loader's for SQL targets.
func inspect(ctx context.Context, target string, getenv func(string) string) (*loader.Meta, error) {
	if u, err := url.Parse(target); err == nil && strings.EqualFold(u.Scheme, nebula.Scheme) {
		return ngqlload.Inspect(ctx, target, getenv)
	}
	return loader.Inspect(ctx, target, getenv)
}

// nebulaNotes are what a run on a nebula:// target must say about how far
// the NebulaGraph support was verified, and plainly when the target is
// stampede's own stand-in.
func nebulaNotes(scheme, version string) []string {
	if !strings.EqualFold(scheme, nebula.Scheme) {
		return nil
	}
	notes := []string{"NebulaGraph driver: verified only against stampede's in-test stand-in graphd, never against a real NebulaGraph server; go.* ask GO ... BIDIRECT YIELD DISTINCT dst(edge), INSERT reports no row count (writes unchecked)"}
	if version == nebula.StandInVersion {
		notes = append(notes, "target is stampede's in-test stand-in graphd, NOT NebulaGraph: no storaged/metad, partitions, replication or query planner (MATCH is interpreted row by row, for the subset stampede sends); latency is the stand-in's own handling time")
	}
	return notes
}
