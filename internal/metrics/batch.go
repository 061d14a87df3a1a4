package metrics

import "sync"

// batchCap is the most trend samples a Recorder buffers before it hands
// them to the Aggregator: 512 samples × 16 B = 8 KiB per busy VU. A batch
// is sized to what its VU recorded in its last one (a power of two from
// smallBatchCap up, with a quarter to spare, twice the last size when that
// one filled up), so that 5,000 VUs recording 100 samples a second each do
// not hold 8 KiB each, nor 100,000 idle VUs.
const (
	batchCap      = 512
	smallBatchCap = 8
	batchClasses  = 7 // 8, 16, ..., 512
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

// batchPool recycles batches, one pool per size class.
type batchPool struct{ class [batchClasses]sync.Pool }

func newBatchPool(n int) *batchPool {
	bp := &batchPool{}
	for i := range bp.class {
		c := smallBatchCap << i
		bp.class[i].New = func() any {
			return &Batch{Samples: make([]Sample, 0, c), Counts: make([]int64, n), Fails: make([]int64, n)}
		}
	}
	return bp
}

// classFor is the size class of the batch that follows one that held
// last samples out of capacity prev and was handed over because it was
// full, or because its second ended.
func classFor(last, prev int, full bool) int {
	want := last + last/4
	if full {
		want = 2 * prev
	}
	for i := range batchClasses {
		if smallBatchCap<<i >= want {
			return i
		}
	}
	return batchClasses - 1
}

// classOf is the size class of a batch of capacity c.
func classOf(c int) int {
	for i := range batchClasses {
		if smallBatchCap<<i >= c {
			return i
		}
	}
	return batchClasses - 1
}

// get returns an empty batch of size class class.
func (bp *batchPool) get(scenario int, sec int64, class int) *Batch {
	b := bp.class[class].Get().(*Batch)
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
	bp.class[classOf(cap(b.Samples))].Put(b)
}
