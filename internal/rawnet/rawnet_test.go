package rawnet

import (
	"bytes"
	"errors"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/cputime"
)

// rawPair is a loopback TCP connection: the client side, wrapped, and the
// server's end.
func rawPair(t *testing.T) (net.Conn, net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			close(accepted)
			return
		}
		accepted <- c
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	s := <-accepted
	if s == nil {
		t.Fatal("accept failed")
	}
	raw := Wrap(c)
	t.Cleanup(func() { raw.Close(); s.Close() })
	if _, ok := raw.(*Conn); !ok {
		t.Fatalf("Wrap of a TCP connection gave a %T", raw)
	}
	return raw, s
}

func TestRawSocketReadsWhatWasWritten(t *testing.T) {
	raw, srv := rawPair(t)
	if _, err := raw.Write([]byte("ping")); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 4)
	if _, err := io.ReadFull(srv, got); err != nil || string(got) != "ping" {
		t.Fatalf("server read %q, %v", got, err)
	}
	go func() {
		time.Sleep(20 * time.Millisecond) // the client waits in the poller first
		srv.Write([]byte("pong"))
	}()
	buf := make([]byte, 16)
	n, err := raw.Read(buf)
	if err != nil || string(buf[:n]) != "pong" {
		t.Fatalf("client read %q, %v", buf[:n], err)
	}
}

// A write larger than the socket buffers waits for the reader and ends
// whole.
func TestRawSocketWritesAllOfALargeBuffer(t *testing.T) {
	raw, srv := rawPair(t)
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<18) // 4 MiB
	got := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(io.LimitReader(srv, int64(len(big))))
		got <- b
	}()
	n, err := raw.Write(big)
	if err != nil || n != len(big) {
		t.Fatalf("wrote %d of %d: %v", n, len(big), err)
	}
	if b := <-got; !bytes.Equal(b, big) {
		t.Fatalf("server read %d bytes, not what was written", len(b))
	}
}

func TestRawSocketErrors(t *testing.T) {
	t.Run("peer closed: EOF", func(t *testing.T) {
		raw, srv := rawPair(t)
		srv.Close()
		if _, err := raw.Read(make([]byte, 8)); err != io.EOF {
			t.Fatalf("got %v, want EOF", err)
		}
	})
	t.Run("deadline: a timeout", func(t *testing.T) {
		raw, _ := rawPair(t)
		raw.SetDeadline(time.Now().Add(30 * time.Millisecond))
		t0 := time.Now()
		_, err := raw.Read(make([]byte, 8))
		var ne net.Error
		if !errors.As(err, &ne) || !ne.Timeout() {
			t.Fatalf("got %v, want a timeout", err)
		}
		if d := time.Since(t0); d > 2*time.Second {
			t.Fatalf("the deadline fired after %v", d)
		}
	})
	t.Run("closed while waiting", func(t *testing.T) {
		raw, _ := rawPair(t)
		go func() { time.Sleep(20 * time.Millisecond); raw.Close() }()
		if _, err := raw.Read(make([]byte, 8)); !errors.Is(err, net.ErrClosed) {
			t.Fatalf("got %v, want net.ErrClosed", err)
		}
	})
	t.Run("reset: the errno", func(t *testing.T) {
		raw, srv := rawPair(t)
		srv.(*net.TCPConn).SetLinger(0) // close sends RST
		srv.Close()
		time.Sleep(20 * time.Millisecond)
		_, err := raw.Read(make([]byte, 8))
		var oe *net.OpError
		if !errors.As(err, &oe) || !errors.Is(err, syscall.ECONNRESET) {
			t.Fatalf("got %v, want a net.OpError of ECONNRESET", err)
		}
	})
}

// A connection may be read and written from two goroutines at once, as
// net.Conn may (a Kafka client has a reader and a writer per broker).
func TestRawSocketReadAndWriteAtOnce(t *testing.T) {
	raw, srv := rawPair(t)
	go io.Copy(srv, srv) // echo
	const n = 2000
	msg := bytes.Repeat([]byte("x"), 1000)
	done := make(chan error, 1)
	go func() {
		for range n {
			if _, err := raw.Write(msg); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	got, err := io.ReadAll(io.LimitReader(raw, n*int64(len(msg))))
	if err != nil || len(got) != n*len(msg) {
		t.Fatalf("read %d of %d bytes: %v", len(got), n*len(msg), err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestWrapLeavesOtherConnections(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	if Wrap(a) != a {
		t.Fatal("Wrap changed a connection that is not TCP")
	}
}

// BenchmarkRoundTrips is 64-byte requests and their 64-byte answers on
// 50 loopback connections at once, each with a client and an echo
// goroutine, both ends net.Conn (net) or both wrapped (rawnet): a busy
// process whose Ps keep entering the syscall state, as a load generator's
// do. cpu-ns/op is the process's CPU time per round trip (both ends, the
// kernel's loopback included), the stable figure on a shared machine.
func BenchmarkRoundTrips(b *testing.B) {
	const conns = 50
	for _, raw := range []bool{false, true} {
		name := "net"
		if raw {
			name = "rawnet"
		}
		b.Run(name, func(b *testing.B) {
			wrap := func(c net.Conn) net.Conn {
				if raw {
					return Wrap(c)
				}
				return c
			}
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			defer ln.Close()
			go func() {
				for {
					s, err := ln.Accept()
					if err != nil {
						return
					}
					go func() {
						s = wrap(s)
						defer s.Close()
						buf := make([]byte, 64)
						for {
							if _, err := io.ReadFull(s, buf); err != nil {
								return
							}
							if _, err := s.Write(buf); err != nil {
								return
							}
						}
					}()
				}
			}()
			cs := make([]net.Conn, conns)
			for i := range cs {
				c, err := net.Dial("tcp", ln.Addr().String())
				if err != nil {
					b.Fatal(err)
				}
				cs[i] = wrap(c)
				defer cs[i].Close()
			}
			var left atomic.Int64
			left.Store(int64(b.N))
			b.ResetTimer()
			cpu0 := cputime.Process()
			var wg sync.WaitGroup
			for _, c := range cs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					msg := make([]byte, 64)
					for left.Add(-1) >= 0 {
						if _, err := c.Write(msg); err != nil {
							b.Error(err)
							return
						}
						if _, err := io.ReadFull(c, msg); err != nil {
							b.Error(err)
							return
						}
					}
				}()
			}
			wg.Wait()
			b.ReportMetric(float64(cputime.Process()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}
