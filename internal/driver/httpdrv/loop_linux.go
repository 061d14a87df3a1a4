package httpdrv

import (
	"errors"
	"fmt"
	"net"
	"runtime"
	"syscall"
	"time"
	"unsafe"

	"github.com/stampede-bench/stampede/internal/driver"
)

// Loop runs plain-HTTP connections of one Driver as an event loop: one
// goroutine, one edge-triggered epoll set that it waits on itself, non-blocking sockets read and
// written with raw system calls, one request at a time per connection
// (wrk's model). A connection's response is parsed as it arrives, by the
// same parser as Conn's, and its request is timed in the same phases. Its
// methods are called from one goroutine.
type Loop struct {
	d      *Driver
	ep     int
	err    error
	events []syscall.EpollEvent
	buf    []byte // every connection's reads, parsed at once
	conns  []*LoopConn
	// deadlines are the timeouts of the requests in flight by
	// connection (LoopConn.slot; 0: none), apart from the connections so
	// that looking for requests past them reads one small array.
	deadlines []time.Duration
	// done holds the requests that ended during one Wait, reported once
	// its events are all handled (a new request on a connection must not
	// see the events of its last one).
	done []endedReq
	// base is when the loop was made; the loop's times are offsets of it
	// (now). last is the latest time read, polled when the last wait
	// returned events, scanned when the deadlines were last checked,
	// yielded when the loop last let the run's other goroutines have its
	// processor.
	base                           time.Time
	last, polled, scanned, yielded time.Duration
	// tm holds the timings of the connection last asked for them
	// (LoopConn.LastTimings).
	tm Timings
	// family and sa are the target's address (address).
	family int
	sa     syscall.Sockaddr
}

type endedReq struct {
	lc  *LoopConn
	res driver.Result
}

// LoopConn is a connection of a Loop. Owner is the caller's (the id of
// the VU it belongs to). Its state is small and its times are offsets of
// the loop's clock (8 bytes, where a time.Time takes 24): with thousands
// of connections, each one's state is out of the cache by its next
// request, and every cache line it spans costs a miss then.
type LoopConn struct {
	Owner int
	l     *Loop
	slot  int32
	fd    int32 // -1: not connected
	// inFlight tells a request in progress, dialing a connect in
	// progress, started that the response's first byte arrived.
	inFlight, dialing, started bool
	p                          parser
	pending                    []byte // the request's bytes not written yet
	// The request's times: its start, when its last byte was written
	// (sentAt), its response's first byte, the end of the last request
	// and the start of its dial.
	start, sentAt, firstByte, end, dialStart time.Duration
	// sending is the time spent writing the request, connecting its dial
	// (0: it had none).
	sending, connecting time.Duration
	sent, received      int64
	status              int    // of the last complete response
	wbuf                []byte // the request when rendered per request
}

// deadlineScan is how often a loop looks for requests past their timeout
// (a request times out between --timeout and --timeout + deadlineScan).
const deadlineScan = 10 * time.Millisecond

// NewLoop returns a loop for the driver's connections, or nil for HTTPS
// (which goes through net/http).
//
// The loop waits for its sockets in epoll_pwait itself, as wrk does, with
// a raw system call: the goroutine keeps its processor while the thread
// sleeps in the kernel for at most maxSleep, and lets the run's other
// goroutines (the aggregator, outputs, timers, signals) have it at least
// every yieldEvery. A wait is one system call, where parking the goroutine
// in Go's poller cost three (the loop's set, the poller's, the loop's
// again) and a timer update.
func (d *Driver) NewLoop() (*Loop, error) {
	if d.tls {
		return nil, nil
	}
	ep, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("epoll_create1: %w", err)
	}
	return &Loop{d: d, ep: ep, events: make([]syscall.EpollEvent, 256), buf: make([]byte, LargeReadBuffer), base: time.Now()}, nil
}

// now reads the clock: the monotonic clock alone, once, where time.Now
// reads the wall clock as well (a request's phases take three readings).
// It is an offset of the loop's start (wall).
func (l *Loop) now() time.Duration {
	l.last = time.Since(l.base)
	return l.last
}

// wall is the time of offset d of the loop's clock: its start plus d, as
// the run clock's (metric.Clock.Wall).
func (l *Loop) wall(d time.Duration) time.Time { return l.base.Add(d) }

