package kafka

import (
	"context"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stampede-bench/stampede/internal/workload/msgload"
)

// TestOffsetHolder: an acknowledged offset below the partition's end is
// held; one at or past it is confirmed absent (the only case the ledger
// counts lost).
func TestOffsetHolder(t *testing.T) {
	e := embedded(t, 1)
	adm := adminFor(t, e)
	if _, err := adm.CreateTopics(t.Context(), 1, 1, nil, "held-0"); err != nil {
		t.Fatal(err)
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(e.Addrs()...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for range 3 {
		if err := cl.ProduceSync(ctx, &kgo.Record{Topic: "held-0", Value: []byte("x")}).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		off  int64
		want bool
	}{{0, true}, {2, true}, {3, false}, {100, false}} {
		h := &offsetHolder{adm: kadm.NewClient(cl), topics: []string{"held-0"}}
		got, err := h.Holds(ctx, msgload.Ref{Part: 0, Partition: 0, Seq: tc.off})
		if err != nil || got != tc.want {
			t.Errorf("offset %d: holds %t, %v; want %t", tc.off, got, err, tc.want)
		}
	}
}
