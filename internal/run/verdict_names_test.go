package run

import (
	"testing"

	"github.com/stampede-bench/stampede/internal/workload/graph"
	"github.com/stampede-bench/stampede/verdict"
)

// TestAnswerCheckNames: the verdict's wrong-answer rule reads the graph
// family's answer checks by name; renaming one there without here would
// silently make wrong answers pass.
func TestAnswerCheckNames(t *testing.T) {
	if verdict.AnswerCheck != graph.CheckAnswer || verdict.WriteCheck != graph.CheckWrite {
		t.Errorf("verdict checks %q, %q; the graph family's %q, %q", verdict.AnswerCheck, verdict.WriteCheck, graph.CheckAnswer, graph.CheckWrite)
	}
}
