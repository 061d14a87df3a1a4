package kafka

import (
	"encoding/binary"
	"math/rand/v2"
	"strings"
)

// HeaderKey names the record header stampede adds to every message: the
// wall-clock send time (Unix ns), the producing VU and its sequence number,
// 20 bytes big-endian. Consumers use it for end-to-end latency.
const HeaderKey = "stampede"

const headerLen = 20

// stamp is the decoded HeaderKey header.
type stamp struct {
	SentNs int64
	VU     uint32
	Seq    uint64
}

func putStamp(b []byte, s stamp) {
	binary.BigEndian.PutUint64(b[0:8], uint64(s.SentNs))
	binary.BigEndian.PutUint32(b[8:12], s.VU)
	binary.BigEndian.PutUint64(b[12:20], s.Seq)
}

func parseStamp(b []byte) (stamp, bool) {
	if len(b) != headerLen {
		return stamp{}, false
	}
	return stamp{
		SentNs: int64(binary.BigEndian.Uint64(b[0:8])),
		VU:     binary.BigEndian.Uint32(b[8:12]),
		Seq:    binary.BigEndian.Uint64(b[12:20]),
	}, true
}

// Sizes of the shared payload pool. When something compresses the batches
// (the producer's codec, or compression.type on the topic) the pool is
// codecPoolBytes, large enough that two messages of one batch rarely share
// bytes, so that "random" stays incompressible within any codec's window.
// Otherwise nothing looks across messages, and the pool is plainPoolBytes,
// small enough to stay in a core's cache: copying a value into the
// client's batch then reads cached bytes, where windows of 16 MiB cost a
// memory read per message (BenchmarkPayloadCopy: 4× to 8× slower per
// 2 KB copy on a shared 2-core VM, depending on its load).
const (
	codecPoolBytes = 16 << 20
	plainPoolBytes = 256 << 10
)

// poolBytes is the pool size for a run that compresses (true) or not.
func poolBytes(compressed bool) int {
	if compressed {
		return codecPoolBytes
	}
	return plainPoolBytes
}

// payloads hands out message values: read-only windows into one pool, so
// producing costs no copy and no generation per message.
type payloads struct {
	pool []byte
	size int
	span uint64 // number of start offsets (multiples of 8)
}

// compressed tells whether a run's batches are compressed: by the
// producer (codec, --compression-type) or by the broker (compression.type
// of the first load topic as read back, anything but producer or
// uncompressed). A topic whose configs could not be read counts as
// compressed; a config the broker does not report (kfake) as not.
func compressed(codec string, rb *topicsReadBack) bool {
	if !strings.EqualFold(codec, "none") && codec != "" {
		return true
	}
	if rb == nil || rb.cfgErr != "" {
		return true
	}
	c, ok := rb.configs["compression.type"]
	if !ok || c.Value == nil {
		return false
	}
	v := strings.ToLower(*c.Value)
	return v != "producer" && v != "uncompressed" && v != "none"
}

// newPayloads builds a pool of poolSize bytes (plus one value) for kind
// "random" or "compressible" from seed.
func newPayloads(kind string, size, poolSize int, seed int64) *payloads {
	n := poolSize + size
	pool := make([]byte, n)
	r := rand.New(rand.NewPCG(uint64(seed), 0x5eed))
	if kind == "compressible" {
		fillText(pool, r)
	} else {
		for i := 0; i+8 <= n; i += 8 {
			binary.LittleEndian.PutUint64(pool[i:], r.Uint64())
		}
	}
	return &payloads{pool: pool, size: size, span: uint64((n-size)/8 + 1)}
}

// words are the vocabulary of compressible payloads: text-like data that
// general-purpose codecs shrink about 3-4×.
var words = []string{
	"order", "customer", "status", "shipped", "pending", "amount", "currency", "EUR", "USD",
	"item", "quantity", "price", "warehouse", "region", "north", "south", "east", "west",
	"created", "updated", "user", "session", "event", "click", "view", "cart", "checkout",
	"payment", "card", "accepted", "declined", "retry", "latency", "service", "node", "topic",
	"partition", "offset", "producer", "consumer", "message", "value", "key", "header",
}

func fillText(b []byte, r *rand.Rand) {
	i := 0
	for i < len(b) {
		w := words[r.IntN(len(words))]
		i += copy(b[i:], w)
		if i < len(b) {
			if r.IntN(8) == 0 {
				i += copy(b[i:], ": ")
				i += copy(b[i:], []byte{byte('0' + r.IntN(10)), byte('0' + r.IntN(10)), byte('0' + r.IntN(10))})
				if i < len(b) {
					b[i] = '\n'
					i++
				}
			} else {
				b[i] = ' '
				i++
			}
		}
	}
}

// value returns a message value chosen by the random state x (advanced).
func (p *payloads) value(x *uint64) []byte {
	if p.size == 0 {
		return nil
	}
	// xorshift64*: cheap and good enough to pick windows.
	*x ^= *x >> 12
	*x ^= *x << 25
	*x ^= *x >> 27
	off := ((*x * 2685821657736338717) % p.span) * 8
	return p.pool[off : off+uint64(p.size) : off+uint64(p.size)]
}
