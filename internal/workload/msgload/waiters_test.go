package msgload

import "testing"

// A delivery reaches only the VU that waits for that very message; what
// was handed to a VU before it expects its next message is dropped.
func TestWaiters(t *testing.T) {
	var ws Waiters
	w := ws.Add(2)
	for _, tc := range []struct {
		name string
		vu   uint32
		seq  uint64
		want bool
	}{
		{"nobody waits yet", 2, 1, false},
		{"unknown VU", 7, 1, false},
		{"unregistered VU below the highest", 1, 1, false},
	} {
		if got := ws.Deliver(tc.vu, tc.seq, 10); got != tc.want {
			t.Errorf("%s: Deliver = %t, want %t", tc.name, got, tc.want)
		}
	}
	w.Expect(5)
	if ws.Deliver(2, 4, 10) {
		t.Error("a late delivery of message 4 reached the VU waiting for 5")
	}
	if !ws.Deliver(2, 5, 11) {
		t.Fatal("message 5 did not reach its VU")
	}
	if d := <-w.C(); d.Seq != 5 || d.Ns != 11 {
		t.Errorf("delivery %+v", d)
	}
	ws.Deliver(2, 5, 12) // a duplicate while still expecting 5
	w.Expect(6)
	select {
	case d := <-w.C():
		t.Errorf("Expect kept an earlier delivery %+v", d)
	default:
	}
}
