package nebula

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"time"

	"github.com/apache/thrift/lib/go/thrift"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/driver/nebula/graphsvc"
)

// The client-cost benchmarks' instruments: a canned graphd that answers
// every call with a reply encoded once (by Apache's generated code, from
// the stand-in's real answer), so that what is measured is the client,
// not the stand-in's query engine; a net.Conn in memory that answers
// through it (the client's whole path without the kernel); and the
// driver's call path before its own codec, for comparison.

// cannedGraphd answers calls with result structs encoded once: success
// for verifyClientVersion, session 1 for authenticate, answer for every
// execute.
type cannedGraphd struct {
	bodies map[string][]byte // method name -> encoded result struct
}

func newCannedGraphd(answer *graphsvc.ExecutionResponse) (*cannedGraphd, error) {
	id := int64(1)
	results := map[string]thrift.TStruct{
		"verifyClientVersion": &graphsvc.GraphServiceVerifyClientVersionResult{Success: &graphsvc.VerifyClientVersionResp{}},
		"authenticate":        &graphsvc.GraphServiceAuthenticateResult{Success: &graphsvc.AuthResponse{SessionID: &id}},
		"execute":             &graphsvc.GraphServiceExecuteResult{Success: answer},
	}
	g := &cannedGraphd{bodies: map[string][]byte{}}
	ctx := context.Background()
	for name, r := range results {
		buf := thrift.NewTMemoryBuffer()
		p := thrift.NewTCompactProtocolConf(buf, &thrift.TConfiguration{})
		if err := r.Write(ctx, p); err != nil {
			return nil, err
		}
		p.Flush(ctx)
		g.bodies[name] = append([]byte(nil), buf.Bytes()...)
	}
	return g, nil
}

// answer appends to dst the frame answering the request frame req
// (length prefix included); false for a oneway call (signout).
func (g *cannedGraphd) answer(dst, req []byte) ([]byte, bool, error) {
	if len(req) < 14 || binary.BigEndian.Uint16(req[4:]) != headerMagic {
		return dst, false, errors.New("canned graphd: not a THeader frame")
	}
	msg := req[14+4*int(binary.BigEndian.Uint16(req[12:])):]
	d := decoder{b: msg, p: 2}
	if len(msg) < 2 || msg[0] != compactProtocolID {
		return dst, false, errNotCompact
	}
	if msg[1]>>5 != msgCall {
		return dst, false, nil
	}
	seq, err := d.uvarint()
	if err != nil {
		return dst, false, err
	}
	name, err := d.binary()
	if err != nil {
		return dst, false, err
	}
	body, ok := g.bodies[string(name)]
	if !ok {
		return dst, false, errors.New("canned graphd: unexpected call " + string(name))
	}
	start := len(dst)
	dst = append(dst, 0, 0, 0, 0, 0x0f, 0xff, 0, 0)
	dst = append(dst, req[8:12]...) // the frame's sequence id
	dst = append(dst, 0, 1, protocolCompact, 0, 0, 0)
	dst = append(dst, compactProtocolID, msgReply<<5|compactVersion)
	dst = binary.AppendUvarint(dst, seq)
	dst = binary.AppendUvarint(dst, uint64(len(name)))
	dst = append(dst, name...)
	dst = append(dst, body...)
	binary.BigEndian.PutUint32(dst[start:], uint32(len(dst)-start-4))
	return dst, true, nil
}

// ServeCanned answers every connection ln accepts with a canned graphd
// whose execute answer is answer, until ln closes.
func ServeCanned(ln net.Listener, answer *graphsvc.ExecutionResponse) error {
	g, err := newCannedGraphd(answer)
	if err != nil {
		return err
	}
	for {
		c, err := ln.Accept()
		if err != nil {
			return nil
		}
		go func() {
			defer c.Close()
			br := bufio.NewReaderSize(c, 64<<10)
			var req, out []byte
			for {
				var ok bool
				if req, err = readFrame(br, req[:0]); err != nil {
					return
				}
				if out, ok, err = g.answer(out[:0], req); err != nil {
					return
				}
				if ok {
					if _, err := c.Write(out); err != nil {
						return
					}
				}
			}
		}()
	}
}

