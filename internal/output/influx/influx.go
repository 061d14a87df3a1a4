// Package influx writes a run's per-second metrics to InfluxDB over HTTP in
// line protocol, as k6's InfluxDB output does, so existing Grafana habits
// carry over. Both the 1.x API (/write?db=) and the 2.x API
// (/api/v2/write?org=&bucket=, token auth) are supported.
//
// Observe never blocks: points go through a bounded queue to one writer
// goroutine that batches them into HTTP requests. When the queue is full or
// a write fails, the lines are counted as dropped and Stats says so; the
// run goes on.
package influx

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/metric"
)

// Config configures an Output. Zero values take the defaults.
type Config struct {
	// URL is the --out influxdb= value (see ParseURL).
	URL string
	// Token authenticates to InfluxDB 2 ("Authorization: Token …"); it is
	// never logged. Also sent to 1.x endpoints when set.
	Token string
	// Tags are added to every line (e.g. segment, host).
	Tags map[string]string
	// Registry tells which workload counts are rates; nil: all counters.
	Registry *metrics.Registry
	// QueueSize is the number of scenario-seconds waiting for the writer;
	// default 4096.
	QueueSize int
	// BatchLines triggers a write when that many lines are buffered;
	// default 5000.
	BatchLines int
	// FlushInterval writes whatever is buffered this often; default 1s.
	FlushInterval time.Duration
	// Timeout bounds one HTTP request; default 5s.
	Timeout time.Duration
	// CloseTimeout bounds the final flush in Close; default 10s.
	CloseTimeout time.Duration
	// MaxErrorMessages bounds the error tags per scenario; default 50.
	MaxErrorMessages int
	// Client sends the requests; default a client with Timeout.
	Client *http.Client
	// Warn receives one line on the first failed write; nil: silent.
	Warn io.Writer
}

// Stats count what happened to the lines, for the summary.
type Stats struct {
	// Lines were produced, Written accepted by InfluxDB.
	Lines, Written int64
	// QueueFull lines were dropped because the writer lagged; Failed lines
	// were in requests InfluxDB refused or that failed.
	QueueFull, Failed int64
	// Requests is the number of write requests, Errors how many failed.
	Requests, Errors int64
	// LastError is the last write failure.
	LastError string
}

// Dropped is the number of lines that did not reach InfluxDB.
func (s Stats) Dropped() int64 { return s.QueueFull + s.Failed }

// Note is a one-line remark for the summary, or "" when every line was
// written.
func (s Stats) Note(display string) string {
	if s.Dropped() == 0 {
		return ""
	}
	msg := fmt.Sprintf("influxdb output %s: %d of %d lines not written (%d: queue full, %d: %d failed writes)",
		display, s.Dropped(), s.Lines, s.QueueFull, s.Failed, s.Errors)
	if s.LastError != "" {
		msg += "; last error: " + s.LastError
	}
	return msg
}

// Output writes points to InfluxDB. Observe is a metrics.Observer; Close
// flushes and stops the writer.
type Output struct {
	cfg    Config
	ep     endpoint
	client *http.Client
	in     chan *item
	enc    *encoder

	lines, queueFull atomic.Int64 // written by Observe

	// Per-sample points (sample.go): VU buffers arrive on chunks.
	chunks                                     chan sampleChunk
	freeSample                                 chan []byte  // VU buffers to reuse
	writers                                    atomic.Int64 // VU writers made
	sampleLines, sampleQueueFull, sampleFailed atomic.Int64
	closeMu                                    sync.RWMutex // guards closed against sends on chunks
	closed                                     bool
	samples                                    []byte // owned by the writer goroutine

	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
	once   sync.Once

	// Owned by the writer goroutine until done is closed.
	pending int // lines in enc's buffer
	stats   Stats
	warned  bool
	created bool // CREATE DATABASE succeeded
}

// New checks cfg and starts the writer goroutine.
func New(cfg Config) (*Output, error) {
	ep, err := ParseURL(cfg.URL)
	if err != nil {
		return nil, err
	}
	if cfg.QueueSize <= 0 {
		cfg.QueueSize = 4096
	}
	if cfg.BatchLines <= 0 {
		cfg.BatchLines = 5000
	}
	if cfg.FlushInterval <= 0 {
		cfg.FlushInterval = time.Second
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 5 * time.Second
	}
	if cfg.CloseTimeout <= 0 {
		cfg.CloseTimeout = 10 * time.Second
	}
	if cfg.MaxErrorMessages <= 0 {
		cfg.MaxErrorMessages = 50
	}
	client := cfg.Client
	if client == nil {
		client = &http.Client{Timeout: cfg.Timeout}
	}
	kinds := func(string) metrics.Kind { return metrics.KindCounter }
	if reg := cfg.Registry; reg != nil {
		kinds = func(name string) metrics.Kind {
			if id, ok := reg.Lookup(name); ok {
				return reg.Def(id).Kind
			}
			return 0
		}
	}
	o := &Output{
		cfg: cfg, ep: ep, client: client,
		in:     make(chan *item, cfg.QueueSize),
		chunks: make(chan sampleChunk, sampleQueue), freeSample: make(chan []byte, sampleQueue),
		enc:  newEncoder(cfg.Tags, kinds, cfg.MaxErrorMessages),
		done: make(chan struct{}),
	}
	o.ctx, o.cancel = context.WithCancel(context.Background())
	go o.loop()
	return o, nil
}

