package msgload

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// MaxOverdue is how many overdue messages (acknowledged, not consumed
// within the end-to-end timeout) a Ledger keeps for Verify; beyond it they
// are counted as unchecked, so that memory stays bounded.
const MaxOverdue = 100000

// Ledger is the end-to-end account of one scenario: every acknowledged
// message either was consumed, or, once it was not consumed within the
// timeout, became overdue; Verify then asks the broker about each overdue
// message: a message the broker still holds is "stored, not consumed in
// time" (a slow or failed-over consumer), and only one the broker confirms
// it does not hold is lost. A message consumed after it became overdue
// stops being overdue (consumed late). It is safe for concurrent use.
type Ledger struct {
	mu       sync.Mutex
	acked    int64
	consumed int64
	late     int64
	overdue  map[Ref]struct{}
	// unchecked counts overdue messages beyond MaxOverdue.
	unchecked int64
	verified  bool
	stored    int64 // overdue messages the broker holds
	lost      int64
	unknown   int64 // overdue messages Verify could not check
	lastErr   string
}

// NewLedger returns an empty ledger.
func NewLedger() *Ledger { return &Ledger{overdue: map[Ref]struct{}{}} }

// Acked counts one acknowledged message.
func (l *Ledger) Acked() {
	l.mu.Lock()
	l.acked++
	l.mu.Unlock()
}

// Consumed counts one acknowledged message received in time.
func (l *Ledger) Consumed() {
	l.mu.Lock()
	l.consumed++
	l.mu.Unlock()
}

// Overdue records that the acknowledged message at ref was not consumed
// within the timeout.
func (l *Ledger) Overdue(ref Ref) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.overdue) >= MaxOverdue {
		l.unchecked++
		return
	}
	l.overdue[ref] = struct{}{}
}

// ConsumedLate reports a delivery of ref after it became overdue; it
// returns false when ref was not overdue (a duplicate or a message of no
// waiter).
func (l *Ledger) ConsumedLate(ref Ref) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.overdue[ref]; !ok {
		return false
	}
	delete(l.overdue, ref)
	l.late++
	return true
}

// Verify asks h about every overdue message, each question bounded by
// per; it stops asking when ctx ends (the rest stay unknown).
func (l *Ledger) Verify(ctx context.Context, h Holder, per time.Duration) {
	l.mu.Lock()
	refs := make([]Ref, 0, len(l.overdue))
	for r := range l.overdue {
		refs = append(refs, r)
	}
	l.mu.Unlock()
	var stored, lost, unknown int64
	var lastErr string
	for _, r := range refs {
		if ctx.Err() != nil {
			unknown++
			continue
		}
		qctx, cancel := context.WithTimeout(ctx, per)
		ok, err := h.Holds(qctx, r)
		cancel()
		switch {
		case err != nil:
			unknown++
			lastErr = err.Error()
		case ok:
			stored++
		default:
			lost++
		}
	}
	l.mu.Lock()
	l.verified = true
	l.stored, l.lost, l.unknown, l.lastErr = stored, lost, unknown+l.unchecked, lastErr
	l.mu.Unlock()
}

// Account is a snapshot of a ledger.
type Account struct {
	// Acked, Consumed (in time) and Late (consumed after the timeout).
	Acked, Consumed, Late int64
	// Overdue is acknowledged but not consumed at all; of them Stored are
	// held by the broker, Lost confirmed absent, Unknown not checked.
	Overdue, Stored, Lost, Unknown int64
	Verified                       bool
	LastErr                        string
}

// Account returns the current counts.
func (l *Ledger) Account() Account {
	l.mu.Lock()
	defer l.mu.Unlock()
	a := Account{Acked: l.acked, Consumed: l.consumed, Late: l.late, Overdue: int64(len(l.overdue)) + l.unchecked,
		Verified: l.verified, Stored: l.stored, Lost: l.lost, Unknown: l.unknown, LastErr: l.lastErr}
	if !l.verified {
		a.Unknown = a.Overdue
	}
	return a
}

// Describe is the note line of the account; brokerStored is what the
// broker reports it holds of the run's messages (-1: not known) and where
// names the place (stream or topic names).
func (a Account) Describe(timeout time.Duration, brokerStored int64, where string) string {
	s := fmt.Sprintf("end to end: %d acknowledged, %d consumed within %s", a.Acked, a.Consumed, timeout)
	if a.Late > 0 {
		s += fmt.Sprintf(", %d consumed later", a.Late)
	}
	if a.Overdue > 0 {
		s += fmt.Sprintf("; %d never consumed: %d still stored in the broker (not lost), %d confirmed absent (lost), %d not checked", a.Overdue, a.Stored, a.Lost, a.Unknown)
		if a.LastErr != "" {
			s += " (" + a.LastErr + ")"
		}
	} else {
		s += "; 0 lost"
	}
	if brokerStored >= 0 {
		s += fmt.Sprintf("; the broker holds %d messages of this run in %s", brokerStored, where)
	}
	return s
}
