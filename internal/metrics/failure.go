package metrics

import "github.com/stampede-bench/stampede/metric"

// The failure headline is package metric's (public, documented there).
const (
	FailureThreshold = metric.FailureThreshold
	UnreachableNote  = metric.UnreachableNote
)

// Failure describes a scenario whose error rate exceeds FailureThreshold
// (metric.Failure).
type Failure = metric.Failure

// FailureOf is metric.FailureOf.
func FailureOf(s *ScenarioSnapshot) *Failure { return metric.FailureOf(s) }