// readFrame appends the next length-prefixed frame (prefix included).
func readFrame(r io.Reader, dst []byte) ([]byte, error) {
	dst = append(dst, 0, 0, 0, 0)
	if _, err := io.ReadFull(r, dst[len(dst)-4:]); err != nil {
		return dst, err
	}
	n := int(binary.BigEndian.Uint32(dst[len(dst)-4:]))
	if n > maxFrame {
		return dst, errors.New("frame too large")
	}
	dst = append(dst, make([]byte, n)...)
	_, err := io.ReadFull(r, dst[len(dst)-n:])
	return dst, err
}

// ExecuteFrame is the frame the driver sends for stmt (sequence id seq,
// session id 1).
func ExecuteFrame(seq int32, stmt string) []byte {
	b := appendExecuteCall(make([]byte, headerLen), seq, 1, stmt)
	h := b[:headerLen]
	binary.BigEndian.PutUint32(h[0:], uint32(len(b)-4))
	binary.BigEndian.PutUint16(h[4:], headerMagic)
	binary.BigEndian.PutUint32(h[8:], uint32(seq))
	binary.BigEndian.PutUint16(h[12:], 1)
	h[14] = protocolCompact
	return b
}

// memConn is a net.Conn in memory whose peer is a canned graphd: each
// Write of a request frame makes the answer frame readable.
type memConn struct {
	g   *cannedGraphd
	in  []byte
	rp  int
	err error
}

func (c *memConn) Write(p []byte) (int, error) {
	var ok bool
	c.in, ok, c.err = c.g.answer(c.in[:0], p)
	if !ok {
		c.in = c.in[:0]
	}
	c.rp = 0
	return len(p), c.err
}

func (c *memConn) Read(p []byte) (int, error) {
	if c.rp >= len(c.in) {
		return 0, io.EOF
	}
	n := copy(p, c.in[c.rp:])
	c.rp += n
	return n, nil
}

func (c *memConn) Close() error                     { return nil }
func (c *memConn) LocalAddr() net.Addr              { return nil }
func (c *memConn) RemoteAddr() net.Addr             { return nil }
func (c *memConn) SetDeadline(time.Time) error      { return nil }
func (c *memConn) SetReadDeadline(time.Time) error  { return nil }
func (c *memConn) SetWriteDeadline(time.Time) error { return nil }

// DoApache is the driver's call path before its own codec (as of commit
// 1e4b2b4): a context with the timeout per call, the session's bound
// (context.AfterFunc), the generated client (Apache's compact protocol)
// and its decoded structs. Kept for the comparison benchmarks only.
func (c *Conn) DoApache(ctx context.Context, op *driver.Op) driver.Result {
	octx, cancel := driver.OpContext(ctx, c.d.timeout)
	r, err := c.s.Execute(octx, op.Query)
	cancel()
	if err != nil {
		return driver.Result{Err: driver.OpError(ctx, octx, c.d.timeout, err)}
	}
	res := driver.Result{ServerLatency: time.Duration(r.LatencyInUs) * time.Microsecond, HasLatency: true}
	if r.ErrorCode != graphsvc.ErrorCode_SUCCEEDED {
		res.Err = &ServerError{Code: r.ErrorCode, Msg: string(r.ErrorMsg)}
	}
	if r.Data != nil {
		res.Rows = int64(len(r.Data.Rows))
	}
	return res
}

// MemConn is a driver connection (session id 1) whose socket is a
// net.Conn in memory answered by a canned graphd.
func MemConn(answer *graphsvc.ExecutionResponse, timeout time.Duration) (*Conn, error) {
	g, err := newCannedGraphd(answer)
	if err != nil {
		return nil, err
	}
	mc := &memConn{g: g}
	s := &Session{addr: "memory", nc: mc, framer: newHeaderFramer(mc), id: 1}
	p := thrift.NewTCompactProtocolConf(s.framer, &thrift.TConfiguration{})
	s.client = graphsvc.NewGraphServiceClient(thrift.NewTStandardClient(p, p))
	return &Conn{d: New(&Config{Addrs: []string{"memory"}}, timeout), s: s}, nil
}
