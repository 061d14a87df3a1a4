package monitor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// maxBody bounds a scraped response, bytes: 16 MiB.
const maxBody = 16 << 20

// known are the metric families the derivations read.
var known = []string{
	"node_cpu_seconds_total", "node_memory_MemTotal_bytes", "node_memory_MemAvailable_bytes",
	"node_load1", "node_network_receive_bytes_total", "node_network_transmit_bytes_total",
	"node_network_speed_bytes", "node_disk_read_bytes_total", "node_disk_written_bytes_total",
	"node_disk_io_time_seconds_total",
	"namedprocess_namegroup_cpu_seconds_total", "namedprocess_namegroup_memory_bytes",
	"namedprocess_namegroup_num_threads",
	"process_cpu_seconds_total", "process_resident_memory_bytes",
	nodeExporterInfo,
}

// nodeExporterInfo identifies node_exporter's page.
const nodeExporterInfo = "node_exporter_build_info"

// nodeCollectors is the query that asks node_exporter for only the
// collectors the derivations read: a page of a few kB instead of ~60 kB,
// which saves CPU on both sides.
const nodeCollectors = "collect[]=cpu&collect[]=meminfo&collect[]=loadavg&collect[]=netdev&collect[]=netclass&collect[]=diskstats"

// scraper reads one Prometheus text-format endpoint.
type scraper struct {
	url string
	// narrowed is set once the URL asks node_exporter for fewer collectors.
	narrowed bool
	client   *http.Client
	want     map[string]bool // metric family names to keep
	extra    []string
	groups   map[string]bool // process-exporter groups to keep (nil: all)
	at       time.Time       // when the last page arrived
	buf      bytes.Buffer
	keep     bytes.Buffer
	parser   *expfmt.TextParser // reused: one scraper reads on one goroutine
}

func newScraper(sp Spec, client *http.Client) *scraper {
	s := &scraper{url: sp.URL, client: client, want: map[string]bool{}, extra: sp.Metrics}
	for _, n := range known {
		s.want[n] = true
	}
	for _, n := range sp.Metrics {
		s.want[n] = true
	}
	if len(sp.Groups) > 0 {
		s.groups = map[string]bool{}
		for _, g := range sp.Groups {
			s.groups[g] = true
		}
	}
	return s
}

// read fetches the endpoint and turns what it has into a reading.
func (s *scraper) read(ctx context.Context) (*reading, error) {
	fams, err := s.page(ctx)
	if err != nil {
		return nil, err
	}
	r := newReading(s.at)
	keepGroups(fams, s.groups)
	deriveFamilies(r, fams, s.extra)
	if !s.narrowed && fams[nodeExporterInfo] != nil && len(s.extra) == 0 {
		// node_exporter: from now on ask only for what is read. A URL with
		// its own query is the user's choice and stays as given.
		s.narrowed = true
		if u, err := url.Parse(s.url); err == nil && u.RawQuery == "" {
			u.RawQuery = nodeCollectors
			s.url = u.String()
		}
	}
	return r, nil
}

// page fetches the endpoint and parses the wanted families; s.at is when
// the answer arrived.
func (s *scraper) page(ctx context.Context) (map[string]*dto.MetricFamily, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "text/plain;version=0.0.4")
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, scrapeError(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return nil, fmt.Errorf("HTTP %s", resp.Status)
	}
	s.buf.Reset()
	if _, err := s.buf.ReadFrom(io.LimitReader(resp.Body, maxBody)); err != nil {
		return nil, scrapeError(err)
	}
	s.at = time.Now()
	return s.parse(s.buf.Bytes())
}

// parse keeps the lines of the wanted families and parses them with
// Prometheus's own text parser. Dropping the other families first (whole
// lines, by metric name) keeps the cost of a large node_exporter page low.
func (s *scraper) parse(body []byte) (map[string]*dto.MetricFamily, error) {
	s.keep.Reset()
	for len(body) > 0 {
		line := body
		if i := bytes.IndexByte(body, '\n'); i >= 0 {
			line, body = body[:i], body[i+1:]
		} else {
			body = nil
		}
		if s.wanted(line) {
			s.keep.Write(line)
			s.keep.WriteByte('\n')
		}
	}
	if s.parser == nil {
		p := expfmt.NewTextParser(model.UTF8Validation)
		s.parser = &p
	}
	fams, err := s.parser.TextToMetricFamilies(&s.keep)
	if err != nil {
		return nil, fmt.Errorf("parse metrics: %w", err)
	}
	return fams, nil
}

// wanted reports whether a line belongs to a wanted family: a sample line
// whose metric name (less a histogram or summary suffix) is wanted, or the
// "# TYPE" line of one. HELP texts, other comments and blank lines go.
func (s *scraper) wanted(line []byte) bool {
	if len(line) == 0 {
		return false
	}
	if line[0] == '#' {
		rest := bytes.TrimLeft(line[1:], " \t")
		if !bytes.HasPrefix(rest, []byte("TYPE")) {
			return false
		}
		rest = bytes.TrimLeft(rest[4:], " \t")
		if end := bytes.IndexAny(rest, " \t"); end >= 0 {
			rest = rest[:end]
		}
		return s.want[string(rest)]
	}
	end := bytes.IndexAny(line, "{ \t")
	if end < 0 {
		return false
	}
	name := line[:end]
	if s.want[string(name)] {
		return true
	}
	for _, suf := range suffixes {
		if bytes.HasSuffix(name, suf) && s.want[string(name[:len(name)-len(suf)])] {
			return true
		}
	}
	return false
}

var suffixes = [][]byte{[]byte("_bucket"), []byte("_sum"), []byte("_count")}

// scrapeError drops the URL from transport errors (it may hold
// credentials) and keeps their cause.
func scrapeError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		if ue.Timeout() {
			return errors.New("timeout")
		}
		return ue.Err
	}
	return err
}
