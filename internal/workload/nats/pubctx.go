package nats

import (
	"context"
	"sync"
	"time"
)

// pubCtx is the context of one VU's synchronous publishes, reused from
// one publish to the next: it is done when the publish timeout passes or
// the run's context ends. context.WithTimeout per publish costs a timer,
// five allocations and a child entry in the run context, shared by every
// VU; a pubCtx costs none while publishes are answered in time (its done
// channel is replaced only after it was closed).
//
// Use: arm before the publish, disarm after it; only the VU's goroutine
// calls them. Done, Err, Deadline and Value may be called from any
// goroutine while armed.
type pubCtx struct {
	mu       sync.Mutex
	done     chan struct{}
	err      error
	armed    bool
	deadline time.Time
	parent   context.Context
	timer    *time.Timer
	// stopWatch ends the watch on parent (context.AfterFunc).
	stopWatch func() bool
}

var _ context.Context = (*pubCtx)(nil)

func newPubCtx() *pubCtx {
	c := &pubCtx{done: make(chan struct{}), parent: context.Background()}
	c.timer = time.AfterFunc(time.Hour, c.expire)
	c.timer.Stop()
	return c
}

// arm starts a publish bounded by timeout under parent.
func (c *pubCtx) arm(parent context.Context, timeout time.Duration) {
	c.mu.Lock()
	if c.err != nil { // closed by the last publish's timeout or stop
		c.done, c.err = make(chan struct{}), nil
	}
	c.armed = true
	c.deadline = time.Now().Add(timeout)
	if parent != c.parent {
		if c.stopWatch != nil {
			c.stopWatch()
		}
		c.parent = parent
		c.stopWatch = context.AfterFunc(parent, func() { c.end(context.Cause(parent)) })
	}
	perr := parent.Err()
	c.mu.Unlock()
	if perr != nil {
		c.end(perr)
		return
	}
	c.timer.Reset(timeout)
}

// disarm ends the publish: a timer or a stop that comes later leaves the
// context as it is.
func (c *pubCtx) disarm() {
	c.timer.Stop()
	c.mu.Lock()
	c.armed = false
	c.mu.Unlock()
}

// close stops watching the parent context.
func (c *pubCtx) close() {
	c.disarm()
	c.mu.Lock()
	if c.stopWatch != nil {
		c.stopWatch()
		c.stopWatch = nil
	}
	c.mu.Unlock()
}

// expire is the timer's: it ends the armed publish once its deadline
// passed. A timer that fired for an earlier publish but ran late (after
// disarm and the next arm) finds a later deadline and does nothing.
func (c *pubCtx) expire() {
	c.mu.Lock()
	early := time.Now().Before(c.deadline)
	c.mu.Unlock()
	if !early {
		c.end(context.DeadlineExceeded)
	}
}

// end makes an armed context done with err.
func (c *pubCtx) end(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.armed || c.err != nil {
		return
	}
	c.err = err
	close(c.done)
}

func (c *pubCtx) Deadline() (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.deadline, true
}

func (c *pubCtx) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.done
}

func (c *pubCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *pubCtx) Value(key any) any {
	c.mu.Lock()
	p := c.parent
	c.mu.Unlock()
	return p.Value(key)
}
