package engine

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// RampingVUsConfig is k6's ramping-vus executor: the number of looping VUs
// (closed model) goes from StartVUs linearly to each stage's target over
// the stage's duration.
type RampingVUsConfig struct {
	// StartVUs is the number of VUs at the start (default 0).
	StartVUs int64
	// Stages has at least one stage; targets are VUs.
	Stages []Stage
}

func rampingVUsOf(c Config) RampingVUsConfig {
	return RampingVUsConfig{StartVUs: c.StartVUs, Stages: c.Stages}
}

// Name implements Executor.
func (RampingVUsConfig) Name() string { return RampingVUs }

func (RampingVUsConfig) fields() []string { return []string{"startVUs", "stages"} }

func (e RampingVUsConfig) defaults() Executor { return e }

func (e RampingVUsConfig) store(c *Config) { c.StartVUs, c.Stages = e.StartVUs, e.Stages }

// fromShortcuts: the stages, from -u VUs when given (else 0).
func (RampingVUsConfig) fromShortcuts(s Shortcuts) (Executor, error) {
	e := RampingVUsConfig{Stages: s.Stages}
	if s.VUsSet {
		e.StartVUs = s.VUs
	}
	return e, nil
}

// Validate implements Executor.
func (e RampingVUsConfig) Validate() error {
	var p problems
	if len(e.Stages) == 0 {
		p.bad("%s needs at least one stage", e.Name())
	}
	if e.StartVUs < 0 {
		p.bad("startVUs must not be negative")
	}
	checkStages(e.Stages, p.bad)
	return p.err()
}

// Describe implements Executor.
func (e RampingVUsConfig) Describe() string {
	return fmt.Sprintf("ramping VUs over %d stages, %s", len(e.Stages), e.TotalDuration())
}

// MaxVUsNeeded implements Executor: the highest of startVUs and the
// stage targets.
func (e RampingVUsConfig) MaxVUsNeeded() int64 { return stagesMax(e.StartVUs, e.Stages) }

// TotalDuration implements Executor: the sum of the stages.
func (e RampingVUsConfig) TotalDuration() time.Duration { return stagesDuration(e.Stages) }

// FixedDuration implements Executor.
func (e RampingVUsConfig) FixedDuration() time.Duration { return e.TotalDuration() }

// Closed implements Executor.
func (RampingVUsConfig) Closed() bool { return true }

// Split implements Executor: startVUs and every stage target are split.
func (e RampingVUsConfig) Split(share func(int64) int64) (Executor, bool) {
	e.StartVUs = share(e.StartVUs)
	e.Stages = shareStages(e.Stages, share)
	return e, e.MaxVUsNeeded() > 0
}

// rampTick is how often ramping executors recompute their target.
const rampTick = 50 * time.Millisecond

// stageValue is the linear interpolation of stages at offset t from the
// start (start is the value at t=0). It returns false once past the end.
func stageValue(start int64, stages []Stage, t time.Duration) (float64, bool) {
	from := float64(start)
	for _, s := range stages {
		if t < s.Duration {
			return from + (float64(s.Target)-from)*float64(t)/float64(s.Duration), true
		}
		t -= s.Duration
		from = float64(s.Target)
	}
	return from, false
}

// run varies the number of looping VUs along e.Stages. A VU above the
// current target finishes its iteration and then waits.
func (e RampingVUsConfig) run(ctx context.Context, r *runner, start time.Duration) error {
	vus, err := r.newVUs(ctx, e.MaxVUsNeeded())
	if err != nil {
		return err
	}
	total := e.TotalDuration()
	loop, hard, cancel := r.stopContexts(ctx, total)
	defer cancel()
	end := start + total

	var target atomic.Int64
	target.Store(e.StartVUs)
	var mu sync.Mutex
	changed := make(chan struct{})
	wait := func() <-chan struct{} { mu.Lock(); defer mu.Unlock(); return changed }
	setTarget := func(n int64) {
		if target.Swap(n) != n {
			mu.Lock()
			close(changed)
			changed = make(chan struct{})
			mu.Unlock()
		}
	}
	go func() {
		t := time.NewTicker(rampTick)
		defer t.Stop()
		for {
			select {
			case <-loop.Done():
				return
			case <-t.C:
				v, _ := stageValue(e.StartVUs, e.Stages, r.deps.Clock.Now()-start)
				setTarget(int64(v)) // k6 floors fractional VUs
			}
		}
	}()

	var wg sync.WaitGroup
	for _, v := range vus {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer v.rec.Flush()
			for now := start; now < end && running(loop, hard); {
				if int64(v.id) >= target.Load() {
					v.flush() // ramped down: idle until the target rises
					ch := wait()
					if int64(v.id) < target.Load() {
						continue
					}
					select {
					case <-ch:
					case <-loop.Done():
					}
					continue
				}
				r.active.Add(1)
				now = r.iterate(hard, v, -1)
				r.active.Add(-1)
			}
		}()
	}
	wg.Wait()
	return nil
}
