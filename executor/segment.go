package executor

// Segments: a run split into N execution segments that together do
// exactly the work of the whole, without a coordinator: instance i of N
// runs `stampede run --segment i/N` and scales every executor with the
// arithmetic here (k6's execution segments, with equal segments).
//
// An integer quantity x (VUs, iterations, rates) is split by striping: its
// units 0..x-1 sit at positions k/x in [0,1), and segment i of N owns the
// units whose position falls in [(i-1)/N, i/N). Its share is therefore
//
//	ceil(x·i/N) − ceil(x·(i−1)/N)
//
// which is ⌊x/N⌋ or ⌈x/N⌉, gives the extra units to the first segments, and
// telescopes: the N shares of any x add up to x exactly. Every quantity of
// one executor is split the same way, so the stage targets of a ramp split
// consistently and the segments' ramps add up to the whole ramp.

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxSegments is the largest number of segments accepted (N in i/N).
const MaxSegments = 1 << 20

// Segment is segment Index (1-based) of Count equal segments. The zero
// value is not valid; 1/1 is the unsegmented run.
type Segment struct {
	Index, Count int
}

// ParseSegment reads "i/N" with 1 ≤ i ≤ N ≤ MaxSegments, e.g. "2/4".
func ParseSegment(s string) (Segment, error) {
	is, ns, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return Segment{}, fmt.Errorf("bad segment %q: want i/N, e.g. 2/4", s)
	}
	i, err1 := strconv.Atoi(strings.TrimSpace(is))
	n, err2 := strconv.Atoi(strings.TrimSpace(ns))
	if err1 != nil || err2 != nil {
		return Segment{}, fmt.Errorf("bad segment %q: want whole numbers i/N, e.g. 2/4", s)
	}
	if n < 1 || n > MaxSegments {
		return Segment{}, fmt.Errorf("bad segment %q: N must be between 1 and %d", s, MaxSegments)
	}
	if i < 1 || i > n {
		return Segment{}, fmt.Errorf("bad segment %q: i must be between 1 and N (%d); segments count from 1", s, n)
	}
	return Segment{Index: i, Count: n}, nil
}

// String returns "i/N".
func (s Segment) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// IsWhole reports whether s is the entire run.
func (s Segment) IsWhole() bool { return s.Count == 1 }

// Share returns the segment's part of x ≥ 0 (see the package comment).
// Negative x is returned unchanged, so that validation still sees it.
func (s Segment) Share(x int64) int64 {
	if x < 0 || s.Count <= 1 {
		return x
	}
	return ceilPart(x, int64(s.Index), int64(s.Count)) - ceilPart(x, int64(s.Index-1), int64(s.Count))
}

// ceilPart is ceil(x·a/n) for 0 ≤ a ≤ n without overflow for any int64 x
// (n ≤ MaxSegments keeps r·a small).
func ceilPart(x, a, n int64) int64 {
	q, r := x/n, x%n
	return q*a + (r*a+n-1)/n
}
