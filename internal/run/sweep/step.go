package sweep

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	analysis "github.com/stampede-bench/stampede/internal/analysis/sweep"
	"github.com/stampede-bench/stampede/internal/redact"
)

// Step is one step of a sweep: what it changes in the sweep's run plan.
type Step struct {
	// N numbers the steps from 1.
	N int
	// Dim is the swept dimension (analysis.DimVUs, DimRate, DimNodes or
	// DimTarget); Value the step's value as recorded and shown (a target
	// URL without its credentials).
	Dim, Value string
	// Nodes is the cluster size of a node sweep ("" otherwise).
	Nodes string
	// Target is the step's target URL ("" keeps the plan's).
	Target string
	// Dir is the step's result directory.
	Dir string
	// Description names the step in messages: "100 VUs", "rate 2000",
	// "3 nodes", a target.
	Description string
	// VUs and Rate replace the plan's VUs and arrival rate when > 0.
	VUs, Rate int64
	// ResizeFlag is the run flag (without dashes) that sizes the embedded
	// cluster to Nodes: a workload.ClusterResizer family's ("": none).
	ResizeFlag string
}

// NewStep lays out step n (from 1) of a sweep over dim into parent: the
// step's recorded value, its description and its result directory
// parent/step-NN-LABEL, where LABEL is value, or for a target its host.
// VUs, Rate, Nodes, Target and ResizeFlag are the caller's to set.
func NewStep(parent string, n int, dim, value string) Step {
	st := Step{N: n, Dim: dim, Value: value}
	label := value
	switch dim {
	case analysis.DimVUs:
		st.Description = value + " VUs"
	case analysis.DimRate:
		st.Description = "rate " + value
	case analysis.DimNodes:
		st.Nodes = value
		st.Description = value + " nodes"
	case analysis.DimTarget:
		st.Target = value
		st.Value = redact.URL(value)
		st.Description = st.Value
		label = targetLabel(value)
	}
	st.Dir = filepath.Join(parent, fmt.Sprintf("step-%02d-%s", n, label))
	return st
}

// Info describes the step in options.json (run.Plan.Sweep): dimension,
// value, step number and, for node sweeps, the cluster size.
func (s Step) Info() map[string]string {
	out := map[string]string{analysis.KeyDimension: s.Dim, analysis.KeyValue: s.Value, analysis.KeyStep: strconv.Itoa(s.N)}
	if s.Nodes != "" {
		out[analysis.KeyNodes] = s.Nodes
	}
	return out
}

var unsafeLabel = regexp.MustCompile(`[^A-Za-z0-9.-]+`)

// targetLabel is a directory-safe short name of a target URL: its host.
func targetLabel(target string) string {
	s := redact.URL(target)
	if _, rest, ok := strings.Cut(s, "://"); ok {
		s = rest
	}
	if at := strings.LastIndex(s, "@"); at >= 0 {
		s = s[at+1:]
	}
	s, _, _ = strings.Cut(s, "/")
	s = strings.Trim(unsafeLabel.ReplaceAllString(s, "_"), "_")
	if len(s) > 40 {
		s = s[:40]
	}
	if s == "" {
		s = "target"
	}
	return s
}
