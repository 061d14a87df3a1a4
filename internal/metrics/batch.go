package metrics

import "sync"

// batchCap is the number of trend samples a Recorder buffers before it hands
// them to the Aggregator: 512 samples × 16 B = 8 KiB per busy VU.
const batchCap = 512

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
	Counts   []int64 // indexed by ID; counters and rate passes
	Fails    []int64 // indexed by ID; rate fails
	Errors   []errCount
	touched  bool
}

type batchPool struct{ p sync.Pool }

func newBatchPool(n int) *batchPool {
	bp := &batchPool{}
	bp.p.New = func() any {
		return &Batch{
			Samples: make([]Sample, 0, batchCap),
			Counts:  make([]int64, n),
			Fails:   make([]int64, n),
		}
	}
	return bp
}

func (bp *batchPool) get(scenario int, sec int64) *Batch {
	b := bp.p.Get().(*Batch)
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
	bp.p.Put(b)
}
