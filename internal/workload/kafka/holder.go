package kafka

import (
	"context"
	"fmt"

	"github.com/twmb/franz-go/pkg/kadm"

	kafkadrv "github.com/stampede-bench/stampede/internal/driver/kafka"
	"github.com/stampede-bench/stampede/internal/workload/msgload"
)

// offsetHolder is the kafka adapter of the core's msgload.Holder: a
// partition holds an acknowledged offset while it lies between the log's
// start and end offsets (Kafka logs are contiguous); an offset at or past
// the end is not held (lost); one below the start was deleted by
// retention, which is not a loss and not a hold (an error: unconfirmed).
// It reads each partition's offsets once. It does not check that the
// record at the offset is the one acknowledged (a truncated and
// rewritten log would pass).
type offsetHolder struct {
	adm    *kadm.Client
	topics []string
	start  kadm.ListedOffsets
	end    kadm.ListedOffsets
	err    error
	read   bool
}

var _ msgload.Holder = (*offsetHolder)(nil)

func (h *offsetHolder) Holds(ctx context.Context, ref msgload.Ref) (bool, error) {
	if !h.read {
		h.read = true
		if h.start, h.err = h.adm.ListStartOffsets(ctx, h.topics...); h.err == nil {
			h.end, h.err = h.adm.ListEndOffsets(ctx, h.topics...)
		}
	}
	if h.err != nil {
		return false, fmt.Errorf("list offsets: %s", kafkadrv.ErrorMessage(h.err))
	}
	topic := h.topics[ref.Part]
	s, ok1 := h.start.Lookup(topic, ref.Partition)
	e, ok2 := h.end.Lookup(topic, ref.Partition)
	if !ok1 || !ok2 || s.Err != nil || e.Err != nil {
		return false, fmt.Errorf("%s[%d]: offsets not answered", topic, ref.Partition)
	}
	switch {
	case ref.Seq >= e.Offset:
		return false, nil
	case ref.Seq < s.Offset:
		return false, fmt.Errorf("%s[%d]: offset %d deleted by retention (log starts at %d)", topic, ref.Partition, ref.Seq, s.Offset)
	}
	return true, nil
}
