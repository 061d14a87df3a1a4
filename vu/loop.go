package vu

import (
	"context"
	"time"
)

// Multiplexed is implemented by scenarios whose VUs can run as the steps
// of an event loop: one goroutine drives the iterations of many VUs, each
// VU's wait for the target spent in the loop rather than in a goroutine of
// its own (wrk's model, against k6's goroutine per VU). The engine uses it
// under the closed-model executors (constant-vus, per-vu-iterations,
// shared-iterations), one loop per processor; the iterations, their
// timing and everything they record are the same as Iterate's.
type Multiplexed interface {
	// NewLoop returns a loop for this scenario's VUs, or nil when they
	// cannot share one in this run (the engine then runs a goroutine per
	// VU).
	NewLoop() (Loop, error)
}

// Loop runs iterations of the VUs it adopted. Its methods are called from
// one goroutine.
type Loop interface {
	// Add adopts v, a VU of the scenario (from NewVU), before its first
	// iteration, as id (the caller's: 0, 1, 2, ...); v's Close still
	// releases it.
	Add(v VU, id int) error
	// Start begins an iteration of VU id, to be recorded through it as
	// Iterate would. done tells that it already ended (its error in err):
	// the loop then reports nothing more for it.
	Start(ctx context.Context, id int, it *Iter) (done bool, err error)
	// Wait waits up to d for the started iterations' I/O and calls ended
	// for each one that ended, with what Iterate would have returned. It
	// returns early when ctx ends; the iterations still running are then
	// abandoned, neither recorded nor ended.
	Wait(ctx context.Context, d time.Duration, ended func(id int, err error)) error
	// Close releases the loop (not the VUs).
	Close() error
}
