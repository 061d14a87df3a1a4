package run

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/stampede-bench/stampede/executor"
)

// startAtTolerance is how late --start-at may be and still count: a time
// further in the past is a usage error, since the instances would not run
// together.
const startAtTolerance = 5 * time.Second

// MaxStartAhead is how far ahead --start-at may be: 7 days. A time beyond
// cannot be meant (a year typed wrong) and would hold the run for ever.
const MaxStartAhead = 7 * 24 * time.Hour

// CheckStartAt refuses a start time further in the past than the
// tolerance; spec is the time as the user gave it, for the message.
func CheckStartAt(t time.Time, spec string, now time.Time) error {
	if late := now.Sub(t); late > startAtTolerance {
		return usagef("--start-at %s is %s in the past; give a time ahead, e.g. now+30s", spec, late.Round(time.Second))
	}
	if ahead := t.Sub(now); ahead > MaxStartAhead {
		return usagef("--start-at %s is %.0f days ahead; the limit is %.0f days (e.g. now+30s)", spec, ahead.Hours()/24, MaxStartAhead.Hours()/24)
	}
	return nil
}

// ParseStartAt reads an RFC 3339 time (2025-01-02T15:04:05Z), "now" or
// "now+DURATION" (now+30s) relative to now.
func ParseStartAt(s string, now time.Time) (time.Time, error) {
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

// waitStartAt blocks until t (zero: does not wait). A time further in the
// past than the tolerance (the target took too long to prepare) is a
// usage error; ctx ends the wait with an *InterruptedError.
func waitStartAt(ctx context.Context, deps Deps, t time.Time) error {
	if t.IsZero() {
		return nil
	}
	wait := time.Until(t)
	if wait < -startAtTolerance {
		return usagef("--start-at %s passed %s ago while the target was prepared; choose a later time", t.Format(time.RFC3339), (-wait).Round(time.Second))
	}
	if wait <= 0 {
		return nil
	}
	fmt.Fprintf(orDiscard(deps.Info), "waiting %s until %s (--start-at)\n", wait.Round(100*time.Millisecond), t.Format(time.RFC3339))
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return interrupted("interrupted while waiting for --start-at")
	}
}

// SegmentLines describes the share of every scenario that segment
// p.Segment runs, one line each, naming the scenarios it has no share of.
func SegmentLines(p Plan) []string {
	lines := []string{fmt.Sprintf("segment %s: this instance runs its share of every executor", p.segmentName())}
	for _, s := range p.Scenarios {
		n, c := s.Name, s.Config
		if executor.IsIdle(c) {
			msg := "no share in this segment (more segments than VUs, iterations or rate): runs no VU"
			if d := c.TotalDuration(); d > 0 {
				msg += fmt.Sprintf(", idles %s to stay in step", d)
			}
			lines = append(lines, fmt.Sprintf("  %s: %s", n, msg))
			continue
		}
		lines = append(lines, fmt.Sprintf("  %s: %s", n, c.Describe()))
	}
	return lines
}
