package stats

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func TestChangeCI(t *testing.T) {
	// Expected bounds: exp of the 3rd and 23rd of the 25 sorted pairwise
	// differences log(cand) − log(base), computed independently (Python);
	// k = 3 for 5 vs 5 at 0.95 because P(U ≤ 2) = 4/252 < 0.025 ≤
	// P(U ≤ 3) = 7/252, the same rank as R's
	// wilcox.test(log(cand), log(base), conf.int=TRUE).
	tests := []struct {
		name             string
		base, cand       []float64
		level            float64
		wantLo, wantHi   float64
		wantShift        float64
		wantContainsZero bool
	}{
		{
			name: "seed FindShortestPath avg", base: fspAvgDefault, cand: fspAvgOpt, level: 0.95,
			wantLo: -0.10652942654472614, wantHi: -0.09753790350749494, wantShift: -0.10232378710282,
		},
		{
			name: "seed InsertPerson p95 straddles zero", base: insP95Default, cand: insP95Opt, level: 0.95,
			wantLo: -0.08641645518899412, wantHi: 0.018460329929301328, wantShift: -0.020658237262923488,
			wantContainsZero: true,
		},
		{
			// 3 vs 3 at 0.80: P(U ≤ 0) = 1/20 < 0.10 but P(U ≤ 1) = 2/20
			// is not below 0.10, so k = 1 (coverage 0.90; R's qwilcox
			// picks the same). The sorted ratios cand/base are 4/3, 5/3,
			// 2, 2, 5/2, 3, 4, 5, 6: the 1st and 9th give the interval,
			// the 5th the estimate.
			name: "3 vs 3 at 0.80 by hand", base: []float64{1, 2, 3}, cand: []float64{4, 5, 6}, level: 0.8,
			wantLo: 4.0/3 - 1, wantHi: 5, wantShift: 1.5,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lo, hi, err := ChangeCI(tt.base, tt.cand, tt.level)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(lo-tt.wantLo) > 1e-12 || math.Abs(hi-tt.wantHi) > 1e-12 {
				t.Errorf("CI = [%v, %v], want [%v, %v]", lo, hi, tt.wantLo, tt.wantHi)
			}
			if got := lo <= 0 && 0 <= hi; got != tt.wantContainsZero {
				t.Errorf("CI [%v, %v] contains 0 = %v, want %v", lo, hi, got, tt.wantContainsZero)
			}
			shift, err := ShiftEstimate(tt.base, tt.cand)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(shift-tt.wantShift) > 1e-12 {
				t.Errorf("ShiftEstimate = %v, want %v", shift, tt.wantShift)
			}
			if shift < lo || shift > hi {
				t.Errorf("ShiftEstimate %v outside CI [%v, %v]", shift, lo, hi)
			}
		})
	}
}

func TestChangeCIErrors(t *testing.T) {
	five := []float64{1, 2, 3, 4, 5}
	tests := []struct {
		name       string
		base, cand []float64
		level      float64
		want       error
	}{
		{"3 vs 3 at 0.95", []float64{1, 2, 3}, []float64{4, 5, 6}, 0.95, ErrTooFewRuns},
		{"5 vs 5 at 0.999", five, five, 0.999, ErrTooFewRuns},
		{"empty base", nil, five, 0.95, ErrNoData},
		{"zero value", five, []float64{1, 0, 2}, 0.95, ErrBadValue},
		{"negative value", []float64{-1, 2, 3}, five, 0.95, ErrBadValue},
		{"level 1", five, five, 1, ErrBadValue},
		{"level 0", five, five, 0, ErrBadValue},
		{"level NaN", five, five, math.NaN(), ErrBadValue},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lo, hi, err := ChangeCI(tt.base, tt.cand, tt.level)
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if !math.IsNaN(lo) || !math.IsNaN(hi) {
				t.Errorf("bounds = [%v, %v], want NaN", lo, hi)
			}
		})
	}
}

// TestChangeCICoverage simulates base runs from a skewed distribution and
// candidate runs from the same distribution scaled by a known ratio, and
// checks that the interval contains the true change about as often as its
// level promises. The generator is seeded, so the test is deterministic.
func TestChangeCICoverage(t *testing.T) {
	tests := []struct {
		name     string
		n1, n2   int
		level    float64
		trials   int
		ratio    float64
		draw     func(r *rand.Rand) float64
		min, max float64 // accepted coverage
	}{
		{
			// Exact coverage is 1 − 2·4/252 = 0.968; the binomial
			// standard error over 2000 trials is 0.004.
			name: "5 vs 5, lognormal latencies, 10% faster", n1: 5, n2: 5, level: 0.95, trials: 2000, ratio: 0.9,
			draw: func(r *rand.Rand) float64 { return 8000 * math.Exp(0.01*r.NormFloat64()) },
			min:  0.955, max: 0.98,
		},
		{
			name: "8 vs 6, exponential tail, 3% slower", n1: 8, n2: 6, level: 0.9, trials: 2000, ratio: 1.03,
			draw: func(r *rand.Rand) float64 { return 400 + 20*r.ExpFloat64() },
			min:  0.89, max: 0.93,
		},
		{
			name: "60 vs 60, approximate ranks", n1: 60, n2: 60, level: 0.95, trials: 300, ratio: 0.97,
			draw: func(r *rand.Rand) float64 { return 2000 * math.Exp(0.05*r.NormFloat64()) },
			min:  0.92, max: 0.98,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 2))
			truth := tt.ratio - 1
			covered := 0
			for range tt.trials {
				base := make([]float64, tt.n1)
				cand := make([]float64, tt.n2)
				for i := range base {
					base[i] = tt.draw(r)
				}
				for i := range cand {
					cand[i] = tt.ratio * tt.draw(r)
				}
				lo, hi, err := ChangeCI(base, cand, tt.level)
				if err != nil {
					t.Fatal(err)
				}
				if lo <= truth && truth <= hi {
					covered++
				}
			}
			got := float64(covered) / float64(tt.trials)
			if got < tt.min || got > tt.max {
				t.Errorf("coverage = %.3f, want in [%v, %v]", got, tt.min, tt.max)
			}
		})
	}
}

// TestChangeCIAgreesWithTest checks the duality the method promises: with
// exact p-values, the interval at level 1 − alpha excludes no change
// exactly when p < alpha.
func TestChangeCIAgreesWithTest(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 500 {
		n1, n2 := 4+r.IntN(5), 4+r.IntN(5)
		shift := 1 + 0.1*r.NormFloat64()
		base, cand := make([]float64, n1), make([]float64, n2)
		for i := range base {
			base[i] = 100 * math.Exp(0.05*r.NormFloat64())
		}
		for i := range cand {
			cand[i] = shift * 100 * math.Exp(0.05*r.NormFloat64())
		}
		for _, alpha := range []float64{0.05, 0.1, 0.2} {
			v := Compare(base, cand, alpha)
			if !v.Exact || math.IsNaN(v.Lo) {
				continue
			}
			excludesZero := v.Lo > 0 || v.Hi < 0
			if excludesZero != v.Significant {
				t.Fatalf("trial %d, alpha %v: p = %v but CI [%v, %v]", trial, alpha, v.P, v.Lo, v.Hi)
			}
		}
	}
}
