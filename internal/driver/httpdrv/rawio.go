package httpdrv

import (
	"io"
	"net"
	"os"
	"syscall"
	"unsafe"
)

// rawSocket reads and writes a non-blocking TCP socket with raw system
// calls, keeping Go's poller for the waits and the deadlines.
//
// net.Conn's Read and Write enter the scheduler's syscall state around
// every read(2) and write(2), as for a call that may block. On a
// non-blocking socket neither blocks, but a P seen in that state keeps the
// runtime's monitor thread polling every 20 µs or so to hand the P to
// another thread: on loopback HTTP that monitor alone took 9% of the
// client's CPU (perf, 50 connections). A raw call holds the P for the few
// microseconds the kernel takes; EAGAIN parks the goroutine in the poller
// exactly as net.Conn does, and deadlines and Close interrupt it the same
// way.
type rawSocket struct {
	rc syscall.RawConn
	// The results of the last callback, kept here so that the callbacks
	// capture nothing (no closure allocation per call).
	buf   []byte
	n     int
	errno syscall.Errno
	readF, writeF func(fd uintptr) bool
}

// newRawSocket returns the raw I/O of nc, or nil when nc has none (not a
// TCP connection).
func newRawSocket(nc net.Conn) *rawSocket {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	s := &rawSocket{rc: rc}
	s.readF = s.read
	s.writeF = s.write
	return s
}

func (s *rawSocket) read(fd uintptr) bool {
	for {
		n, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(unsafe.SliceData(s.buf))), uintptr(len(s.buf)))
		switch e {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false // wait in the poller, then call again
		}
		s.n, s.errno = int(n), e
		return true
	}
}

func (s *rawSocket) write(fd uintptr) bool {
	for len(s.buf) > 0 {
		n, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(unsafe.SliceData(s.buf))), uintptr(len(s.buf)))
		switch e {
		case 0:
			s.n += int(n)
			s.buf = s.buf[n:]
			continue
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		}
		s.errno = e
		return true
	}
	return true
}

// Read reads into p; 0 bytes read is io.EOF.
func (s *rawSocket) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	s.buf, s.n, s.errno = p, 0, 0
	err := s.rc.Read(s.readF)
	s.buf = nil
	switch {
	case err != nil:
		return 0, err
	case s.errno != 0:
		return 0, os.NewSyscallError("read", s.errno)
	case s.n == 0:
		return 0, io.EOF
	}
	return s.n, nil
}

// Write writes all of p, or fails.
func (s *rawSocket) Write(p []byte) (int, error) {
	s.buf, s.n, s.errno = p, 0, 0
	err := s.rc.Write(s.writeF)
	s.buf = nil
	n := s.n
	switch {
	case err != nil:
		return n, err
	case s.errno != 0:
		return n, os.NewSyscallError("write", s.errno)
	}
	return n, nil
}
