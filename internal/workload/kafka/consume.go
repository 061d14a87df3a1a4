package kafka

import (
	"context"
	"errors"
	"sort"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stampede-bench/stampede/internal/driver"
	kafkadrv "github.com/stampede-bench/stampede/internal/driver/kafka"
	"github.com/stampede-bench/stampede/vu"
)

// assignment is the partitions one consumer reads, with start offsets.
type assignment map[string]map[int32]kgo.Offset

// assignments splits every topic's partitions over --consumers consumers
// per topic: consumer c of a topic reads the partitions p with
// p mod consumers = c. Consumers left without a partition are dropped.
// start gives the first offset of each partition.
func (r *run) assignments(start func(topic string, p int32) kgo.Offset) []assignment {
	var out []assignment
	c := r.opts.Consumers
	for _, t := range r.topics {
		for ci := range c {
			a := assignment{}
			for p := int32(ci); p < r.layout.Partitions; p += int32(c) {
				if a[t] == nil {
					a[t] = map[int32]kgo.Offset{}
				}
				a[t][p] = start(t, p)
			}
			if len(a) > 0 {
				out = append(out, a)
			}
		}
	}
	return out
}

func (r *run) consumerClient(a assignment) (*kgo.Client, error) {
	return r.client(
		kgo.ConsumePartitions(a),
		kgo.FetchMaxWait(500*time.Millisecond),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
	)
}

// endOffsets returns each partition's current end offset, so consumers
// started now see exactly the messages produced from now on.
//
// It uses a client of its own: the admin client may have cached the
// topics as unknown from before they were created.
func (r *run) endOffsets(ctx context.Context) (func(string, int32) kgo.Offset, error) {
	cl, err := r.client()
	if err != nil {
		return nil, err
	}
	defer cl.Close()
	lo, err := kadm.NewClient(cl).ListEndOffsets(ctx, r.topics...)
	if err != nil {
		return nil, errors.New("list end offsets: " + kafkadrv.ErrorMessage(err))
	}
	if err := lo.Error(); err != nil {
		return nil, errors.New("list end offsets: " + kafkadrv.ErrorMessage(err))
	}
	return func(t string, p int32) kgo.Offset {
		if o, ok := lo.Lookup(t, p); ok {
			return kgo.NewOffset().At(o.Offset)
		}
		return kgo.NewOffset().AtEnd()
	}, nil
}

// pollTimeout bounds one kafka.Consume poll, so that VUs notice the end
// of the run and idle consumers record their (zero) lag.
const pollTimeout = 500 * time.Millisecond

// consumeScenario is kafka.Consume: each VU is a consumer with a static
// share of the partitions; an iteration is one poll.
type consumeScenario struct {
	*base
	assigns []assignment
}

var (
	_ vu.Scenario   = (*consumeScenario)(nil)
	_ vu.Teardowner = (*consumeScenario)(nil)
)

func newConsume(r *run) *consumeScenario {
	s := &consumeScenario{base: newBase(r, ScenarioConsume)}
	from := kgo.NewOffset().AtStart()
	if r.opts.ConsumeFrom == "latest" {
		from = kgo.NewOffset().AtEnd()
	}
	s.assigns = r.assignments(func(string, int32) kgo.Offset { return from })
	return s
}

// NewVU gives VU id the consumers id, id+V, id+2V, ... where V is the
// run's VU count; VUs beyond the consumer count idle.
func (s *consumeScenario) NewVU(_ context.Context, id int) (vu.VU, error) {
	v := &consumeVU{s: s}
	stride := max(1, s.maxVUs)
	mine := assignment{}
	for j := id; j < len(s.assigns); j += stride {
		for t, ps := range s.assigns[j] {
			if mine[t] == nil {
				mine[t] = map[int32]kgo.Offset{}
			}
			for p, o := range ps {
				mine[t][p] = o
			}
		}
	}
	if len(mine) == 0 {
		return v, nil
	}
	cl, err := s.consumerClient(mine)
	if err != nil {
		return nil, err
	}
	v.cl = cl
	return v, nil
}

// Teardown writes the scenario's notes.
func (s *consumeScenario) Teardown(context.Context) error {
	s.StopBackground()
	if s.IsStarted() {
		s.Note("consumed %d messages with %d consumer(s) over %d topic(s)", s.Consumed.Load(), len(s.assigns), len(s.topics))
	}
	return nil
}

type consumeVU struct {
	s  *consumeScenario
	cl *kgo.Client
}

func (v *consumeVU) Iterate(ctx context.Context, it *vu.Iter) error {
	s := v.s
	s.Begin(it)
	if v.cl == nil {
		return idle(ctx)
	}
	start := it.Now()
	pctx, cancel := context.WithTimeout(ctx, pollTimeout)
	fs := v.cl.PollFetches(pctx)
	cancel()
	if ctx.Err() != nil && fs.NumRecords() == 0 {
		return ctx.Err()
	}
	c := count(fs, time.Now().UnixNano())
	r, m := it.Rec, s.ids
	for _, e := range c.errs {
		it.Request("poll", start, driver.Result{Err: e})
	}
	if c.n == 0 {
		r.Trend(m.lag, it.Now(), 0) // caught up: the poll found nothing
		return nil
	}
	end := it.Request("poll", start, driver.Result{Rows: c.n})
	r.Add(m.consumed, end, c.n)
	r.Add(m.consumedBytes, end, c.bytes)
	r.Trend(m.lag, end, c.lag)
	for _, d := range c.e2e {
		r.Trend(m.e2e, end, d)
	}
	s.Consumed.Add(c.n)
	return nil
}

func (v *consumeVU) Close() error {
	if v.cl != nil {
		v.cl.Close()
	}
	return nil
}

// idle parks a VU that has no consumer for as long as a poll may take.
func idle(ctx context.Context) error {
	t := time.NewTimer(pollTimeout)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// polled is what one poll brought.
type polled struct {
	n, bytes, lag int64
	e2e           []int64 // µs, send → now
	errs          []error
	stamps        []stamp
}

// count tallies a poll taken at wall time nowNs.
func count(fs kgo.Fetches, nowNs int64) polled {
	var c polled
	fs.EachPartition(func(p kgo.FetchTopicPartition) {
		if p.Err != nil {
			if !errors.Is(p.Err, context.DeadlineExceeded) && !errors.Is(p.Err, context.Canceled) && !errors.Is(p.Err, kgo.ErrClientClosed) {
				c.errs = append(c.errs, kafkadrv.Wrap(p.Err))
			}
		}
		if len(p.Records) == 0 {
			return
		}
		c.lag += max(0, p.HighWatermark-(p.Records[len(p.Records)-1].Offset+1))
		for _, rec := range p.Records {
			c.n++
			c.bytes += int64(len(rec.Value))
			for _, h := range rec.Headers {
				if h.Key == HeaderKey {
					if st, ok := parseStamp(h.Value); ok {
						c.e2e = append(c.e2e, max(0, (nowNs-st.SentNs)/1000))
						c.stamps = append(c.stamps, st)
					}
					break
				}
			}
		}
	})
	sort.Slice(c.errs, func(i, j int) bool { return c.errs[i].Error() < c.errs[j].Error() })
	return c
}
