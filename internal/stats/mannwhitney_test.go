package stats

import (
	"errors"
	"math"
	"testing"
)

func TestMannWhitneyU(t *testing.T) {
	// Expected values: exact p-values are k/C(10,5) = k/252 by counting
	// (see TestUCDFKnownCounts), and agree with R's wilcox.test(x, y) and
	// scipy.stats.mannwhitneyu(x, y, method="exact"); approximate ones are
	// from scipy.stats.mannwhitneyu(x, y, method="asymptotic",
	// use_continuity=True), which implements R's formula with tie
	// correction, and the first is also derived by hand below.
	tests := []struct {
		name      string
		x, y      []float64
		wantU     float64
		wantP     float64
		wantExact bool
	}{
		{
			// Every default run is slower than every optimized one:
			// U = 25, p = 2·P(U ≥ 25) = 2/252.
			name: "seed FindShortestPath avg, all separated", x: fspAvgDefault, y: fspAvgOpt,
			wantU: 25, wantP: 2.0 / 252, wantExact: true,
		},
		{
			name: "same, samples swapped", x: fspAvgOpt, y: fspAvgDefault,
			wantU: 0, wantP: 2.0 / 252, wantExact: true,
		},
		{
			// One optimized run (92458.95) beats one default run
			// (92418.43): U = 24, p = 2·P(U ≤ 1) = 2·2/252.
			name: "seed Go3Step avg, one overlap", x: go3AvgDefault, y: go3AvgOpt,
			wantU: 24, wantP: 4.0 / 252, wantExact: true,
		},
		{
			// U = 17; P(U ≤ 8) = (1+1+2+3+5+7+9+11+14)/252 = 53/252.
			name: "seed InsertPerson p95, overlapping", x: insP95Default, y: insP95Opt,
			wantU: 17, wantP: 106.0 / 252, wantExact: true,
		},
		{
			// R: wilcox.test(c(1,4,9,10,12,20,33), c(2,3,5,6,7,8,11,13,14))
			// W = 39, p-value = 0.4698 (scipy exact: 0.46975524475524477).
			name: "unequal sizes 7 vs 9", x: []float64{1, 4, 9, 10, 12, 20, 33}, y: []float64{2, 3, 5, 6, 7, 8, 11, 13, 14},
			wantU: 39, wantP: 0.46975524475524477, wantExact: true,
		},
		{
			name: "one vs one", x: []float64{1}, y: []float64{2},
			wantU: 0, wantP: 1, wantExact: true,
		},
		{
			// By hand: ranks of 1,2,2,2,3,3,4,5 are 1,3,3,3,5.5,5.5,7,8;
			// R1 = 1+3+3+5.5 = 12.5, U = 12.5 − 10 = 2.5. Ties of 3 and 2
			// give Σ(t³−t) = 24+6 = 30; σ² = 16/12·(9 − 30/56) = 11.2857;
			// z = (2.5 − 8 + 0.5)/3.35942 = −1.48835; p = 2Φ(z) = 0.13666.
			name: "ties, small, by hand", x: []float64{1, 2, 2, 3}, y: []float64{2, 3, 4, 5},
			wantU: 2.5, wantP: 0.1366582477381475,
		},
		{
			// 838 occurs on both sides, so no exact p-value.
			name: "seed Go1Step p95, one tie", x: go1P95Default, y: go1P95Opt,
			wantU: 23.5, wantP: 0.027802962434649296,
		},
		{
			name: "ties, 8 vs 9", x: []float64{1.5, 2.5, 2.5, 4, 5, 5, 5, 7}, y: []float64{2.5, 3, 5, 6, 8, 9, 9, 9, 10},
			wantU: 14.5, wantP: 0.04101394572844497,
		},
		{
			name: "no ties but large: normal approximation", x: seq(60, 0, 1), y: seq(55, 5.25, 1.01),
			wantU: 1485, wantP: 0.3570383247916088,
		},
		{
			name: "all values equal", x: []float64{7, 7, 7}, y: []float64{7, 7},
			wantU: 3, wantP: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := MannWhitneyU(tt.x, tt.y)
			if err != nil {
				t.Fatal(err)
			}
			if got.U != tt.wantU {
				t.Errorf("U = %v, want %v", got.U, tt.wantU)
			}
			if math.Abs(got.P-tt.wantP) > 1e-9 {
				t.Errorf("P = %.12g, want %.12g", got.P, tt.wantP)
			}
			if got.Exact != tt.wantExact {
				t.Errorf("Exact = %v, want %v", got.Exact, tt.wantExact)
			}
			if got.N1 != len(tt.x) || got.N2 != len(tt.y) {
				t.Errorf("N1, N2 = %d, %d, want %d, %d", got.N1, got.N2, len(tt.x), len(tt.y))
			}
		})
	}
}

