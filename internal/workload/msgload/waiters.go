package msgload

import (
	"sync"
	"sync/atomic"
)

// Waiters lets EndToEnd VUs wait for their own messages: each VU
// registers once (Add), and the consumers hand every delivery to the VU
// whose stamp it carries (Deliver). Lookups take no lock; Add is safe for
// concurrent use.
type Waiters struct {
	mu   sync.Mutex
	list atomic.Pointer[[]*Waiter]
}

// Waiter is one VU's: the sequence number it waits for and the wall times
// (Unix ns) of the deliveries handed to it.
type Waiter struct {
	want atomic.Uint64
	ch   chan Delivery
}

// Delivery is one consumed message handed to its VU: its sequence number
// and the wall time (Unix ns) it was consumed at.
type Delivery struct {
	Seq uint64
	Ns  int64
}

// Add registers VU id and returns its waiter.
func (ws *Waiters) Add(id int) *Waiter {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	var cur []*Waiter
	if p := ws.list.Load(); p != nil {
		cur = *p
	}
	next := make([]*Waiter, max(len(cur), id+1))
	copy(next, cur)
	w := &Waiter{ch: make(chan Delivery, 4)}
	next[id] = w
	ws.list.Store(&next)
	return w
}

// Deliver hands the delivery of message seq of VU vu, consumed at ns, to
// the VU when it waits for that message; false when nobody waits for it
// (a duplicate, or a message already overdue).
func (ws *Waiters) Deliver(vu uint32, seq uint64, ns int64) bool {
	p := ws.list.Load()
	if p == nil || int(vu) >= len(*p) {
		return false
	}
	w := (*p)[vu]
	if w == nil || w.want.Load() != seq {
		return false
	}
	select {
	case w.ch <- Delivery{Seq: seq, Ns: ns}:
		return true
	default:
		return false
	}
}

// Expect makes the VU wait for message seq (0: none) and drops what was
// handed to it before: call it before the message is published.
func (w *Waiter) Expect(seq uint64) {
	w.want.Store(seq)
	for {
		select {
		case <-w.ch:
		default:
			return
		}
	}
}

// C delivers the messages handed to the VU; a delivery whose Seq is not the
// awaited one is a late one of an earlier message.
func (w *Waiter) C() <-chan Delivery { return w.ch }
