package stats

import (
	"math"
	"slices"
	"testing"
)

func TestDescribe(t *testing.T) {
	// want* are the seed table's STDDEVP, Mean and STDDEVP/Mean rows
	// (rounded to 0.01 there, so compared within 0.01), except the
	// hand-computed cases.
	tests := []struct {
		name                      string
		xs                        []float64
		wantMean, wantSD, wantCV  float64
		wantMedian                float64
		tolMean, tolSD, tolCVPerc float64
	}{
		{
			// Mean 5; squared deviations 9,1,1,1,0,0,4,16 sum to 32;
			// 32/8 = 4; sqrt = 2.
			name: "hand computed", xs: []float64{2, 4, 4, 4, 5, 5, 7, 9},
			wantMean: 5, wantSD: 2, wantCV: 40, wantMedian: 4.5,
			tolMean: 1e-12, tolSD: 1e-12, tolCVPerc: 1e-10,
		},
		{
			name: "single value", xs: []float64{3},
			wantMean: 3, wantSD: 0, wantCV: 0, wantMedian: 3,
			tolMean: 0, tolSD: 0, tolCVPerc: 0,
		},
		{
			name: "seed FindShortestPath avg default", xs: fspAvgDefault,
			wantMean: 8063.71, wantSD: 20.57, wantCV: 0.26, wantMedian: 8072.52,
			tolMean: 0.01, tolSD: 0.01, tolCVPerc: 0.005,
		},
		{
			// The seed prints 17.34; the exact value is 17.3457.
			name: "seed FindShortestPath avg optimized", xs: fspAvgOpt,
			wantMean: 7239.43, wantSD: 17.34, wantCV: 0.24, wantMedian: 7239.85,
			tolMean: 0.01, tolSD: 0.01, tolCVPerc: 0.005,
		},
		{
			name: "seed FindShortestPath p95 default", xs: fspP95Default,
			wantMean: 22126.77, wantSD: 41.41, wantCV: 0.19, wantMedian: 22143,
			tolMean: 0.01, tolSD: 0.01, tolCVPerc: 0.005,
		},
		{
			name: "seed Go1Step avg default", xs: go1AvgDefault,
			wantMean: 433.58, wantSD: 8.02, wantCV: 1.85, wantMedian: 432.37,
			tolMean: 0.01, tolSD: 0.01, tolCVPerc: 0.005,
		},
		{
			name: "seed Go3Step avg optimized", xs: go3AvgOpt,
			wantMean: 90425.17, wantSD: 1059.54, wantCV: 1.17, wantMedian: 89977.25,
			tolMean: 0.01, tolSD: 0.01, tolCVPerc: 0.005,
		},
		{
			name: "seed InsertPerson p95 optimized", xs: insP95Opt,
			wantMean: 2551.29, wantSD: 82.62, wantCV: 3.24, wantMedian: 2581,
			tolMean: 0.01, tolSD: 0.01, tolCVPerc: 0.005,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Mean(tt.xs); math.Abs(got-tt.wantMean) > tt.tolMean {
				t.Errorf("Mean = %v, want %v ±%v", got, tt.wantMean, tt.tolMean)
			}
			if got := StdDevP(tt.xs); math.Abs(got-tt.wantSD) > tt.tolSD {
				t.Errorf("StdDevP = %v, want %v ±%v", got, tt.wantSD, tt.tolSD)
			}
			if got := 100 * CV(tt.xs); math.Abs(got-tt.wantCV) > tt.tolCVPerc {
				t.Errorf("CV = %v%%, want %v%% ±%v", got, tt.wantCV, tt.tolCVPerc)
			}
			if got := Median(tt.xs); got != tt.wantMedian {
				t.Errorf("Median = %v, want %v", got, tt.wantMedian)
			}
		})
	}
}

func TestDescribeEmpty(t *testing.T) {
	for name, f := range map[string]func([]float64) float64{
		"Mean": Mean, "StdDevP": StdDevP, "CV": CV, "Median": Median,
	} {
		if got := f(nil); !math.IsNaN(got) {
			t.Errorf("%s(nil) = %v, want NaN", name, got)
		}
	}
}

func TestMedianDoesNotModifyInput(t *testing.T) {
	xs := []float64{3, 1, 2}
	Median(xs)
	if xs[0] != 3 || xs[1] != 1 || xs[2] != 2 {
		t.Errorf("Median modified its input: %v", xs)
	}
}

// Median returns the median of xs (the mean of the two middle values when
// len(xs) is even), or NaN when xs is empty. xs is not modified.
func Median(xs []float64) float64 {
	n := len(xs)
	if n == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