// maxSleep bounds one sleep of the loop's thread in epoll_pwait, and
// yieldEvery how long the loop may hold its processor: below the 10 ms
// after which the runtime preempts a goroutine with a signal.
const (
	maxSleep   = 2 * time.Millisecond
	yieldEvery = 2 * time.Millisecond
)

// wait takes the ready events, waiting for them up to d (at most
// maxSleep): their count, or -1 on an error (in l.err).
func (l *Loop) wait(d time.Duration) int {
	ms := uintptr(min(d, maxSleep) / time.Millisecond)
	n, _, errno := syscall.RawSyscall6(syscall.SYS_EPOLL_PWAIT, uintptr(l.ep), uintptr(unsafe.Pointer(&l.events[0])), uintptr(len(l.events)), ms, 0, 0)
	switch errno {
	case 0:
		return int(n)
	case syscall.EINTR:
		return 0 // a signal (the runtime's preemption among them): the caller yields
	}
	l.err = fmt.Errorf("epoll_pwait: %w", errno)
	return -1
}

// NewConn returns a new connection of the loop, not connected yet: its
// first request dials.
func (l *Loop) NewConn() *LoopConn {
	lc := &LoopConn{l: l, slot: int32(len(l.conns)), fd: -1}
	l.conns = append(l.conns, lc)
	l.deadlines = append(l.deadlines, 0)
	return lc
}

// register adds fd, lc's new socket, to the loop: edge-triggered for
// reading and writing, once (as Go's poller does), so that no request
// changes the set.
func (l *Loop) register(lc *LoopConn, fd int) error {
	lc.fd = int32(fd)
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN | syscall.EPOLLOUT | syscall.EPOLLRDHUP | epollET, Fd: lc.slot}
	if err := syscall.EpollCtl(l.ep, syscall.EPOLL_CTL_ADD, fd, &ev); err != nil {
		return fmt.Errorf("epoll_ctl: %w", err)
	}
	return nil
}

// epollET is EPOLLET as the event mask's type (syscall's constant is
// negative).
const epollET = 1 << 31

// Close releases the loop; its connections stay open until their Close.
func (l *Loop) Close() error { return syscall.Close(l.ep) }

// Start begins op on lc: it dials first when lc is not connected, then
// writes the request. done tells that the request already ended (it could
// not be sent): res is its result. Otherwise Wait reports it.
func (lc *LoopConn) Start(op *driver.Op) (done bool, res driver.Result) {
	t0 := lc.l.now()
	lc.start, lc.sending, lc.connecting, lc.sent, lc.status = t0, 0, 0, 0, 0
	ext, _ := op.Ext.(*Ext)
	wire, err := lc.l.d.render(&lc.wbuf, ext, op)
	if err != nil {
		lc.end = t0
		return true, driver.Result{Err: err}
	}
	lc.p.reset(captureOf(op))
	lc.started, lc.received, lc.inFlight = false, 0, true
	if timeout := requestTimeout(lc.l.d.timeout, op); timeout > 0 {
		lc.l.deadlines[lc.slot] = t0 + timeout
	} else {
		lc.l.deadlines[lc.slot] = 0
	}
	lc.pending = wire
	if lc.fd < 0 {
		if err := lc.dial(t0); err != nil {
			return true, lc.fail(err)
		}
		if lc.dialing {
			return false, driver.Result{}
		}
	}
	if res, ok := lc.send(t0); !ok {
		return true, res
	}
	return false, driver.Result{}
}

// dial starts a non-blocking connect.
func (lc *LoopConn) dial(t0 time.Duration) error {
	family, sa, err := lc.l.address()
	if err != nil {
		return fmt.Errorf("connect %s: %w", lc.l.d.addr, rootCause(err))
	}
	fd, err := syscall.Socket(family, syscall.SOCK_STREAM|syscall.SOCK_NONBLOCK|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("connect %s: %w", lc.l.d.addr, err)
	}
	syscall.SetsockoptInt(fd, syscall.IPPROTO_TCP, syscall.TCP_NODELAY, 1) // as Go's net package
	if err := lc.l.register(lc, fd); err != nil {
		syscall.Close(fd)
		return err
	}
	lc.dialStart = t0
	switch err := syscall.Connect(fd, sa); {
	case err == nil:
		lc.connected(lc.l.now())
	case errors.Is(err, syscall.EINPROGRESS):
		lc.dialing = true
	default:
		lc.closeFD()
		return fmt.Errorf("connect %s: %w", lc.l.d.addr, err)
	}
	return nil
}

