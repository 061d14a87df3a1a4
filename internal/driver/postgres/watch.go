package postgres

import (
	"context"
	"time"
)

// Queries run with a context whose Done is nil: with a cancellable one,
// pgx registers a context.AfterFunc on every query, and driver.OpContext
// adds a timer. The DB's driver.Watchdog enforces Options.Timeout and the
// run's end instead, as pgx's own CancelRequestContextWatcherHandler
// does on a context's end: at once a cancel request to the server (the
// query fails, the connection stays usable), and when the query still
// runs DeadlineDelay later, a deadline in the past on the connection's
// socket (the connection is lost and reopened by the next query).

// DeadlineDelay is how long after its cancel request an interrupted query
// may still run before its connection is cut.
const DeadlineDelay = time.Second

// interrupt is the watchdog's interruption of the query in progress,
// called under the Watch's lock every tick while it runs overdue or
// cancelled, since the first call.
func (c *Conn) interrupt(since time.Duration) {
	if c.cancelDone == nil {
		done := make(chan struct{})
		c.cancelDone = done
		pc := c.pc
		go func() { // a goroutine per interrupted query, not per query
			defer close(done)
			ctx, cancel := context.WithTimeout(context.Background(), DeadlineDelay)
			defer cancel()
			pc.CancelRequest(ctx)
		}()
		return
	}
	if since >= DeadlineDelay && !c.deadlineSet {
		c.deadlineSet = true
		c.pc.Conn().SetDeadline(time.Now())
	}
}
