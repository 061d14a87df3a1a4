package nats

import (
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/stampede-bench/stampede/internal/metrics"
)

// pubAcks collects the PubAcks of one VU's async window on a subscription
// of its own, "<inbox>.<slot>" (slot: the message's place in the window),
// in place of nats.go's PublishMsgAsync: no future, map entry, channel or
// JSON decoding per message (parsePubAck), and the VU wakes once per
// window, when every slot is answered, not once per future it looks at.
//
// The subscription's goroutine (nats.go's, one per subscription, as
// jetstream's own async publisher has) fills the slots under mu and
// signals done when the last one came; the VU reads them after done, or
// under mu when its timer fired. One VU uses a pubAcks.
type pubAcks struct {
	nc      *nats.Conn
	sub     *nats.Subscription
	replies []string // reply subject of each slot

	done chan struct{} // a window answered (room for one signal)

	mu    sync.Mutex
	gen   int           // the subscription's generation
	clock metrics.Clock // the run clock, for each answer's time
	res   []ackRes      // the current window's slots
	want  int           // slots of the current window
	got   int           // answered slots
}

// ackRes is one slot's outcome: answered (ok) at run offset at with the
// stream sequence seq or the error err.
type ackRes struct {
	at  time.Duration
	seq uint64
	err error
	ok  bool
}

// newPubAcks subscribes for a window of up to n messages on nc.
func newPubAcks(nc *nats.Conn, n int) (*pubAcks, error) {
	a := &pubAcks{nc: nc, done: make(chan struct{}, 1), res: make([]ackRes, n), replies: make([]string, n)}
	return a, a.subscribe()
}

// subscribe starts the subscription on a fresh inbox: answers to an
// earlier inbox (a window that timed out) are never read as the current
// window's.
func (a *pubAcks) subscribe() error {
	if a.sub != nil {
		_ = a.sub.Unsubscribe()
	}
	prefix := a.nc.NewInbox() + "."
	a.mu.Lock()
	a.gen++
	gen := a.gen
	a.mu.Unlock()
	sub, err := a.nc.Subscribe(prefix+"*", func(m *nats.Msg) { a.handle(m, len(prefix), gen) })
	if err != nil {
		return err
	}
	a.sub = sub
	for i := range a.replies {
		a.replies[i] = prefix + strconv.Itoa(i)
	}
	return nil
}

// handle is the handler of the subscription of generation gen, whose
// subjects have a prefix of that length: it fills the answered slot.
func (a *pubAcks) handle(m *nats.Msg, prefix, gen int) {
	if len(m.Subject) <= prefix {
		return
	}
	slot, err := strconv.Atoi(m.Subject[prefix:])
	if err != nil {
		return
	}
	seq, aerr := parsePubAck(m)
	a.mu.Lock()
	if gen == a.gen && slot >= 0 && slot < a.want && !a.res[slot].ok {
		a.res[slot] = ackRes{at: a.clock.Now(), seq: seq, err: aerr, ok: true}
		a.answered()
	}
	a.mu.Unlock()
}

// answered counts one answered slot (mu held) and signals done when the
// window is complete.
func (a *pubAcks) answered() {
	a.got++
	if a.got == a.want {
		select {
		case a.done <- struct{}{}:
		default:
		}
	}
}

// begin starts a window of n slots timed on clock.
func (a *pubAcks) begin(n int, clock metrics.Clock) {
	a.mu.Lock()
	a.clock, a.want, a.got = clock, n, 0
	clear(a.res[:n])
	a.mu.Unlock()
	select {
	case <-a.done: // a signal of the last window that was not taken
	default:
	}
}

// fail answers slot i with err at run offset at (a publish that did not
// leave, or a PubAck that did not come in time), unless it was answered.
func (a *pubAcks) fail(i int, at time.Duration, err error) {
	a.mu.Lock()
	if !a.res[i].ok {
		a.res[i] = ackRes{at: at, err: err, ok: true}
		a.answered()
	}
	a.mu.Unlock()
}

// retry reopens slot i for a message sent again.
func (a *pubAcks) retry(i int) {
	a.mu.Lock()
	if a.res[i].ok {
		a.res[i].ok = false
		a.got--
	}
	a.mu.Unlock()
	select {
	case <-a.done: // the window is not complete any more
	default:
	}
}

// complete tells whether every slot of the window is answered.
func (a *pubAcks) complete() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.got == a.want
}

// result is slot i's outcome (read once the window is complete).
func (a *pubAcks) result(i int) ackRes {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.res[i]
}

func (a *pubAcks) close() {
	if a != nil && a.sub != nil {
		_ = a.sub.Unsubscribe()
	}
}
