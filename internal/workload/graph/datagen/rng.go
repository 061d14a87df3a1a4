package datagen

import "math/rand/v2"

// Random streams. Every random decision draws from a PCG seeded from
// (Config.Seed, stream, index), so a value depends only on the seed and on
// what it is for (a person, a block of a knows pass...), never on which
// worker computes it or when.
const (
	streamPerson    uint64 = iota + 1 // index: person seq
	streamAttrs                       // index: person seq
	streamKnows                       // index: pass<<32 | block
	streamSortKey                     // index: pass<<32 | seq
	streamKnowsDate                   // index: pair
	streamParams                      // index: parameter file
	streamInsert                      // index: insert person number
	streamPlan                        // index: person seq (forum counts)
	streamActivity                    // index: person seq (owned forums)
)

// mix64 is the splitmix64 finalizer: a bijective avalanche of x.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// hash3 mixes a seed, a stream and an index into 64 well-spread bits.
func hash3(seed int64, stream, index uint64) uint64 {
	return mix64(mix64(mix64(uint64(seed))^stream) ^ index)
}

// rng is a reusable, reseedable random source; one per goroutine.
type rng struct {
	pcg *rand.PCG
	*rand.Rand
}

func newRNG() *rng {
	p := rand.NewPCG(0, 0)
	return &rng{pcg: p, Rand: rand.New(p)}
}

// reset reseeds r for (seed, stream, index) without allocating.
func (r *rng) reset(seed int64, stream, index uint64) {
	h := hash3(seed, stream, index)
	r.pcg.Seed(h, mix64(h^stream))
}
