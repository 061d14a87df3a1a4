package datagen

import (
	"context"
	"testing"
)

// BenchmarkDegreeTarget measures one target-degree draw (SF10 model).
func BenchmarkDegreeTarget(b *testing.B) {
	m := newDegreeModel(73_000)
	b.ReportAllocs()
	sum := 0
	for i := 0; b.Loop(); i++ {
		sum += m.target(float64(i%100_000) / 100_000)
	}
	_ = sum
}

// BenchmarkKnowsSF1 measures the three knows passes over SF1's 11,000
// persons (about 227,000 edges); edges/s is reported.
func BenchmarkKnowsSF1(b *testing.B) {
	benchmarkKnows(b, 11_000)
}

// BenchmarkKnowsSF10 is the same for SF10 (73,000 persons, 2.4M edges).
func BenchmarkKnowsSF10(b *testing.B) {
	benchmarkKnows(b, 73_000)
}

func benchmarkKnows(b *testing.B, n int) {
	g, err := buildGraph(context.Background(), n, 42, 1)
	if err != nil {
		b.Fatal(err)
	}
	g.workers = 1
	b.ReportAllocs()
	var edges int64
	for b.Loop() {
		if g.graph, err = newGraph(g.persons); err != nil {
			b.Fatal(err)
		}
		if err := g.generateKnows(context.Background()); err != nil {
			b.Fatal(err)
		}
		edges += g.graph.edges()
	}
	b.ReportMetric(float64(edges)/b.Elapsed().Seconds(), "edges/s")
}

// BenchmarkPersonRows measures formatting every row of every person file
// for SF1 persons on one goroutine; rows/s and bytes/s are reported.
func BenchmarkPersonRows(b *testing.B) {
	g, err := buildGraph(context.Background(), 11_000, 42, 2)
	if err != nil {
		b.Fatal(err)
	}
	r := newRNG()
	c := &rowChunk{}
	b.ReportAllocs()
	var rows, bytes int64
	flush := func() {
		for k := range c.buf {
			bytes += int64(len(c.buf[k]))
			rows += c.rows[k]
		}
		c.reset()
	}
	for b.Loop() {
		for s := range g.persons {
			if s%personChunk == 0 {
				flush()
			}
			g.appendPersonRows(r, c, uint32(s))
		}
		flush()
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
	b.SetBytes(bytes / int64(b.N))
}

// BenchmarkGenerateSF1 measures a whole SF1 run including file I/O.
func BenchmarkGenerateSF1(b *testing.B) {
	b.ReportAllocs()
	var rows int64
	for b.Loop() {
		st, err := Generate(context.Background(), Config{SF: 1, Out: b.TempDir(), Seed: 42, Workers: 2})
		if err != nil {
			b.Fatal(err)
		}
		for _, n := range st.Files {
			rows += n
		}
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}
