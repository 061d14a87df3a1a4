package msgload

import (
	"context"
	"errors"
	"testing"
	"time"
)

// holder is a broker that holds the refs in has, and cannot answer about
// those in broken.
type holder struct {
	has    map[Ref]bool
	broken map[Ref]bool
}

func (h holder) Holds(_ context.Context, r Ref) (bool, error) {
	if h.broken[r] {
		return false, errors.New("no responders")
	}
	return h.has[r], nil
}

// TestLedgerLostOnlyWhenTheBrokerSaysSo: a message not consumed in time is
// lost only when the broker confirms it does not hold it.
//
// Mutation caught: counting every overdue message lost (the old
// nats.EndToEnd rule) gives Lost 3, not 1.
func TestLedgerLostOnlyWhenTheBrokerSaysSo(t *testing.T) {
	l := NewLedger()
	for range 10 {
		l.Acked()
	}
	for range 5 {
		l.Consumed()
	}
	a, b, c, d, e := Ref{Seq: 1}, Ref{Seq: 2}, Ref{Seq: 3}, Ref{Seq: 4}, Ref{Part: 1, Seq: 1}
	for _, r := range []Ref{a, b, c, d, e} {
		l.Overdue(r)
	}
	if !l.ConsumedLate(e) || l.ConsumedLate(e) {
		t.Fatal("a late delivery is counted once")
	}
	if got := l.Account(); got.Overdue != 4 || got.Unknown != 4 || got.Lost != 0 {
		t.Fatalf("before Verify: %+v", got)
	}
	l.Verify(context.Background(), holder{has: map[Ref]bool{a: true, b: true}, broken: map[Ref]bool{d: true}}, time.Second)
	got := l.Account()
	want := Account{Acked: 10, Consumed: 5, Late: 1, Overdue: 4, Stored: 2, Lost: 1, Unknown: 1, Verified: true, LastErr: "no responders"}
	if got != want {
		t.Fatalf("account %+v, want %+v", got, want)
	}
	line := got.Describe(10*time.Second, 10, "stream S")
	const wantLine = "end to end: 10 acknowledged, 5 consumed within 10s, 1 consumed later; 4 never consumed: 2 still stored in the broker (not lost), 1 confirmed absent (lost), 1 not checked (no responders); the broker holds 10 messages of this run in stream S"
	if line != wantLine {
		t.Fatalf("note\n%s\nwant\n%s", line, wantLine)
	}
}

func TestLedgerBounded(t *testing.T) {
	l := NewLedger()
	for i := range MaxOverdue + 7 {
		l.Overdue(Ref{Seq: int64(i)})
	}
	l.Verify(context.Background(), holder{}, time.Second)
	if a := l.Account(); a.Overdue != MaxOverdue+7 || a.Lost != MaxOverdue || a.Unknown != 7 {
		t.Fatalf("%+v", a)
	}
}

func TestLedgerNothingOverdue(t *testing.T) {
	l := NewLedger()
	l.Acked()
	l.Consumed()
	if got := l.Account().Describe(time.Second, -1, ""); got != "end to end: 1 acknowledged, 1 consumed within 1s; 0 lost" {
		t.Fatal(got)
	}
}
