package executor

import (
	"fmt"
	"slices"
	"time"
)

// Apply returns the part of executor c (with its defaults applied) that
// segment s runs: Executor.Split with the segment's Share, e.g.
//
//   - constant-vus, per-vu-iterations: VUs split (per-VU iterations stay);
//   - shared-iterations: iterations and VUs split; a segment's VUs are then
//     clamped to [1, its iterations] so that the executor stays valid, which
//     may move a VU between segments but never an iteration;
//   - ramping-vus: startVUs and every stage target split;
//   - constant-arrival-rate: rate split per TimeUnit (the shares of the
//     integer rate add up to it exactly); preAllocatedVUs and maxVUs split,
//     with maxVUs at least 1 in a segment that has a rate;
//   - ramping-arrival-rate: startRate and every stage target split, VUs as
//     for constant-arrival-rate.
//
// Stage targets, rate and startRate that the executor does not use (set
// by flags) are split too, so that Combine adds them back up. Durations,
// time units, graceful stop and warm-up are unchanged, so the segments run
// in step. When the segment's share is nothing (more segments than VUs,
// iterations or rate), idle is true and out is Idle(c): the scenario keeps
// its place and duration in this instance but runs no VU. An unknown
// executor is returned unchanged (Validate reports it).
func (s Segment) Apply(c Config) (out Config, idle bool) {
	if s.Count <= 1 {
		return c, false
	}
	e, err := Of(c)
	if err != nil {
		return c, false
	}
	part, ok := e.Split(s.Share)
	if !ok {
		return Idle(c), true
	}
	out = c
	out.Stages = slices.Clone(c.Stages)
	for i := range out.Stages {
		out.Stages[i].Target = s.Share(c.Stages[i].Target)
	}
	if !e.Closed() {
		out.Rate = s.Share(c.Rate)
		out.StartRate = s.Share(c.StartRate)
	}
	return out.With(part), false
}

// Idle returns the executor a segment runs when its share of c is nothing:
// ramping-vus at 0 VUs for as long as c runs whatever the target does
// (Executor.FixedDuration: 0 for the iteration-based executors,
// whose length depends on the target), so that scenarios after it start at
// the same time in every segment. It passes Config.Validate.
func Idle(c Config) Config {
	var d time.Duration
	if e, err := Of(c); err == nil {
		d = e.FixedDuration()
	}
	return Config{
		Executor: RampingVUs, StartVUs: 0, Stages: []Stage{{Duration: d, Target: 0}},
		GracefulStop: c.GracefulStop, TimeUnit: c.TimeUnit,
	}.Defaults()
}

// IsIdle reports whether c runs no VU at all (an idle segment, or a ramp
// that stays at zero).
func IsIdle(c Config) bool {
	return c.Executor == RampingVUs && c.MaxVUsNeeded() == 0
}

// Combine reverses Apply: it returns the executor that the given segments
// of one scenario make up together, for the options of a merged result.
// Idle parts are skipped; the others must share executor and stage
// durations. Integer quantities are summed (per-VU iterations are not), so
// Combine of all N segments of c is c — except the VUs of shared-iterations,
// which may differ by the clamping described at Apply.
func Combine(parts []Config) (Config, error) {
	var out Config
	n := 0
	for i, p := range parts {
		if IsIdle(p) {
			continue
		}
		if n == 0 {
			out = p
			out.Stages = slices.Clone(p.Stages)
			n++
			continue
		}
		n++
		if p.Executor != out.Executor {
			return out, fmt.Errorf("part %d runs %s, another part %s", i+1, p.Executor, out.Executor)
		}
		if len(p.Stages) != len(out.Stages) {
			return out, fmt.Errorf("part %d has %d stages, another part %d", i+1, len(p.Stages), len(out.Stages))
		}
		for j, st := range p.Stages {
			if st.Duration != out.Stages[j].Duration {
				return out, fmt.Errorf("part %d: stage %d lasts %s, in another part %s", i+1, j+1, st.Duration, out.Stages[j].Duration)
			}
			out.Stages[j].Target += st.Target
		}
		out.VUs += p.VUs
		if out.Executor == SharedIterations {
			out.Iterations += p.Iterations
		}
		out.StartVUs += p.StartVUs
		out.StartRate += p.StartRate
		out.Rate += p.Rate
		out.PreAllocatedVUs += p.PreAllocatedVUs
		out.MaxVUs += p.MaxVUs
	}
	if n == 0 && len(parts) > 0 {
		return parts[0], nil
	}
	return out, nil
}
