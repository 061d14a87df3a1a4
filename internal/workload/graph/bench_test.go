package graph

import (
	"path/filepath"
	"testing"

	"github.com/stampede-bench/stampede/internal/driver"
	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/workload/graph/datagen"
	"github.com/stampede-bench/stampede/internal/workload/graph/loader"
	"github.com/stampede-bench/stampede/vu"
)

// benchData generates and loads a small LDBC data set once per benchmark.
func benchData(b *testing.B, sf float64) (dir, target string) {
	b.Helper()
	root := b.TempDir()
	dir = filepath.Join(root, "data")
	if _, err := datagen.Generate(b.Context(), datagen.Config{SF: sf, Out: dir, Seed: DataSeed}); err != nil {
		b.Fatal(err)
	}
	target = "sqlite://" + filepath.Join(root, "g.db")
	if _, err := loader.Load(b.Context(), loader.Config{Target: target, Data: dir}); err != nil {
		b.Fatal(err)
	}
	return dir, target
}

// BenchmarkGo1StepIterate is one go.Go1Step iteration on embedded SQLite:
// the generator's whole per-iteration path (parameter, driver, recording)
// plus the query itself.
func BenchmarkGo1StepIterate(b *testing.B) {
	dir, target := benchData(b, 0.1)
	u, _ := drivers().ParseTarget(target)
	drv, err := drivers().Open(b.Context(), u, driver.Options{PoolSize: 1})
	if err != nil {
		b.Fatal(err)
	}
	defer drv.Close()
	p, err := loadParams(dir, 0, true, false, false)
	if err != nil {
		b.Fatal(err)
	}
	s := newGoStep(common{name: Go1Step, drv: drv, dialect: sqlDialect{}, feed: newFeeder(len(p.khop), OrderRoundRobin, 1)}, 1, p.khop)
	user, err := s.NewVU(b.Context(), 0)
	if err != nil {
		b.Fatal(err)
	}
	defer user.Close()
	reg := metrics.NewRegistry()
	clock := metrics.NewClock()
	agg := metrics.NewAggregator(reg, clock, []string{Go1Step})
	go agg.Run()
	defer agg.Close()
	it := &vu.Iter{Rec: agg.Recorder(0, 0), Clock: clock}
	b.ReportAllocs()
	for b.Loop() {
		if err := user.Iterate(b.Context(), it); err != nil {
			b.Fatal(err)
		}
	}
	it.Rec.Flush()
}

// BenchmarkReferenceGoStep is the in-memory answer of a 2-step query at
// SF0.1 (what a sampled check costs).
func BenchmarkReferenceGoStep(b *testing.B) {
	dir, _ := benchData(b, 0.1)
	g, err := loadRefGraph(dir, 0)
	if err != nil {
		b.Fatal(err)
	}
	p, _ := loadParams(dir, 0, true, false, false)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		g.goStep(p.khop[i%len(p.khop)], 2)
		i++
	}
}
