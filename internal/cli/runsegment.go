package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/internal/segment"
)

// startAtTolerance is how late --start-at may be and still count: a time
// further in the past is a usage error, since the instances would not run
// together.
const startAtTolerance = 5 * time.Second

// applySegment scales every scenario's executor to this instance's share
// when --segment i/N is given (see package segment), and resolves
// --start-at to an absolute time ("now+30s" counts from here, the start of
// the command) so that repeated reads agree.
func applySegment(p *runPlan) error {
	f := p.flags
	if f.startAt != "" {
		t, err := parseStartAt(f.startAt, time.Now())
		if err != nil {
			return usagef("--start-at: %v", err)
		}
		if late := time.Since(t); late > startAtTolerance {
			return usagef("--start-at %s is %s in the past; give a time ahead, e.g. now+30s", f.startAt, late.Round(time.Second))
		}
		f.startAt = t.Format(time.RFC3339Nano)
	}
	if f.segment == "" {
		return nil
	}
	seg, err := segment.Parse(f.segment)
	if err != nil {
		return usagef("--segment: %v", err)
	}
	f.segment = seg.String()
	if seg.IsWhole() {
		return nil
	}
	for _, n := range p.names {
		c, _ := seg.Apply(p.configs[n])
		if err := c.Validate(); err != nil { // Apply keeps executors valid
			return fmt.Errorf("segment %s of %s: %s", seg, n, strings.ReplaceAll(err.Error(), "\n", "; "))
		}
		p.configs[n] = c
	}
	return nil
}

// parseStartAt reads an RFC 3339 time (2025-01-02T15:04:05Z), "now" or
// "now+DURATION" (now+30s) relative to now.
func parseStartAt(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(s, "now"); ok {
		if rest == "" {
			return now, nil
		}
		if !strings.HasPrefix(rest, "+") {
			return time.Time{}, fmt.Errorf("bad time %q: want RFC 3339 (2025-01-02T15:04:05Z) or now+DURATION (now+30s)", s)
		}
		d, err := time.ParseDuration(rest[1:])
		if err != nil || d < 0 {
			return time.Time{}, fmt.Errorf("bad time %q: %q is not a duration like 30s", s, rest[1:])
		}
		return now.Add(d), nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("bad time %q: want RFC 3339 (2025-01-02T15:04:05Z) or now+DURATION (now+30s)", s)
	}
	return t, nil
}

// waitStartAt says what this segment runs, blocks until --start-at (if
// any) and returns the time the run's clock starts at (zero: now). Only
// the first of repeated runs waits. Ctrl+C ends the wait (exit 130).
func waitStartAt(ctx context.Context, env *Env, p *runPlan) (time.Time, error) {
	f := p.flags
	if f.segment != "" && !f.quiet && !f.json {
		for _, line := range segmentPlan(p) {
			fmt.Fprintln(env.Stderr, line)
		}
	}
	if f.startAt == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339Nano, f.startAt)
	if err != nil {
		return time.Time{}, usagef("--start-at: %v", err)
	}
	f.startAt = "" // a --repeat run after this one starts when it gets there
	wait := time.Until(t)
	if wait < -startAtTolerance {
		return time.Time{}, usagef("--start-at %s passed %s ago while the target was prepared; choose a later time", t.Format(time.RFC3339), (-wait).Round(time.Second))
	}
	if wait <= 0 {
		return t, nil
	}
	if !f.quiet && !f.json {
		fmt.Fprintf(env.Stderr, "waiting %s until %s (--start-at)\n", wait.Round(100*time.Millisecond), t.Format(time.RFC3339))
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-timer.C:
		return t, nil
	case <-ctx.Done():
		return time.Time{}, &ExitError{Code: ExitInterrupted, Msg: "interrupted while waiting for --start-at"}
	}
}

// segmentPlan describes this segment's share of every scenario, one line
// each, naming the scenarios it has no share of.
func segmentPlan(p *runPlan) []string {
	lines := []string{fmt.Sprintf("segment %s: this instance runs its share of every executor", p.flags.segment)}
	for _, n := range p.names {
		c := p.configs[n]
		if segment.IsIdle(c) {
			msg := "no share in this segment (more segments than VUs, iterations or rate): runs no VU"
			if d := c.TotalDuration(); d > 0 {
				msg += fmt.Sprintf(", idles %s to stay in step", d)
			}
			lines = append(lines, fmt.Sprintf("  %s: %s", n, msg))
			continue
		}
		lines = append(lines, fmt.Sprintf("  %s: %s", n, describeExecutor(c)))
	}
	return lines
}
