package compare

import (
	"bytes"
	"testing"

	"github.com/stampede-bench/stampede/internal/golden"
)

// TestGolden renders each comparison in every format and compares the
// output with testdata/NAME.golden.EXT; -update rewrites the files.
func TestGolden(t *testing.T) {
	fixtures := []struct {
		name  string
		sides func(testing.TB) (Side, Side)
		opt   Options
	}{
		{name: "seedlike", sides: seedLike},
		{name: "toofew", sides: tooFew, opt: Options{Metrics: []Metric{{"responseTime", "p99"}, {"responseTime", "med"}, {Name: QPS}}}},
		{name: "alpha10", sides: seedLike, opt: Options{Alpha: 0.1, Scenarios: []string{"insert.InsertPersonScenario"}}},
	}
	formats := []struct {
		ext   string
		write func(*Report, *bytes.Buffer) error
	}{
		{"txt", func(r *Report, b *bytes.Buffer) error { return r.WriteText(b) }},
		{"md", func(r *Report, b *bytes.Buffer) error { return r.WriteMarkdown(b) }},
		{"csv", func(r *Report, b *bytes.Buffer) error { return r.WriteCSV(b) }},
	}
	for _, fx := range fixtures {
		b, c := fx.sides(t)
		rep, err := Compare(b, c, fx.opt)
		if err != nil {
			t.Fatalf("%s: %v", fx.name, err)
		}
		for _, f := range formats {
			t.Run(fx.name+"."+f.ext, func(t *testing.T) {
				var buf bytes.Buffer
				if err := f.write(rep, &buf); err != nil {
					t.Fatal(err)
				}
				golden.Check(t, fx.name+".golden."+f.ext, buf.Bytes())
			})
		}
	}
}