// address is the target's socket address, resolved at the loop's first
// dial and kept: the loop must not wait for a DNS answer on every new
// connection (a server that closes them makes one per request).
func (l *Loop) address() (family int, sa syscall.Sockaddr, err error) {
	if l.sa == nil {
		addr, err := net.ResolveTCPAddr("tcp", l.d.addr)
		if err != nil {
			return 0, nil, err
		}
		if ip4 := addr.IP.To4(); ip4 != nil {
			l.family, l.sa = syscall.AF_INET, &syscall.SockaddrInet4{Port: addr.Port, Addr: [4]byte(ip4)}
		} else {
			l.family, l.sa = syscall.AF_INET6, &syscall.SockaddrInet6{Port: addr.Port, Addr: [16]byte(addr.IP.To16())}
		}
	}
	return l.family, l.sa, nil
}

// connected ends a dial at now: its time is the request's connecting and
// blocked time, and sending starts now.
func (lc *LoopConn) connected(now time.Duration) {
	lc.dialing = false
	lc.connecting = now - lc.dialStart
}

// send writes what is pending of the request, from t0 on; ok false when
// it failed (res is the result).
func (lc *LoopConn) send(t0 time.Duration) (res driver.Result, ok bool) {
	for len(lc.pending) > 0 {
		n, errno := rawIO(syscall.SYS_WRITE, int(lc.fd), lc.pending)
		if errno == syscall.EAGAIN {
			return driver.Result{}, true // the socket's buffer is full: its EPOLLOUT edge resumes
		}
		if errno == syscall.EINTR {
			continue
		}
		if errno != 0 {
			return lc.fail(&net.OpError{Op: "write", Net: "tcp", Err: errno}), false
		}
		lc.sent += int64(n)
		lc.pending = lc.pending[n:]
	}
	now := lc.l.now()
	lc.sending += now - t0
	lc.sentAt = now
	return driver.Result{}, true
}

// fail closes lc's socket and returns the result of err, as Conn.Do's.
func (lc *LoopConn) fail(err error) driver.Result {
	lc.closeFD()
	lc.inFlight, lc.l.deadlines[lc.slot] = false, 0
	lc.end = lc.l.now()
	return failed(err)
}

func (lc *LoopConn) closeFD() {
	if lc.fd >= 0 {
		syscall.Close(int(lc.fd)) // leaves the epoll set with it
		lc.fd, lc.dialing = -1, false
	}
}

// Close closes lc's socket.
func (lc *LoopConn) Close() error {
	lc.closeFD()
	lc.inFlight, lc.l.deadlines[lc.slot] = false, 0
	return nil
}

// End is when lc's last request ended (its response complete, or its
// failure), read as it ended rather than when it is recorded.
func (lc *LoopConn) End() time.Time { return lc.l.wall(lc.end) }

// LastTimings implements Timer: the phases of lc's last request, valid
// until the next LastTimings of a connection of the same loop (the loop
// keeps one Timings for all: its connections' requests are recorded one
// at a time, on the loop's goroutine).
func (lc *LoopConn) LastTimings() *Timings {
	t := &lc.l.tm
	*t = Timings{
		Proto: "HTTP/1.1", Start: lc.l.wall(lc.start),
		Blocked: lc.connecting, Connecting: lc.connecting, Sending: lc.sending,
		Sent: lc.sent, Received: lc.received, Status: lc.status,
	}
	if lc.started {
		t.FirstByte = lc.l.wall(lc.firstByte)
		t.Waiting = lc.firstByte - lc.sentAt
	}
	return t
}

// Wait waits up to d for the connections' I/O and calls ended for each
// request that ended, with its result (its timings in LastTimings), once
// the events of the wait are all handled.
func (l *Loop) Wait(d time.Duration, ended func(lc *LoopConn, res driver.Result)) error {
	n := l.wait(d)
	if n < 0 {
		return l.err
	}
	if n > 0 {
		// One reading for every response whose first bytes this wait
		// reports: they arrived before it returned, so it is nearer
		// their arrival than a reading per response made after the
		// responses before it were handled.
		l.polled = l.now()
	}
	l.done = l.done[:0]
	for _, e := range l.events[:n] {
		lc := l.conns[e.Fd]
		if !lc.inFlight {
			if e.Events&(syscall.EPOLLIN|syscall.EPOLLRDHUP|syscall.EPOLLHUP|syscall.EPOLLERR) == 0 {
				continue // room to write, nothing to write
			}
			// An idle connection became readable: the server closed it
			// (or sent what nobody asked for). It is dialled again on
			// its next request.
			lc.closeFD()
			continue
		}
		if res, done := lc.ready(e.Events); done {
			l.done = append(l.done, endedReq{lc, res})
		}
	}
	now := l.last // read as the last event was handled
	if n == 0 {
		now = l.now()
	}
	if now-l.scanned >= deadlineScan {
		l.scanned = now
		for slot, d := range l.deadlines {
			if d != 0 && now > d {
				lc := l.conns[slot]
				l.done = append(l.done, endedReq{lc, lc.fail(errTimeout)})
			}
		}
	}
	for _, e := range l.done {
		ended(e.lc, e.res)
	}
	if n == 0 || now-l.yielded >= yieldEvery {
		l.yielded = now
		runtime.Gosched()
	}
	return nil
}

