package sweep

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	analysis "github.com/stampede-bench/stampede/internal/analysis/sweep"
	"github.com/stampede-bench/stampede/internal/resultdir"
	"github.com/stampede-bench/stampede/internal/usage"
	"github.com/stampede-bench/stampede/internal/workload"
)

// Dims are the dimension flags of a sweep as the user gave them.
type Dims struct {
	// VUs, Rate and Nodes are comma-separated lists ("" when not given);
	// Targets are URLs separated by spaces.
	VUs, Rate, Nodes, Targets string
	// BeforeStep is the resize hook's command ("": none).
	BeforeStep string
	// Out is the parent directory; "" lays one out under
	// stampede-results/sweep-TIMESTAMP.
	Out string
	// TargetGiven is set when the run flags name a --target.
	TargetGiven bool
}

// Plan validates the dimensions of a sweep of scenarios (of catalog) and
// lays out its steps; it returns them with the parent directory. check
// validates a target URL. A node sweep resizes the embedded cluster by
// itself when every scenario's family is a workload.ClusterResizer and
// neither BeforeStep nor Targets is given; a BeforeStep hook on the
// embedded cluster of a workload.StandInCluster family is refused (the
// hook cannot resize it). Errors are usage errors.
func Plan(d Dims, catalog *workload.Catalog, scenarios []string, check func(target string) error, now time.Time) ([]Step, string, error) {
	vus, err := workload.ParseIntList("--vus", d.VUs)
	if err != nil {
		return nil, "", err
	}
	rates, err := workload.ParseIntList("--rate", d.Rate)
	if err != nil {
		return nil, "", err
	}
	nodes, err := workload.ParseIntList("--nodes", d.Nodes)
	if err != nil {
		return nil, "", err
	}
	var targets []string
	if d.Targets != "" {
		list, err := SplitTargets(d.Targets)
		if err != nil {
			return nil, "", err
		}
		for _, t := range list {
			if err := check(t); err != nil {
				return nil, "", usage.Wrap(fmt.Errorf("--targets: %w", err))
			}
			targets = append(targets, t)
		}
	}
	var dim string
	var values []string
	resize := ""
	switch {
	case len(nodes) > 0:
		dim = analysis.DimNodes
		if d.BeforeStep == "" && len(targets) == 0 {
			resize = catalog.NodesFlag(scenarios)
		}
		if d.BeforeStep == "" && len(targets) == 0 && resize == "" {
			note := ""
			if n := catalog.ResizeNotes(); n != "" {
				note = " (" + n + ")"
			}
			return nil, "", usage.Errorf("--nodes needs --before-step 'CMD {nodes}' to resize the cluster, or --targets with one URL per size%s", note)
		}
		if len(targets) > 0 && len(targets) != len(nodes) {
			return nil, "", usage.Errorf("--nodes has %d sizes but --targets %d URLs; give one URL per size", len(nodes), len(targets))
		}
		values = itoaAll(nodes)
	case len(targets) > 0:
		dim, values = analysis.DimTarget, targets
	case len(rates) > 1 || (len(rates) == 1 && len(vus) <= 1):
		dim, values = analysis.DimRate, itoaAll(rates)
	case len(vus) > 0:
		dim, values = analysis.DimVUs, itoaAll(vus)
	default:
		return nil, "", usage.Errorf("nothing to sweep: give --vus 50,100,200, --rate 1000,2000, --nodes 1,3,5 or --targets 'URL URL'")
	}
	if (dim != analysis.DimVUs && len(vus) > 1) || (dim != analysis.DimRate && len(rates) > 1) {
		return nil, "", usage.Errorf("sweep one dimension at a time: %s varies, so --vus and --rate take one value", dim)
	}
	parent := d.Out
	if parent == "" {
		parent = filepath.Join("stampede-results", "sweep-"+resultdir.StampName(now))
	}
	var steps []Step
	for i, v := range values {
		st := NewStep(parent, i+1, dim, v)
		switch dim {
		case analysis.DimVUs:
			st.VUs = int64(vus[i])
		case analysis.DimRate:
			st.Rate = int64(rates[i])
		case analysis.DimNodes:
			st.ResizeFlag = resize
			if len(targets) > 0 {
				st.Target = targets[i]
			}
		}
		if dim != analysis.DimVUs && len(vus) == 1 {
			st.VUs = int64(vus[0])
		}
		if dim != analysis.DimRate && len(rates) == 1 {
			st.Rate = int64(rates[0])
		}
		if resultdir.IsResult(st.Dir) {
			return nil, "", usage.Errorf("%s already holds a run: choose another --out for the sweep", st.Dir)
		}
		steps = append(steps, st)
	}
	if len(steps) > 0 && dim == analysis.DimNodes && !d.TargetGiven && steps[0].Target == "" && resize == "" {
		// The embedded cluster, which a hook cannot resize.
		if err := catalog.RefuseNodeSweep(scenarios); err != nil {
			return nil, "", err
		}
	}
	return steps, parent, nil
}

// SplitTargets splits --targets on whitespace, which no URL contains
// (a space in a URL is %20), so that multi-broker URLs such as
// kafka://b1:9092,b2:9092 stay whole. A list that looks comma-separated
// (",scheme://" inside one item) is refused with the new spelling.
func SplitTargets(list string) ([]string, error) {
	out := strings.Fields(list)
	for _, t := range out {
		if m := commaURL.FindStringIndex(t); m != nil {
			return nil, usage.Errorf("--targets %q: separate target URLs with spaces (commas belong to multi-broker URLs), e.g. --targets '%s %s'", t, t[:m[0]], t[m[0]+1:])
		}
	}
	return out, nil
}

// commaURL finds a comma followed by a URL scheme.
var commaURL = regexp.MustCompile(`,[a-zA-Z][a-zA-Z0-9+.-]*://`)

func itoaAll(ns []int) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = strconv.Itoa(n)
	}
	return out
}
