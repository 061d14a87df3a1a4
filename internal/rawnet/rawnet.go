// Package rawnet gives a TCP connection Read and Write that are raw system
// calls inside Go's poller.
//
// net.Conn's Read and Write enter the scheduler's syscall state around
// every read(2) and write(2), as for a call that may block. On a
// non-blocking socket neither blocks, but a P seen in that state keeps the
// runtime's monitor thread waking every 20 µs or so to hand the P to
// another thread: on loopback HTTP that monitor alone took 9% of the
// client's CPU (perf, 50 connections). A raw call holds the P for the few
// microseconds the kernel takes; EAGAIN parks the goroutine in the poller
// exactly as net.Conn does, and deadlines and Close interrupt the wait the
// same way. The gain is where a P stays busy: BenchmarkRoundTrips (50
// connections, both ends in the process) costs about 6% less CPU per round
// trip with one P (-cpu 1) and the same with two (-cpu 2, on a 2-core
// machine): the HTTP generator measured against wrk runs on one core.
package rawnet

import (
	"context"
	"io"
	"net"
	"os"
	"sync"
	"syscall"
	"unsafe"
)

// Conn is a TCP connection whose Read and Write are raw system calls;
// every other method is the TCP connection's. Like net.Conn it may be read
// and written from different goroutines at once.
type Conn struct {
	*net.TCPConn
	rd, wr direction
}

// direction is one direction's call: the callback f and the RawConn
// method that runs it (run) are made once, and f reads its arguments from
// here, so that a call allocates no closure.
type direction struct {
	mu    sync.Mutex // one Read (or Write) at a time uses the fields
	buf   []byte
	n     int
	errno syscall.Errno
	f     func(fd uintptr) bool
	run   func(func(fd uintptr) bool) error
}

// do runs one call on p: the bytes moved, the errno the call ended with
// and the poller's error (a deadline, a closed connection).
func (d *direction) do(p []byte) (int, syscall.Errno, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.buf, d.n, d.errno = p, 0, 0
	err := d.run(d.f)
	d.buf = nil
	return d.n, d.errno, err
}

// Wrap returns nc with raw I/O when it is a TCP connection, else nc.
func Wrap(nc net.Conn) net.Conn {
	tc, ok := nc.(*net.TCPConn)
	if !ok {
		return nc
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		return nc
	}
	c := &Conn{TCPConn: tc}
	c.rd.f, c.rd.run = c.rd.read, rc.Read
	c.wr.f, c.wr.run = c.wr.write, rc.Write
	return c
}

func (d *direction) read(fd uintptr) bool {
	for {
		n, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(unsafe.SliceData(d.buf))), uintptr(len(d.buf)))
		switch e {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false // wait in the poller, then call again
		}
		d.n, d.errno = int(n), e
		return true
	}
}

func (d *direction) write(fd uintptr) bool {
	for len(d.buf) > 0 {
		n, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(unsafe.SliceData(d.buf))), uintptr(len(d.buf)))
		switch e {
		case 0:
			d.n += int(n)
			d.buf = d.buf[n:]
			continue
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		}
		d.errno = e
		return true
	}
	return true
}

// Read reads into p; a closed peer is io.EOF.
func (c *Conn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n, errno, err := c.rd.do(p)
	switch {
	case err != nil:
		return 0, c.opError("read", err)
	case errno != 0:
		return 0, c.opError("read", os.NewSyscallError("read", errno))
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// Write writes all of p, or fails.
func (c *Conn) Write(p []byte) (int, error) {
	n, errno, err := c.wr.do(p)
	switch {
	case err != nil:
		return n, c.opError("write", err)
	case errno != 0:
		return n, c.opError("write", os.NewSyscallError("write", errno))
	}
	return n, nil
}

// opError wraps err as net.Conn's own methods do.
func (c *Conn) opError(op string, err error) error {
	return &net.OpError{Op: op, Net: "tcp", Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: err}
}

// Dialer dials connections with raw I/O: a net.Dialer whose connections
// are wrapped. Its Dial is nats.go's CustomDialer, its DialContext
// franz-go's kgo.Dialer.
type Dialer struct {
	net.Dialer
}

// DialContext dials address on network and wraps the connection.
func (d *Dialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	nc, err := d.Dialer.DialContext(ctx, network, address)
	if err != nil {
		return nil, err
	}
	return Wrap(nc), nil
}

// Dial is DialContext without a context.
func (d *Dialer) Dial(network, address string) (net.Conn, error) {
	return d.DialContext(context.Background(), network, address)
}
