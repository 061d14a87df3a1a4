// Package verdict decides, once for every family, whether a scenario's
// measurements can be trusted as a pass: the one place where "passed",
// "degraded" and "failed" are computed from a scenario's counters. The
// headline, the console overview, the HTML report, summary.json and the
// exit code all read this verdict, so they cannot disagree.
//
// The rules, in order:
//
//	failed    no successful operation (nothing measured counts as none)
//	failed    wrong answers: a failed answer check (AnswerCheck, WriteCheck)
//	degraded  failed operations above FailedOpsLimit (1%) of all operations
//	degraded  an arrival rate missed by more than RateMissLimit (5%)
//	degraded  dropped iterations above DroppedLimit (1%) of the schedule
//	degraded  the target unreachable: the VUs spent more than 1% of their
//	          time backing off after connection failures (the engine's note)
//	degraded  stopped early by stampede itself (a full disk)
//	degraded  iterations that ran into the end of the graceful stop
//	passed    none of the above
package verdict

import (
	"fmt"
	"strings"

	"github.com/stampede-bench/stampede/metric"
)

// Status is the outcome of a scenario or of a run.
type Status string

const (
	// Passed: the scenario measured what it set out to measure.
	Passed Status = "passed"
	// Degraded: it measured something, but not all of what was asked
	// (failures, dropped or late iterations); the figures are real but
	// the headline says why they are not the whole story.
	Degraded Status = "degraded"
	// Failed: nothing successful was measured, or the answers were wrong.
	Failed Status = "failed"
)

// rank orders statuses from best to worst.
func (s Status) rank() int {
	switch s {
	case Failed:
		return 2
	case Degraded:
		return 1
	}
	return 0
}

// Limits of the degraded rules, as fractions (0–1).
const (
	// FailedOpsLimit is the fraction of failed operations above which a
	// scenario is degraded (1%), as metric.FailureThreshold.
	FailedOpsLimit = metric.FailureThreshold
	// DroppedLimit is the fraction of the schedule's iterations dropped
	// (no free VU) above which a scenario is degraded (1%).
	DroppedLimit = 0.01
	// RateMissLimit is how far (a fraction of the asked rate) the started
	// iterations may fall short of an arrival-rate schedule (5%).
	RateMissLimit = 0.05
)

// Names of the named checks whose failures are wrong answers; the graph
// family registers them (ldbc.CheckAnswer, ldbc.CheckWrite).
const (
	AnswerCheck = "answer matches the reference"
	WriteCheck  = "batch fully written"
)

// Rule names a verdict rule, as summary.json writes it.
type Rule string

// The rules (see the package comment).
const (
	RuleNoSuccess   Rule = "no_successful_operation"
	RuleWrongAnswer Rule = "wrong_answers"
	RuleFailedOps   Rule = "failed_operations"
	RuleDropped     Rule = "dropped_iterations"
	RuleRateMissed  Rule = "rate_missed"
	RuleStopped     Rule = "stopped"
	RuleGraceful    Rule = "graceful_stop"
	RuleUnreachable Rule = "target_unreachable"
)

// Reason is one rule that applied, with the figures that made it apply.
type Reason struct {
	Rule   Rule   `json:"rule"`
	Status Status `json:"status"`
	// Text is the human form, e.g. "rate missed: 6680/s of the 20000/s
	// asked (33.40%)".
	Text string `json:"text"`
}

// Scenario is the verdict of one scenario.
type Scenario struct {
	Name   string   `json:"-"`
	Status Status   `json:"status"`
	Reason []Reason `json:"reasons,omitempty"`
	// Top is the most frequent error message and its count (empty when
	// no operation failed).
	Top metric.ErrorCount `json:"-"`
}

// Run is the verdict of a run: the worst of its scenarios.
type Run struct {
	Status    Status     `json:"status"`
	Scenarios []Scenario `json:"-"`
}

// Failed reports whether some scenario failed (the run exits 1).
func (r Run) Failed() bool { return r.Status == Failed }

// Scenario returns the verdict of the scenario called name (zero when
// there is none).
func (r Run) Scenario(name string) Scenario {
	for _, s := range r.Scenarios {
		if s.Name == name {
			return s
		}
	}
	return Scenario{}
}

// Of returns the verdict of every scenario of snap and of the run.
func Of(snap *metric.Snapshot) Run {
	r := Run{Status: Passed}
	if snap == nil {
		return r
	}
	for _, sc := range snap.Scenarios {
		c := CountersOf(sc)
		c.Stopped = snap.Stopped
		v := Decide(c)
		v.Name = sc.Name
		if v.Status.rank() > r.Status.rank() {
			r.Status = v.Status
		}
		r.Scenarios = append(r.Scenarios, v)
	}
	return r
}

// FailLine is the one line a failed run prints before exiting 1: each
// failed scenario, its first reason and its top error.
func (r Run) FailLine() string {
	var parts []string
	for _, s := range r.Scenarios {
		if s.Status != Failed {
			continue
		}
		p := s.Name + ": " + s.Reason[0].Text
		if s.Top.Msg != "" {
			p += fmt.Sprintf("; top error (%d×): %s", s.Top.N, s.Top.Msg)
		}
		parts = append(parts, p)
	}
	return "run failed: " + strings.Join(parts, "; ")
}

// Summary is the verdict of one scenario in one short phrase for tables:
// "passed", "degraded: rate missed", "failed: no successful operation".
func (s Scenario) Summary() string {
	if len(s.Reason) == 0 {
		return string(s.Status)
	}
	return string(s.Status) + ": " + s.Reason[0].Rule.Phrase()
}

// Phrase is the rule in a few words.
func (r Rule) Phrase() string {
	switch r {
	case RuleNoSuccess:
		return "no successful operation"
	case RuleWrongAnswer:
		return "wrong answers"
	case RuleFailedOps:
		return "failed operations"
	case RuleDropped:
		return "dropped iterations"
	case RuleRateMissed:
		return "rate missed"
	case RuleStopped:
		return "stopped early"
	case RuleGraceful:
		return "graceful stop"
	case RuleUnreachable:
		return "target unreachable"
	}
	return string(r)
}
