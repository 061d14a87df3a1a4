package metric

import (
	"fmt"
	"strings"
)

// FailureThreshold is the error rate (errors per request, 0–1) above which
// a scenario's failures, not its throughput or latency, are its headline.
const FailureThreshold = 0.01

// UnreachableNote starts the note the engine adds to a scenario whose VUs
// spent more than FailureThreshold of their time backing off after
// connection failures: few errors were counted because the VUs waited,
// yet the target was down.
const UnreachableNote = "target unreachable:"

// Failure describes a scenario whose error rate exceeds FailureThreshold,
// or whose target was unreachable for part of the run.
type Failure struct {
	// Unreachable is the engine's UnreachableNote, when there is one.
	Unreachable string
	Errors, Ops int64
	// What counts Ops: "requests", or "iterations" when none were made.
	What string
	// Rate is Errors/Ops (0–1).
	Rate float64
	// Top is the most frequent error message, in full, and its count.
	Top ErrorCount
}

// FailureOf returns scenario s's failure, or nil when at most
// FailureThreshold of its requests (iterations when it made none) failed.
func FailureOf(s *ScenarioSnapshot) *Failure {
	ops, what := s.Counters[Requests], "requests"
	if ops == 0 {
		ops, what = s.Counters[Iterations], "iterations"
	}
	errs := s.Counters[Errors]
	unreachable := ""
	for _, n := range s.Notes {
		if strings.HasPrefix(n, UnreachableNote) {
			unreachable = n
		}
	}
	if errs == 0 {
		return nil
	}
	if ops == 0 {
		ops = errs // only failures, nothing completed
	}
	rate := float64(errs) / float64(ops)
	if rate <= FailureThreshold && unreachable == "" {
		return nil
	}
	f := &Failure{Errors: errs, Ops: ops, What: what, Rate: rate, Unreachable: unreachable}
	if top := s.SortedErrors(); len(top) > 0 {
		f.Top = top[0]
	}
	return f
}

// String is the headline: "99.56% of 12345 requests failed; top error
// (12000×): MESSAGE".
func (f *Failure) String() string {
	s := fmt.Sprintf("%.2f%% of %d %s failed", 100*f.Rate, f.Ops, f.What)
	if f.Unreachable != "" {
		s += "; " + f.Unreachable
	}
	if f.Top.Msg != "" {
		s += fmt.Sprintf("; top error (%d×): %s", f.Top.N, f.Top.Msg)
	}
	return s
}
