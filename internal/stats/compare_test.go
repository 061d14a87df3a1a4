package stats

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"
	"text/tabwriter"

	"github.com/stampede-bench/stampede/internal/golden"
)

func TestCompare(t *testing.T) {
	tests := []struct {
		name            string
		base, cand      []float64
		alpha           float64
		wantSignificant bool
		wantString      string
		wantNote        string // substring; "" means Note must be empty
		wantCI          bool
	}{
		{
			name: "seed FindShortestPath avg: 10% faster", base: fspAvgDefault, cand: fspAvgOpt, alpha: 0.05,
			wantSignificant: true, wantString: "-10.22% (p=0.008 n=5)", wantCI: true,
		},
		{
			name: "seed InsertPerson p95: no supported difference", base: insP95Default, cand: insP95Opt, alpha: 0.05,
			wantString: "~ (p=0.421 n=5)", wantCI: true,
		},
		{
			name: "alpha 0.01 still reachable with 5 runs", base: fspAvgDefault, cand: fspAvgOpt, alpha: 0.01,
			wantSignificant: true, wantString: "-10.22% (p=0.008 n=5)", wantCI: true,
		},
		{
			name: "bad alpha falls back to 0.05", base: fspAvgDefault, cand: fspAvgOpt, alpha: 0,
			wantSignificant: true, wantString: "-10.22% (p=0.008 n=5)", wantCI: true,
		},
		{
			name: "too few runs", base: fspAvgDefault[:3], cand: fspAvgOpt[:3], alpha: 0.05,
			wantString: "~ (p=0.100 n=3)",
			wantNote:   "too few runs: 3 vs 3 can never reach p<0.05 (smallest p is 0.1); need ≥4 per side",
		},
		{
			name: "unequal sizes", base: fspAvgDefault, cand: fspAvgOpt[:4], alpha: 0.05,
			wantSignificant: true, wantString: "-10.22% (p=0.016 n=5+4)", wantCI: true,
		},
		{
			name: "no candidate runs", base: fspAvgDefault, cand: nil, alpha: 0.05,
			wantString: "~ (n=5+0)", wantNote: "cannot compare: y: empty sample",
		},
		{
			name: "zero throughput has no ratio interval", base: []float64{0, 1, 2, 3, 4}, cand: []float64{5, 6, 7, 8, 9}, alpha: 0.05,
			wantSignificant: true, wantString: "+250.00% (p=0.008 n=5)", wantNote: "no confidence interval: base[0] = 0, want > 0",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Compare(tt.base, tt.cand, tt.alpha)
			if v.Significant != tt.wantSignificant {
				t.Errorf("Significant = %v, want %v (%+v)", v.Significant, tt.wantSignificant, v)
			}
			if got := v.String(); got != tt.wantString {
				t.Errorf("String() = %q, want %q", got, tt.wantString)
			}
			if tt.wantNote == "" && v.Note != "" || !strings.Contains(v.Note, tt.wantNote) {
				t.Errorf("Note = %q, want %q", v.Note, tt.wantNote)
			}
			if hasCI := !math.IsNaN(v.Lo) && !math.IsNaN(v.Hi); hasCI != tt.wantCI {
				t.Errorf("CI = [%v, %v], want present = %v", v.Lo, v.Hi, tt.wantCI)
			}
			if tt.wantCI && (v.Shift < v.Lo || v.Shift > v.Hi) {
				t.Errorf("Shift %v outside CI [%v, %v]", v.Shift, v.Lo, v.Hi)
			}
			if tt.wantCI && v.Significant == (v.Lo <= 0 && 0 <= v.Hi) {
				t.Errorf("Significant = %v but CI [%v, %v]: test and interval disagree", v.Significant, v.Lo, v.Hi)
			}
		})
	}
}

// TestCompareSeedGolden reproduces the seed's AutoFDO table with the
// statistics stampede adds (p-value, interval, verdict). Rewrite the golden
// file with go test -run TestCompareSeedGolden -update.
func TestCompareSeedGolden(t *testing.T) {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "column\tdefault mean\tSTDDEVP/Mean\toptimized mean\tSTDDEVP/Mean\tOpt/Default\tU\t95% CI\tverdict")
	for _, c := range seedColumns {
		v := Compare(c.defaults, c.opt, 0.05)
		fmt.Fprintf(tw, "%s\t%.2f\t%.2f%%\t%.2f\t%.2f%%\t%.2f%%\t%g\t[%+.2f%%, %+.2f%%]\t%s\n",
			c.name, v.BaseMean, 100*CV(c.defaults), v.CandMean, 100*CV(c.opt),
			-100*v.Delta, v.U, 100*v.Lo, 100*v.Hi, v)
	}
	tw.Flush()
	golden.Check(t, "seed_autofdo.golden", buf.Bytes())
}
