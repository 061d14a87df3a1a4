package metrics

import "sync"

// batchCap is the number of trend samples a Recorder buffers before it hands
// them to the Aggregator: 512 samples × 16 B = 8 KiB per busy VU. A VU that
// records little (slow iterations, think time) starts with room for
// smallBatchCap samples, so 100,000 idle VUs do not hold 8 KiB each.
const (
	batchCap      = 512
	smallBatchCap = 8
)

// Sample is one trend value.
type Sample struct {
	ID ID
	V  int64
}

// errCount is a number of occurrences of one error message.
type errCount struct {
	Msg string
	N   int64
}

// Batch carries one VU's measurements of one second of one scenario from a
// Recorder to the Aggregator.
type Batch struct {
	Scenario int
	Sec      int64 // seconds since the run started
	Samples  []Sample
	Counts   []int64 // indexed by ID; counters and rate passes; for a trend: its number of zero values
	Fails    []int64 // indexed by ID; rate fails
	Errors   []errCount
	touched  bool
}

// batchPool recycles batches in two sizes.
type batchPool struct{ big, small sync.Pool }

func newBatchPool(n int) *batchPool {
	bp := &batchPool{}
	newBatch := func(c int) *Batch {
		return &Batch{Samples: make([]Sample, 0, c), Counts: make([]int64, n), Fails: make([]int64, n)}
	}
	bp.big.New = func() any { return newBatch(batchCap) }
	bp.small.New = func() any { return newBatch(smallBatchCap) }
	return bp
}

// get returns an empty batch, a small one when the recorder's last batch
// held few samples.
func (bp *batchPool) get(scenario int, sec int64, small bool) *Batch {
	var b *Batch
	if small {
		b = bp.small.Get().(*Batch)
	} else {
		b = bp.big.Get().(*Batch)
	}
	b.Scenario, b.Sec = scenario, sec
	return b
}

func (bp *batchPool) put(b *Batch) {
	b.Samples = b.Samples[:0]
	clear(b.Counts)
	clear(b.Fails)
	clear(b.Errors)
	b.Errors = b.Errors[:0]
	b.touched = false
	if cap(b.Samples) >= batchCap {
		bp.big.Put(b)
	} else {
		bp.small.Put(b)
	}
}
