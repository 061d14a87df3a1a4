package msgload

import (
	"context"
	"strings"
	"time"
)

// Churn is the churn of a fault window, run the same way by both
// families: From after it starts the window opens (Open: a broker joins,
// a node leaves), then every Interval until For has passed a part (topic,
// stream) is created and the one created before deleted; the last one is
// deleted and the window closes (the function Open returned). Every
// operation is reported to Event, failed or not (Core.FaultEvent counts
// them). Fill the fields and call Run in a background goroutine
// (Core.OnStart).
type Churn struct {
	From, For, Interval time.Duration
	// Open, when set, changes the cluster as the window opens and returns
	// what undoes it as the window closes (nil: nothing to undo).
	Open   func(ctx context.Context) (undo func(ctx context.Context) error, err error)
	OpenOp string
	// CloseOp names the undo operation.
	CloseOp string
	// Create makes the i-th churn part and returns its name, Delete
	// removes one; nil Create: no part churn. CreateOp and DeleteOp name
	// the operations.
	Create             func(ctx context.Context, i int) (string, error)
	Delete             func(ctx context.Context, name string) error
	CreateOp, DeleteOp string
	// OpTimeout bounds each operation; an operation started before the
	// run stopped completes within it (the churn outlives a stopped run
	// by at most one operation).
	OpTimeout time.Duration
	// Event reports one operation: its name and error.
	Event func(op string, err error)
}

// Run runs the churn until the window closed or ctx ended (then only the
// pending deletion and the undo run, each within OpTimeout).
func (c Churn) Run(ctx context.Context) {
	if !SleepCtx(ctx, c.From) {
		return
	}
	end := time.Now().Add(c.For)
	op := func(name string, f func(context.Context) error) {
		octx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.OpTimeout)
		defer cancel()
		c.Event(name, f(octx))
	}
	var undo func(context.Context) error
	if c.Open != nil {
		op(c.OpenOp, func(octx context.Context) error {
			var err error
			undo, err = c.Open(octx)
			return err
		})
	}
	if c.Create == nil || c.Interval <= 0 {
		SleepCtx(ctx, time.Until(end))
	}
	prev := ""
	for i := 0; c.Create != nil && c.Interval > 0 && time.Now().Before(end); i++ {
		var name string
		op(c.CreateOp, func(octx context.Context) error {
			var err error
			name, err = c.Create(octx, i)
			return err
		})
		if prev != "" {
			old := prev
			op(c.DeleteOp, func(octx context.Context) error { return c.Delete(octx, old) })
		}
		prev = name
		if !SleepCtx(ctx, min(c.Interval, time.Until(end))) {
			break
		}
	}
	if prev != "" {
		op(c.DeleteOp, func(octx context.Context) error { return c.Delete(octx, prev) })
	}
	if undo != nil {
		op(c.CloseOp, undo)
	}
}

// ChurnText is the fault note's description of a churn window: "churn
// from 5s for 10s (what, what): N operations, E errors".
func ChurnText(from, length time.Duration, what []string, ops, errs int64) string {
	return sprintf("churn from %s for %s (%s): %d operations, %d errors", from, length, strings.Join(what, ", "), ops, errs)
}