// errTimeout is a request past its timeout.
var errTimeout = &net.OpError{Op: "read", Net: "tcp", Err: timeoutError{}}

type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

// ready handles events on lc: the end of a dial, room to write, or bytes
// of the response.
func (lc *LoopConn) ready(events uint32) (driver.Result, bool) {
	if lc.dialing {
		errno, err := syscall.GetsockoptInt(int(lc.fd), syscall.SOL_SOCKET, syscall.SO_ERROR)
		if err == nil && errno != 0 {
			err = syscall.Errno(errno)
		}
		if err != nil {
			return lc.fail(fmt.Errorf("connect %s: %w", lc.l.d.addr, err)), true
		}
		lc.connected(lc.l.now())
	}
	if len(lc.pending) > 0 && events&(syscall.EPOLLOUT|syscall.EPOLLERR|syscall.EPOLLHUP) != 0 {
		if res, ok := lc.send(lc.l.now()); !ok {
			return res, true
		}
		if len(lc.pending) > 0 {
			return driver.Result{}, false
		}
	}
	if events&(syscall.EPOLLIN|syscall.EPOLLERR|syscall.EPOLLHUP) == 0 {
		return driver.Result{}, false
	}
	return lc.read()
}

// read reads what arrived and parses it; done when the response ended.
func (lc *LoopConn) read() (driver.Result, bool) {
	buf := lc.l.buf
	for {
		n, errno := rawIO(syscall.SYS_READ, int(lc.fd), buf)
		switch {
		case errno == syscall.EAGAIN:
			return driver.Result{}, false
		case errno == syscall.EINTR:
			continue
		case errno != 0:
			return lc.fail(&net.OpError{Op: "read", Net: "tcp", Err: errno}), true
		}
		first := !lc.started
		if first {
			lc.started = true
			lc.firstByte = lc.l.polled
		}
		if n == 0 {
			done, err := lc.p.eof(lc.received > 0)
			if !done {
				return lc.fail(err), true
			}
			lc.closeFD()
			return lc.finished(), true
		}
		lc.received += int64(n)
		used, done, err := lc.p.feed(buf[:n])
		if err != nil {
			return lc.fail(err), true
		}
		if done {
			if used < n {
				return lc.fail(fmt.Errorf("%w: %d bytes after the response", errMalformed, n-used)), true
			}
			if !lc.p.keepAlive {
				lc.closeFD()
			}
			if first {
				// The whole response came with its first byte: it was
				// received then (no second clock read).
				lc.end = lc.firstByte
				return lc.result(), true
			}
			return lc.finished(), true
		}
		if n < len(buf) {
			return driver.Result{}, false // the rest has not arrived
		}
	}
}

// finished is the result of a complete response, ending now.
func (lc *LoopConn) finished() driver.Result {
	lc.end = lc.l.now()
	return lc.result()
}

// result is the result of a complete response.
func (lc *LoopConn) result() driver.Result {
	lc.inFlight, lc.l.deadlines[lc.slot] = false, 0
	lc.status = lc.p.status
	if lc.p.status >= 400 {
		return driver.Result{Status: lc.p.status, Err: &Status{Code: lc.p.status}}
	}
	return driver.Result{Rows: 1, Status: lc.p.status}
}

// rawIO is read(2) or write(2) on a non-blocking socket, without the
// scheduler's system call bookkeeping: the call never blocks.
func rawIO(trap uintptr, fd int, p []byte) (int, syscall.Errno) {
	if len(p) == 0 {
		return 0, 0
	}
	r, _, errno := syscall.RawSyscall(trap, uintptr(fd), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
	return int(r), errno
}