func TestMannWhitneyUErrors(t *testing.T) {
	tests := []struct {
		name string
		x, y []float64
		want error
	}{
		{"empty x", nil, []float64{1}, ErrNoData},
		{"empty y", []float64{1}, []float64{}, ErrNoData},
		{"NaN", []float64{1, math.NaN()}, []float64{1}, ErrBadValue},
		{"Inf", []float64{1}, []float64{math.Inf(1)}, ErrBadValue},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := MannWhitneyU(tt.x, tt.y); !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

// TestUCDFKnownCounts checks the null distribution for 5 vs 5 against the
// coefficients of the Gaussian binomial [10 choose 5]_q.
func TestUCDFKnownCounts(t *testing.T) {
	want := []float64{1, 1, 2, 3, 5, 7, 9, 11, 14, 16, 18, 19, 20, 20, 19, 18, 16, 14, 11, 9, 7, 5, 3, 2, 1, 1}
	cum := uCDF(5, 5)
	prev := 0.0
	for k, w := range want {
		if got := cum[k] - prev; got != w {
			t.Errorf("count(U=%d) = %v, want %v", k, got, w)
		}
		prev = cum[k]
	}
}

// TestUCDFBruteForce compares uCDF with a direct count over every way of
// choosing which of the n1+n2 ranked positions belong to x.
func TestUCDFBruteForce(t *testing.T) {
	for n1 := 1; n1 <= 6; n1++ {
		for n2 := 1; n2 <= 6; n2++ {
			counts := make([]float64, n1*n2+1)
			n := n1 + n2
			for mask := 0; mask < 1<<n; mask++ {
				if popcount(mask) != n1 {
					continue
				}
				// U = Σ over x positions of the y's ranked below it.
				u, ys := 0, 0
				for pos := 0; pos < n; pos++ {
					if mask&(1<<pos) != 0 {
						u += ys
					} else {
						ys++
					}
				}
				counts[u]++
			}
			cum := uCDF(n1, n2)
			acc := 0.0
			for k, c := range counts {
				acc += c
				if cum[k] != acc {
					t.Fatalf("n1=%d n2=%d: cum[%d] = %v, want %v", n1, n2, k, cum[k], acc)
				}
			}
		}
	}
}

// TestExactAgreesWithApproximation checks that the two paths agree where
// both are reasonable: no ties, 30 vs 30, every possible U (the approximation error is
// O(1/n); its largest here is about 0.003).
func TestExactAgreesWithApproximation(t *testing.T) {
	const n1, n2 = 30, 30
	cum := uCDF(n1, n2)
	for u := 0; u <= n1*n2; u++ {
		exact := exactP(u, cum)
		_, approx := approxP(float64(u), n1, n2, 0)
		if math.Abs(exact-approx) > 0.005 {
			t.Errorf("U=%d: exact P = %v, approximate P = %v; want within 0.005", u, exact, approx)
		}
	}
}

func TestMinPValue(t *testing.T) {
	tests := []struct {
		name   string
		n1, n2 int
		want   float64
	}{
		{"5 vs 5", 5, 5, 2.0 / 252},
		{"4 vs 4", 4, 4, 2.0 / 70},
		{"3 vs 3 cannot reach 0.05", 3, 3, 0.1},
		{"3 vs 5", 3, 5, 2.0 / 56},
		{"1 vs 1", 1, 1, 1},
		{"empty", 0, 5, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := MinPValue(tt.n1, tt.n2); math.Abs(got-tt.want) > 1e-15 {
				t.Errorf("MinPValue(%d, %d) = %v, want %v", tt.n1, tt.n2, got, tt.want)
			}
		})
	}
	// The minimum is reached: the exact p of perfectly separated samples.
	r, _ := MannWhitneyU(seq(5, 10, 1), seq(5, 0, 1))
	if math.Abs(r.P-MinPValue(5, 5)) > 1e-15 {
		t.Errorf("separated 5 vs 5: P = %v, want MinPValue = %v", r.P, MinPValue(5, 5))
	}
}

func TestMinRuns(t *testing.T) {
	tests := []struct {
		alpha float64
		want  int
	}{{0.05, 4}, {0.01, 5}, {0.1, 4}, {0.2, 3}, {0, 0}, {1.5, 0}}
	for _, tt := range tests {
		if got := MinRuns(tt.alpha); got != tt.want {
			t.Errorf("MinRuns(%v) = %d, want %d", tt.alpha, got, tt.want)
		}
	}
}

func BenchmarkMannWhitneyUExact(b *testing.B) {
	x, y := seq(40, 0, 1.07), seq(40, 4.5, 1)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := MannWhitneyU(x, y); err != nil {
			b.Fatal(err)
		}
	}
}

// seq returns n values start, start+step, ...
func seq(n int, start, step float64) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = start + float64(i)*step
	}
	return xs
}

func popcount(x int) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}
