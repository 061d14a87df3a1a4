//go:build linux

// Command httpevloop is the bare Go event-loop HTTP/1.1 client
// bench/http_compare.sh measures beside wrk, stampede and httpbare: wrk's
// design written in Go. One goroutine owns every keep-alive connection,
// non-blocking sockets on one level-triggered epoll set, read(2) and
// write(2) as raw system calls (no poller, no scheduler between requests):
// when a connection's response is complete, its next request is written at
// once. It reads the clock once per response, to stamp the next send, and
// records nothing else. It is the floor of an event-loop client in Go, so
// that the script can tell what a change of stampede's concurrency model
// (a goroutine per VU, httpbare's floor) could buy at most against wrk.
// It prints the number of responses read and exits; loopback targets
// only, plain HTTP, GET, Content-Length bodies (what bench/httptarget
// answers).
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"syscall"
	"time"
	"unsafe"
)

func main() {
	conns := flag.Int("c", 50, "connections, all on one goroutine")
	dur := flag.Duration("d", 5*time.Second, "how long to send")
	target := flag.String("url", "http://127.0.0.1:8080/", "the URL to GET (loopback, IPv4)")
	flag.Parse()
	u, err := url.Parse(*target)
	if err != nil || u.Scheme != "http" || u.Host == "" {
		fail(2, "-url must be an http:// URL, got %q", *target)
	}
	ip := net.ParseIP(u.Hostname()).To4()
	if ip == nil || !ip.IsLoopback() {
		fail(2, "-url must name an IPv4 loopback address, got %q", u.Host)
	}
	port, err := net.LookupPort("tcp", u.Port())
	if err != nil || u.Port() == "" {
		fail(2, "-url needs a port, got %q", u.Host)
	}
	if *conns < 1 || *conns > 100000 || *dur <= 0 {
		fail(2, "-c must be 1 to 100000 and -d > 0")
	}
	req := []byte("GET " + u.RequestURI() + " HTTP/1.1\r\nHost: " + u.Host + "\r\nUser-Agent: stampede\r\n\r\n")
	l, err := newLoop(*conns, [4]byte(ip), port, req)
	if err != nil {
		fail(1, "%v", err)
	}
	n, err := l.run(time.Now().Add(*dur))
	if err != nil {
		fail(1, "%v", err)
	}
	fmt.Println(n)
}

func fail(code int, format string, args ...any) {
	fmt.Fprintf(os.Stderr, "httpevloop: "+format+"\n", args...)
	os.Exit(code)
}

// conn is one connection's state: the bytes of a response read so far
// (a response that came in pieces) and when its request was sent.
type conn struct {
	fd   int
	sent time.Time
	part []byte
}

type loop struct {
	ep    int
	conns []conn
	req   []byte
	buf   []byte
}

func newLoop(n int, ip [4]byte, port int, req []byte) (*loop, error) {
	ep, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("epoll_create1: %w", err)
	}
	l := &loop{ep: ep, conns: make([]conn, n), req: req, buf: make([]byte, 16<<10)}
	sa := &syscall.SockaddrInet4{Port: port, Addr: ip}
	for i := range l.conns {
		fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
		if err != nil {
			return nil, fmt.Errorf("socket: %w", err)
		}
		if err := syscall.Connect(fd, sa); err != nil {
			return nil, fmt.Errorf("connect %v:%d: %w", net.IP(ip[:]), port, err)
		}
		// As Go's net package and wrk do.
		if err := syscall.SetsockoptInt(fd, syscall.IPPROTO_TCP, syscall.TCP_NODELAY, 1); err != nil {
			return nil, err
		}
		if err := syscall.SetNonblock(fd, true); err != nil {
			return nil, err
		}
		ev := syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: int32(i)}
		if err := syscall.EpollCtl(ep, syscall.EPOLL_CTL_ADD, fd, &ev); err != nil {
			return nil, fmt.Errorf("epoll_ctl: %w", err)
		}
		l.conns[i].fd = fd
	}
	return l, nil
}

// run sends on every connection until end and returns the responses read.
func (l *loop) run(end time.Time) (int64, error) {
	now := time.Now()
	for i := range l.conns {
		if err := l.send(&l.conns[i], now); err != nil {
			return 0, err
		}
	}
	events := make([]syscall.EpollEvent, 512)
	var n int64
	for {
		k, err := syscall.EpollWait(l.ep, events, 100)
		if err != nil && !errors.Is(err, syscall.EINTR) {
			return n, fmt.Errorf("epoll_wait: %w", err)
		}
		now = time.Now()
		if !now.Before(end) {
			return n, nil
		}
		for _, e := range events[:max(k, 0)] {
			c := &l.conns[e.Fd]
			done, err := l.read(c)
			if err != nil {
				return n, err
			}
			if !done {
				continue
			}
			n++
			if err := l.send(c, now); err != nil {
				return n, err
			}
		}
	}
}

// send writes the request (a few dozen bytes: it fits the socket buffer
// of a connection with nothing outstanding, so one write sends it).
func (l *loop) send(c *conn, now time.Time) error {
	c.sent = now
	w, errno := rawIO(syscall.SYS_WRITE, c.fd, l.req)
	if errno != 0 {
		return fmt.Errorf("write: %w", errno)
	}
	if w != len(l.req) {
		return fmt.Errorf("write: %d of %d bytes", w, len(l.req))
	}
	return nil
}

// read reads what the connection has and tells whether its response is
// complete.
func (l *loop) read(c *conn) (bool, error) {
	r, errno := rawIO(syscall.SYS_READ, c.fd, l.buf)
	switch {
	case errno == syscall.EAGAIN:
		return false, nil
	case errno != 0:
		return false, fmt.Errorf("read: %w", errno)
	case r == 0:
		return false, errors.New("connection closed by the server")
	}
	b := l.buf[:r]
	if len(c.part) > 0 {
		c.part = append(c.part, b...)
		b = c.part
	}
	size, ok := complete(b)
	switch {
	case !ok:
		if len(c.part) == 0 {
			c.part = append(c.part, b...)
		}
		if len(c.part) > 1<<20 {
			return false, errors.New("response longer than 1 MiB")
		}
		return false, nil
	case size != len(b):
		return false, fmt.Errorf("%d bytes after a %d-byte response (one request is outstanding)", len(b)-size, size)
	}
	c.part = c.part[:0]
	return true, nil
}

var contentLength = []byte("\r\ncontent-length:")

// complete returns the size of the response at the start of b and whether
// b holds all of it: status line and headers, and a Content-Length body.
func complete(b []byte) (int, bool) {
	head := bytes.Index(b, []byte("\r\n\r\n"))
	if head < 0 {
		return 0, false
	}
	body := 0
	h := b[:head+2]
	for i := 0; i+len(contentLength) <= len(h); {
		j := bytes.Index(h[i:], []byte("\r\n"))
		if j < 0 {
			break
		}
		line := h[i+j:]
		if len(line) >= len(contentLength) && bytes.EqualFold(line[:len(contentLength)], contentLength) {
			for _, ch := range line[len(contentLength):] {
				if ch == '\r' {
					break
				}
				if ch >= '0' && ch <= '9' {
					body = body*10 + int(ch-'0')
				}
			}
			break
		}
		i += j + 2
	}
	size := head + 4 + body
	return size, len(b) >= size
}

// rawIO is read(2) or write(2) without the scheduler's system call
// bookkeeping: the socket is non-blocking, so the call never blocks.
func rawIO(trap uintptr, fd int, p []byte) (int, syscall.Errno) {
	r, _, errno := syscall.RawSyscall(trap, uintptr(fd), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
	return int(r), errno
}
