package nebula

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"

	"github.com/apache/thrift/lib/go/thrift"
)

// headerFramer is THeader framing with the compact protocol inside, done
// with reused buffers: Apache Thrift's THeaderTransport builds a new
// protocol and buffers for every frame, which costs ~90 allocations per
// call. The bytes on the wire are the same (TestExecuteWireBytes pins
// them; the stand-in's server side is Apache's THeader). It implements
// thrift.TTransport under one thrift.TCompactProtocol.
//
// A frame: uint32 length, uint16 magic 0x0FFF, uint16 flags, uint32
// sequence id, uint16 header length in 4-byte words, then the header
// (varint protocol id, varint transform count, info headers, zero
// padding), then the message.
type headerFramer struct {
	c  net.Conn
	br *bufio.Reader
	w  []byte // frame being written; the first headerLen bytes reserved
	r  []byte // frame being read: the message part
	rp int    // read position in r
}

const (
	headerMagic = 0x0FFF
	// headerLen is the fixed header stampede writes: length, magic, flags,
	// sequence id, header words (1), protocol id 2 (compact), no
	// transforms, two bytes of padding.
	headerLen           = 4 + 2 + 2 + 4 + 2 + 4
	protocolCompact     = 2
	maxFrame        int = 256 << 20
)

var _ thrift.TTransport = (*headerFramer)(nil)

func newHeaderFramer(c net.Conn) *headerFramer {
	f := &headerFramer{c: c, br: bufio.NewReaderSize(c, 64<<10), w: make([]byte, headerLen, 4<<10)}
	return f
}

func (f *headerFramer) Write(p []byte) (int, error) { f.w = append(f.w, p...); return len(p), nil }

// WriteByte makes single bytes cheap for the compact protocol.
func (f *headerFramer) WriteByte(b byte) error { f.w = append(f.w, b); return nil }

// WriteString avoids a []byte conversion.
func (f *headerFramer) WriteString(s string) (int, error) {
	f.w = append(f.w, s...)
	return len(s), nil
}

// Flush frames the message written since the last Flush and sends it in
// one write.
func (f *headerFramer) Flush(context.Context) error {
	msg := f.w[headerLen:]
	seq, err := compactSeqID(msg)
	if err != nil {
		return err
	}
	h := f.w[:headerLen]
	binary.BigEndian.PutUint32(h[0:], uint32(len(f.w)-4))
	binary.BigEndian.PutUint16(h[4:], headerMagic)
	binary.BigEndian.PutUint16(h[6:], 0)
	binary.BigEndian.PutUint32(h[8:], uint32(seq))
	binary.BigEndian.PutUint16(h[12:], 1)
	h[14], h[15], h[16], h[17] = protocolCompact, 0, 0, 0
	_, err = f.c.Write(f.w)
	f.w = f.w[:headerLen]
	return err
}

// compactSeqID reads the sequence id of a compact message: protocol id
// 0x82, version and type, then the id as a varint.
func compactSeqID(msg []byte) (int32, error) {
	if len(msg) < 3 || msg[0] != 0x82 {
		return 0, errors.New("nebula: not a compact message")
	}
	v, n := binary.Uvarint(msg[2:])
	if n <= 0 {
		return 0, errors.New("nebula: bad sequence id")
	}
	return int32(v), nil
}

// next reads the next frame and keeps its message part.
func (f *headerFramer) next() error {
	// Peek, not a local array: one passed to io.ReadFull escapes, an
	// allocation per call.
	n4, err := f.br.Peek(4)
	if err != nil {
		if err == io.EOF && len(n4) > 0 {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	n := int(binary.BigEndian.Uint32(n4))
	f.br.Discard(4)
	if n < 10 || n > maxFrame {
		return fmt.Errorf("nebula: bad frame length %d", n)
	}
	if cap(f.r) < n {
		f.r = make([]byte, n)
	}
	fr := f.r[:n]
	if _, err := io.ReadFull(f.br, fr); err != nil {
		return err
	}
	if binary.BigEndian.Uint16(fr[0:]) != headerMagic {
		return errors.New("nebula: answer is not a THeader frame")
	}
	hl := 10 + 4*int(binary.BigEndian.Uint16(fr[8:]))
	if hl > n || hl < 12 {
		return errors.New("nebula: bad THeader length")
	}
	if fr[10] != protocolCompact || fr[11] != 0 {
		return fmt.Errorf("nebula: answer uses protocol %d with %d transforms; want compact, none", fr[10], fr[11])
	}
	f.r, f.rp = fr, hl
	return nil
}

func (f *headerFramer) Read(p []byte) (int, error) {
	if f.rp >= len(f.r) {
		if err := f.next(); err != nil {
			return 0, err
		}
	}
	n := copy(p, f.r[f.rp:])
	f.rp += n
	return n, nil
}

// ReadByte makes single bytes cheap for the compact protocol.
func (f *headerFramer) ReadByte() (byte, error) {
	if f.rp >= len(f.r) {
		if err := f.next(); err != nil {
			return 0, err
		}
	}
	b := f.r[f.rp]
	f.rp++
	return b, nil
}

func (f *headerFramer) Close() error { return f.c.Close() }
func (f *headerFramer) Open() error  { return nil }
func (f *headerFramer) IsOpen() bool { return true }
func (f *headerFramer) RemainingBytes() uint64 {
	if f.rp < len(f.r) {
		return uint64(len(f.r) - f.rp)
	}
	return ^uint64(0)
}
