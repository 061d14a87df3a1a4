package webdash

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/result/report"
	"github.com/stampede-bench/stampede/metric"
)

func TestEventFormat(t *testing.T) {
	got := string(event(7, "payload", []byte(`{"a":[1,null]}`)))
	if want := "id: 7\nevent: payload\ndata: {\"a\":[1,null]}\n\n"; got != want {
		t.Errorf("event %q, want %q", got, want)
	}
}

// The hub takes at most max clients and drops one whose buffer is full,
// without waiting for it; the others keep every event.
func TestHubBounds(t *testing.T) {
	h := newHub(2, 2)
	slow, ok1 := h.add()
	fast, ok2 := h.add()
	if _, ok := h.add(); !ok1 || !ok2 || ok {
		t.Fatalf("add: %v %v, third accepted %v", ok1, ok2, ok)
	}
	var got [][]byte
	for i := 0; i < 5; i++ {
		h.send([]byte{byte('0' + i)}) // never blocks, whatever slow does
		got = append(got, <-fast.ch)
	}
	if !closed(slow.ch) {
		t.Error("the slow client was not dropped")
	}
	if n, dropped := h.counts(); n != 1 || dropped != 1 || len(got) != 5 {
		t.Errorf("connected %d dropped %d, fast got %d events", n, dropped, len(got))
	}
	if c, ok := h.add(); !ok { // room again
		t.Error("a place freed by a dropped client is not reused")
	} else {
		h.remove(c)
		h.remove(c) // twice is harmless
	}
	h.close()
	if _, ok := h.add(); ok {
		t.Error("a closed hub took a client")
	}
	if !closed(fast.ch) {
		t.Error("close left a stream open")
	}
}

// closed reports whether ch is closed, after what was queued on it,
// without waiting.
func closed(ch chan []byte) bool {
	for {
		select {
		case _, open := <-ch:
			if !open {
				return true
			}
		default:
			return false
		}
	}
}

func start(t *testing.T, cfg Config) *Dashboard {
	t.Helper()
	d := New(cfg)
	if err := d.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Stop() })
	return d
}

// readEvent reads one event of an SSE stream: its name and data.
func readEvent(t *testing.T, r *bufio.Reader) (name, data string) {
	t.Helper()
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("stream: %v", err)
		}
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "":
			return name, data
		case strings.HasPrefix(line, "event: "):
			name = line[len("event: "):]
		case strings.HasPrefix(line, "data: "):
			data = line[len("data: "):]
		}
	}
}

// The page is the report page following /events; the stream sends the
// payload at once, then each period, then "end" at Stop.
func TestServer(t *testing.T) {
	d := start(t, Config{Port: 0, Period: 50 * time.Millisecond, Clients: 2, Scenarios: []string{"s"}})
	resp, err := http.Get(d.URL())
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `id="stampede-data" data-events="events"`) || !strings.Contains(string(body), "StampedeChart") {
		t.Fatalf("page: %d\n%.500s", resp.StatusCode, body)
	}
	if r, _ := http.Get(d.URL() + "nothing"); r.StatusCode != 404 {
		t.Errorf("unknown path: %d", r.StatusCode)
	}
	resp, err = http.Get(d.URL() + "events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("content type %q", ct)
	}
	r := bufio.NewReader(resp.Body)
	if name, _ := readEvent(t, r); name != "payload" {
		t.Fatalf("first event %q", name)
	}
	h := metric.NewHistogram()
	_ = h.RecordValue(1500)
	d.Observe(&metrics.Point{Scenario: "s", Sec: 0, Time: time.Now(), Counts: map[string]int64{metrics.Requests: 42}, Hist: h, RT: metric.StatsOf(h)})
	deadline := time.Now().Add(5 * time.Second)
	for {
		name, data := readEvent(t, r)
		var p report.Payload
		if err := json.Unmarshal([]byte(data), &p); err != nil || name != "payload" {
			t.Fatalf("event %q: %v", name, err)
		}
		if se := p.Runs[0].Scenarios[0].Series; se != nil && len(se.Req) == 1 && se.Req[0] == 42 && se.P50[0] == 1.5 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the observed second never reached the stream: %s", data)
		}
	}
	// Two clients at most: the second stream is taken, a third refused.
	second, err := http.Get(d.URL() + "events")
	if err != nil {
		t.Fatal(err)
	}
	defer second.Body.Close()
	if third, err := http.Get(d.URL() + "events"); err != nil || third.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("third client: %v %v", third.StatusCode, err)
	}
	go d.Stop()
	for {
		name, data := readEvent(t, r)
		if name == "end" {
			break
		}
		var p report.Payload
		_ = json.Unmarshal([]byte(data), &p)
		if name != "payload" {
			t.Fatalf("event %q", name)
		}
	}
}

// A client that never reads is dropped without holding up the updates,
// Stop ends within 2 s even so, and a port in use is refused at Start.
func TestStopWithStalledClient(t *testing.T) {
	d := start(t, Config{Port: 0, Period: 10 * time.Millisecond})
	for i := 0; i < 200; i++ { // a big payload: the socket buffers fill
		d.Observe(&metrics.Point{Scenario: fmt.Sprintf("scenario-%03d", i), Time: time.Now(), Counts: map[string]int64{metrics.Requests: 1},
			Errors: map[string]int64{strings.Repeat("x", 500): 1}})
	}
	conn, err := net.Dial("tcp", d.ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET /events HTTP/1.1\r\nHost: x\r\n\r\n") // and never read
	// Its socket fills, then its queue: it is dropped, the updates go on.
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, dropped := d.hub.counts(); dropped == 1 {
			break
		}
		if time.Now().After(deadline) {
			n, dropped := d.hub.counts()
			t.Fatalf("a client that never reads was not dropped: connected %d, dropped %d", n, dropped)
		}
		time.Sleep(20 * time.Millisecond)
	}
	seq0, _ := d.latest()
	time.Sleep(100 * time.Millisecond)
	if seq, _ := d.latest(); seq <= seq0 {
		t.Error("the updates stopped")
	}
	other := New(Config{Host: "127.0.0.1", Port: d.ln.Addr().(*net.TCPAddr).Port})
	if err := other.Start(); err == nil || !strings.Contains(err.Error(), "address already in use") {
		t.Errorf("a second dashboard on the port: %v", err)
		other.Stop()
	}
	t0 := time.Now()
	if err := d.Stop(); err != nil {
		t.Fatal(err)
	}
	if el := time.Since(t0); el > 2*time.Second {
		t.Errorf("Stop took %v", el)
	}
}
