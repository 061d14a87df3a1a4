package monitor

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/stampede-bench/stampede/internal/cputime"
	"github.com/stampede-bench/stampede/internal/monitor/monitortest"
)

// nodePage fetches one page from a real node_exporter.
func nodePage(b *testing.B, url string) []byte {
	resp, err := http.Get(url)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	page, err := io.ReadAll(resp.Body)
	if err != nil {
		b.Fatal(err)
	}
	return page
}

// BenchmarkParseNodePage is the parse path of one node_exporter page:
// filter the wanted families, Prometheus's text parser, derivations.
func BenchmarkParseNodePage(b *testing.B) {
	exp := monitortest.StartNodeExporter(b)
	page := nodePage(b, exp.URL)
	b.SetBytes(int64(len(page)))
	s := newScraper(Spec{}, nil)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		fams, err := s.parse(page)
		if err != nil {
			b.Fatal(err)
		}
		deriveFamilies(newReading(time.Now()), fams, nil)
	}
}

// BenchmarkParseNodePageUnfiltered is the peer: the same page through the
// text parser whole, as a plain expfmt client would.
func BenchmarkParseNodePageUnfiltered(b *testing.B) {
	exp := monitortest.StartNodeExporter(b)
	page := nodePage(b, exp.URL)
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		p := expfmt.NewTextParser(model.UTF8Validation)
		if _, err := p.TextToMetricFamilies(bytes.NewReader(page)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScrapeNodeExporter is one whole reading of a real exporter over
// loopback HTTP; cpu-ms/op is the CPU this process spent per reading (the
// exporter's own CPU is its host's, not the generator's).
func BenchmarkScrapeNodeExporter(b *testing.B) {
	exp := monitortest.StartNodeExporter(b)
	specs, err := ParseSpecs([]string{"node=" + exp.URL})
	if err != nil {
		b.Fatal(err)
	}
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	s := newScraper(specs[0], client)
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cputime.Process()
	for b.Loop() {
		if _, err := s.read(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cputime.Process()-c0)/float64(b.N)/1e6, "cpu-ms/op")
}

// BenchmarkMonitor10Endpoints runs the real sampler on 10 sources (one
// real node_exporter, scraped 10 times a second as 10 endpoints would be)
// at the default 1 s interval for 10 s per op and reports the CPU this
// process spent as a percentage of one core: the cost of monitoring to
// the load generator.
func BenchmarkMonitor10Endpoints(b *testing.B) {
	exp := monitortest.StartNodeExporter(b)
	var vals []string
	for i := range 10 {
		vals = append(vals, "n"+string(rune('0'+i))+"="+exp.URL)
	}
	specs, err := ParseSpecs(vals)
	if err != nil {
		b.Fatal(err)
	}
	var cpu, wall time.Duration
	for b.Loop() {
		dir := b.TempDir()
		c0, t0 := cputime.Process(), time.Now()
		m, err := Start(dir, specs, Options{})
		if err != nil {
			b.Fatal(err)
		}
		time.Sleep(10 * time.Second)
		if err := m.Stop(); err != nil {
			b.Fatal(err)
		}
		cpu, wall = cpu+cputime.Process()-c0, wall+time.Since(t0)
		for id, c := range m.Counts() {
			if c.OK < 5 {
				b.Fatalf("%s: only %d readings in 10 s (%+v)", id, c.OK, c)
			}
		}
	}
	b.ReportMetric(100*cpu.Seconds()/wall.Seconds(), "%core")
}
