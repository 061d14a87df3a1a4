package kafka

import (
	"context"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/stampede-bench/stampede/internal/driver"
	kafkadrv "github.com/stampede-bench/stampede/internal/driver/kafka"
	"github.com/stampede-bench/stampede/internal/workload/msgload"
	"github.com/stampede-bench/stampede/vu"
)

// windowSender is the producing half of a kafka.Produce VU with
// --produce-window W > 1: an iteration hands one message to the producer client
// and returns; the VU waits only when W of its messages are
// unacknowledged. Acknowledgements are recorded as they come back, at the
// start of later iterations, each with its own send and intended time, so
// per-message latency and (under --rate) coordinated-omission accounting
// are those of the one-message-per-iteration mode; what changes is that a
// VU keeps W messages in flight instead of one, without a goroutine
// wake-up per message.
type windowSender struct {
	b   *base
	vu  uint32
	seq uint64
	rnd uint64
	gen *windowGen
	// free lists the slots of gen not in flight.
	free  []int
	timer *time.Timer
	it    *vu.Iter
}

// windowGen is one set of up to W slots with their acknowledgement
// channel. Slots are made as the window fills (a VU that never has many
// messages in flight allocates few). Slots abandoned after a delivery
// timeout still belong to the client, so the sender then takes a fresh
// generation.
type windowGen struct {
	slots []*windowSlot
	w     int
	// acks has room for every slot's promise, so franz-go never blocks.
	acks chan ack
}

type windowSlot struct {
	rec              kgo.Record
	hdr              [headerLen]byte
	sent, intended   time.Duration
	ti               int
	scheduled, inUse bool
	promise          func(*kgo.Record, error)
}

func newWindowGen(w int) *windowGen {
	return &windowGen{w: w, acks: make(chan ack, w)}
}

// grow adds a slot and returns its index; false when the window is full.
func (g *windowGen) grow() (int, bool) {
	i := len(g.slots)
	if i >= g.w {
		return 0, false
	}
	sl := &windowSlot{}
	sl.rec.Headers = []kgo.RecordHeader{{Key: HeaderKey, Value: sl.hdr[:]}}
	sl.promise = func(_ *kgo.Record, err error) { g.acks <- ack{i, err} }
	g.slots = append(g.slots, sl)
	return i, true
}

func newWindowSender(b *base, id, w int) *windowSender {
	s := &windowSender{b: b, vu: uint32(id), rnd: uint64(id)*0x9E3779B97F4A7C15 + 1, timer: time.NewTimer(time.Hour)}
	s.timer.Stop()
	s.reset(w)
	return s
}

// reset takes a fresh generation of up to w slots.
func (s *windowSender) reset(w int) {
	s.gen = newWindowGen(w)
	s.free = s.free[:0]
}

// send records the acknowledgements that arrived, waits while the window
// is full, then hands one message to the client picked by pick, intended
// at intended. It returns ctx's error when the run stopped it.
func (s *windowSender) send(ctx context.Context, it *vu.Iter, pick func() (*kgo.Client, int), intended time.Duration) error {
	s.it = it
	s.drain(it)
	if len(s.free) == 0 {
		if i, ok := s.gen.grow(); ok {
			s.free = append(s.free, i)
		} else if err := s.wait(ctx, it); err != nil {
			return err
		}
	}
	b := s.b
	i := s.free[len(s.free)-1]
	s.free = s.free[:len(s.free)-1]
	sl := s.gen.slots[i]
	cl, ti := pick()
	s.seq++
	sl.rec.Topic = b.topics[ti]
	sl.rec.Value = b.pay.value(&s.rnd)
	sent := it.Now()
	sl.rec.Timestamp = createTime(it, sent)
	// Stamped with the message's origin (its intended time under --rate).
	putStamp(sl.hdr[:], stamp{SentNs: it.Clock.Wall(msgload.Origin(it, sent)).UnixNano(), VU: s.vu, Seq: s.seq})
	sl.sent, sl.intended, sl.ti, sl.inUse = sent, intended, ti, true
	sl.scheduled = intended != it.Start
	b.Sent.Add(1)
	// Not ctx: the message outlives its iteration, whose context the
	// engine may cancel once it returned or the executor ended. Teardown
	// closing the clients fails what is still buffered.
	cl.Produce(context.Background(), &sl.rec, sl.promise)
	return nil
}

// drain records every acknowledgement already there.
func (s *windowSender) drain(it *vu.Iter) {
	for {
		select {
		case a := <-s.gen.acks:
			s.record(it, a.i, a.err)
		default:
			return
		}
	}
}

// wait blocks for one acknowledgement, the run's end, or the delivery
// timeout (then every unanswered message is counted failed and the
// window starts afresh).
func (s *windowSender) wait(ctx context.Context, it *vu.Iter) error {
	s.timer.Reset(s.b.opts.DeliveryTimeout + guardSlack)
	defer s.timer.Stop()
	select {
	case a := <-s.gen.acks:
		s.record(it, a.i, a.err)
		s.drain(it)
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-s.timer.C:
	}
	for i, sl := range s.gen.slots {
		if sl.inUse {
			s.record(it, i, errNoAnswer)
		}
	}
	s.reset(s.gen.w)
	return nil
}

// record records the outcome of slot i and frees it.
func (s *windowSender) record(it *vu.Iter, i int, err error) {
	b, sl := s.b, s.gen.slots[i]
	if !sl.inUse {
		return
	}
	sl.inUse = false
	s.free = append(s.free, i)
	b.PublishedAt(it, sl.rec.Topic, sl.ti, sl.intended, sl.sent, sl.scheduled, len(sl.rec.Value), driver.Result{Rows: 1, Err: kafkadrv.Wrap(err)})
}

// finish waits up to limit for the messages still in flight when the VU
// stops and records them; it returns whether any were recorded.
func (s *windowSender) finish(limit time.Duration) bool {
	it := s.it
	if it == nil || len(s.free) == len(s.gen.slots) {
		return false
	}
	t := time.NewTimer(limit)
	defer t.Stop()
	for len(s.free) < len(s.gen.slots) {
		select {
		case a := <-s.gen.acks:
			s.record(it, a.i, a.err)
		case <-t.C:
			return true
		}
	}
	return true
}
