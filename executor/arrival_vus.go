package executor

// arrivalVUs bounds the VUs of an arrival-rate executor.
type arrivalVUs struct {
	// Pre VUs are allocated before the first iteration, at most Max in all.
	Pre, Max int64
}

// check reports VU bounds an arrival-rate executor cannot run with.
func (b arrivalVUs) check(executor string, bad func(string, ...any)) {
	if b.Pre < 0 || b.Max < 1 {
		bad("%s needs preAllocatedVUs ≥ 0 and maxVUs ≥ 1", executor)
	}
	if b.Max < b.Pre {
		bad("%s: maxVUs (%d) must be ≥ preAllocatedVUs (%d)", executor, b.Max, b.Pre)
	}
}

// defaults are k6's: 1 preallocated VU, at most as many as preallocated.
func (b arrivalVUs) defaults() arrivalVUs {
	if b.Pre == 0 {
		b.Pre = 1
	}
	if b.Max == 0 {
		b.Max = b.Pre
	}
	return b
}

// split shares the VUs of a segment that has a rate: at least one VU.
func (b arrivalVUs) split(share func(int64) int64) arrivalVUs {
	m := max(share(b.Max), 1)
	return arrivalVUs{Pre: min(share(b.Pre), m), Max: m}
}
