package nats

import (
	"encoding/binary"
	"math/rand/v2"
)

// stampLen is the size of the stamp written at the start of every payload
// of at least that size: send time (Unix ns), VU and sequence number, so
// that consumers measure end-to-end latency and match deliveries.
const stampLen = 20

type stamp struct {
	SentNs int64
	VU     uint32
	Seq    uint64
}

func putStamp(b []byte, s stamp) {
	if len(b) < stampLen {
		return
	}
	binary.LittleEndian.PutUint64(b[0:], uint64(s.SentNs))
	binary.LittleEndian.PutUint32(b[8:], s.VU)
	binary.LittleEndian.PutUint64(b[12:], s.Seq)
}

func parseStamp(b []byte) (stamp, bool) {
	if len(b) < stampLen {
		return stamp{}, false
	}
	return stamp{
		SentNs: int64(binary.LittleEndian.Uint64(b[0:])),
		VU:     binary.LittleEndian.Uint32(b[8:]),
		Seq:    binary.LittleEndian.Uint64(b[12:]),
	}, true
}

// newPayload is a VU's message buffer: incompressible random bytes from a
// seed, the stamp overwritten before every publish (NATS copies the
// payload into its write buffer during the publish call).
func newPayload(size int, seed uint64) []byte {
	b := make([]byte, size)
	r := rand.New(rand.NewPCG(seed, seed^0x9E3779B97F4A7C15))
	for i := 0; i+8 <= len(b); i += 8 {
		binary.LittleEndian.PutUint64(b[i:], r.Uint64())
	}
	for i := len(b) &^ 7; i < len(b); i++ {
		b[i] = byte(r.Uint32())
	}
	return b
}
