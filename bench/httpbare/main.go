// Command httpbare is the bare Go HTTP/1.1 load loop bench/http_compare.sh
// measures beside wrk and stampede: one goroutine per keep-alive
// connection, each sending the GET stampede sends and reading the response
// (status line, headers, a Content-Length body) with a bufio.Reader on a
// plain net.Conn, as a Go programmer would write it by hand. It records
// nothing and logs nothing: the floor of the goroutine-per-connection
// model that stampede's VUs share, so that the script can tell the model's
// cost (bare / wrk) from stampede's own (stampede / bare). It prints the
// number of responses read and exits; loopback targets only.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	conns := flag.Int("c", 50, "connections, one goroutine each")
	dur := flag.Duration("d", 5*time.Second, "how long to send")
	target := flag.String("url", "http://127.0.0.1:8080/", "the URL to GET (loopback)")
	flag.Parse()
	u, err := url.Parse(*target)
	if err != nil || u.Scheme != "http" || u.Host == "" {
		fmt.Fprintf(os.Stderr, "httpbare: -url must be an http:// URL, got %q\n", *target)
		os.Exit(2)
	}
	if ip := net.ParseIP(u.Hostname()); ip == nil || !ip.IsLoopback() {
		fmt.Fprintf(os.Stderr, "httpbare: -url must name a loopback address, got %q\n", u.Host)
		os.Exit(2)
	}
	if *conns < 1 || *dur <= 0 {
		fmt.Fprintln(os.Stderr, "httpbare: -c must be ≥ 1 and -d > 0")
		os.Exit(2)
	}
	path := u.RequestURI()
	req := []byte("GET " + path + " HTTP/1.1\r\nHost: " + u.Host + "\r\nUser-Agent: stampede\r\n\r\n")

	var total, failed atomic.Int64
	end := time.Now().Add(*dur)
	var wg sync.WaitGroup
	for range *conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := loop(u.Host, req, end)
			total.Add(n)
			if err != nil {
				failed.Add(1)
			}
		}()
	}
	wg.Wait()
	if failed.Load() > 0 {
		fmt.Fprintf(os.Stderr, "httpbare: %d connection(s) failed\n", failed.Load())
	}
	fmt.Println(total.Load())
}

// loop sends req on one connection to addr until end and returns the
// responses read.
func loop(addr string, req []byte, end time.Time) (int64, error) {
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		return 0, err
	}
	defer nc.Close()
	nc.SetDeadline(end.Add(10 * time.Second))
	br := bufio.NewReaderSize(nc, 2048)
	var n int64
	for time.Now().Before(end) {
		if _, err := nc.Write(req); err != nil {
			return n, err
		}
		// As stampede's client does: let the other connections send first.
		runtime.Gosched()
		if err := response(br); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

var contentLength = []byte("content-length:")

// response reads one response: status line, headers, Content-Length body.
func response(br *bufio.Reader) error {
	body := 0
	for first := true; ; first = false {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return err
		}
		if first {
			if !bytes.HasPrefix(line, []byte("HTTP/1.")) {
				return fmt.Errorf("not an HTTP/1.x status line: %q", line)
			}
			continue
		}
		if len(line) <= 2 { // the blank line ending the headers
			break
		}
		if len(line) > len(contentLength) && bytes.EqualFold(line[:len(contentLength)], contentLength) {
			body = 0
			for _, c := range line[len(contentLength):] {
				if c >= '0' && c <= '9' {
					body = body*10 + int(c-'0')
				}
			}
		}
	}
	_, err := br.Discard(body)
	return err
}