// Display is the write URL without credentials, for messages.
func (o *Output) Display() string { return o.ep.display }

// Observe queues one finished second without blocking; a full queue drops
// it and counts its lines. It must not be called after Close.
func (o *Output) Observe(p *metrics.Point) {
	it := &item{scenario: p.Scenario, t: p.Time, counts: p.Counts, errors: p.Errors, vus: p.VUs, vusMax: p.VUsMax, rt: p.RT,
		perSample: o.writers.Load() > 0}
	for name, h := range p.Trends {
		if metrics.IsHTTPPhase(name) {
			continue // marked for series.jsonl; InfluxDB gets the phases per sample
		}
		if it.trends == nil {
			it.trends = map[string]metrics.PointStats{}
		}
		it.trends[name] = metric.StatsOf(h)
	}
	n := int64(it.lines())
	o.lines.Add(n)
	select {
	case o.in <- it:
	default:
		o.queueFull.Add(n)
	}
}

func (o *Output) loop() {
	defer close(o.done)
	o.createDatabase()
	t := time.NewTicker(o.cfg.FlushInterval)
	defer t.Stop()
	for {
		select {
		case c := <-o.chunks:
			o.addSamples(c)
		case it, ok := <-o.in:
			if !ok {
				for drained := false; !drained; {
					select {
					case c := <-o.chunks:
						o.addSamples(c)
					default:
						drained = true
					}
				}
				o.flush()
				return
			}
			before := o.enc.failures
			o.enc.add(it)
			o.pending += it.lines() - (o.enc.failures - before)
			o.stats.Failed += int64(o.enc.failures - before)
			if o.pending >= o.cfg.BatchLines {
				o.flush()
			}
		case <-t.C:
			o.flush()
		}
	}
}

// flush sends the buffered lines. A network error or a 5xx answer is
// retried once after a short pause; otherwise the lines are counted failed.
func (o *Output) flush() {
	if o.pending == 0 {
		return
	}
	body := o.enc.enc.Bytes()
	if len(o.samples) > 0 {
		body = append(body, o.samples...)
	}
	n := int64(o.pending)
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		var retry bool
		retry, err = o.post(body)
		if err == nil || !retry || o.ctx.Err() != nil {
			break
		}
		select {
		case <-time.After(200 * time.Millisecond):
		case <-o.ctx.Done():
		}
	}
	o.stats.Requests++
	if err != nil {
		o.stats.Errors++
		o.stats.Failed += n
		o.stats.LastError = err.Error()
		if !o.warned && o.cfg.Warn != nil {
			o.warned = true
			fmt.Fprintf(o.cfg.Warn, "stampede: influxdb: %s (the run goes on; lost lines are counted in the summary)\n", err)
		}
	} else {
		o.stats.Written += n
	}
	o.enc.enc.Reset()
	o.samples = o.samples[:0]
	o.pending = 0
}

// addSamples adds a VU's buffer to the next write.
func (o *Output) addSamples(c sampleChunk) {
	o.samples = append(o.samples, c.b...)
	o.pending += int(c.n)
	select {
	case o.freeSample <- c.b:
	default:
	}
	// Per-sample points come by the thousand: larger writes, fewer round trips.
	if o.pending >= max(o.cfg.BatchLines, sampleBatchLines) {
		o.flush()
	}
}

// post sends one batch; retry tells whether another try may succeed.
func (o *Output) post(body []byte) (retry bool, err error) {
	ctx, cancel := context.WithTimeout(o.ctx, o.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.ep.write, bytes.NewReader(body))
	if err != nil {
		return false, err
	}
	req.Header.Set("Content-Type", "text/plain; charset=utf-8")
	if o.cfg.Token != "" {
		req.Header.Set("Authorization", "Token "+o.cfg.Token)
	} else if o.ep.user != "" {
		req.SetBasicAuth(o.ep.user, o.ep.pass)
	}
	resp, err := o.client.Do(req)
	if err != nil {
		// Errors from the client name the URL, which holds no credentials.
		return true, fmt.Errorf("write to %s: %w", o.ep.display, unwrapURLError(err))
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if resp.StatusCode/100 == 2 {
		return false, nil
	}
	text := strings.Join(strings.Fields(string(msg)), " ")
	if len(text) > 200 {
		text = text[:200] + "…"
	}
	return resp.StatusCode >= 500, fmt.Errorf("write to %s: %s %s", o.ep.display, resp.Status, text)
}

// unwrapURLError drops *url.Error's "Post URL:" prefix (the URL is in our
// own message).
func unwrapURLError(err error) error {
	type unwrapper interface{ Unwrap() error }
	if u, ok := err.(unwrapper); ok && strings.HasPrefix(err.Error(), "Post ") {
		if inner := u.Unwrap(); inner != nil {
			return inner
		}
	}
	return err
}

// Close stops accepting points, writes what is queued (for at most
// CloseTimeout) and returns the final Stats. Further calls return the same.
func (o *Output) Close() Stats {
	o.once.Do(func() {
		o.closeMu.Lock()
		o.closed = true
		o.closeMu.Unlock()
		close(o.in)
		timer := time.AfterFunc(o.cfg.CloseTimeout, o.cancel)
		<-o.done
		timer.Stop()
		o.cancel()
		o.stats.Lines = o.lines.Load() + o.sampleLines.Load()
		o.stats.QueueFull = o.queueFull.Load() + o.sampleQueueFull.Load()
		o.stats.Failed += o.sampleFailed.Load()
	})
	return o.stats
}
