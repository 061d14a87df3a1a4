package datagen

import (
	"math"
	"strconv"
	"testing"

	"github.com/stampede-bench/stampede/internal/usage"
)

func TestPersonsForSF(t *testing.T) {
	tests := []struct {
		sf      float64
		want    int
		wantErr bool
	}{
		{0.1, 1_700, false},
		{0.3, 3_900, false},
		{1, 11_000, false},
		{3, 27_000, false},
		{10, 73_000, false},
		{30, 184_000, false},
		{100, 499_000, false},
		{0.01, 110, false},
		{0.05, 550, false},
		{0.0001, minTestPersons, false}, // floor
		{2, 0, true},
		{0.2, 0, true},
		{300, 0, true},
		{0, 0, true},
		{-1, 0, true},
		{math.NaN(), 0, true},
		{math.Inf(1), 0, true},
	}
	for _, tc := range tests {
		got, err := PersonsForSF(tc.sf)
		if tc.wantErr {
			if !usage.Is(err) {
				t.Errorf("PersonsForSF(%v) err = %v, want a usage error", tc.sf, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("PersonsForSF(%v) = %d, %v; want %d", tc.sf, got, err, tc.want)
		}
	}
}

func TestKnowsForSFHitsLDBCAnchors(t *testing.T) {
	for _, row := range scaleTable() {
		got, err := KnowsForSF(row.sf)
		if err != nil {
			t.Fatal(err)
		}
		if row.knows != 0 && got != row.knows {
			t.Errorf("KnowsForSF(%v) = %d, want LDBC's %d", row.sf, got, row.knows)
		}
		// Interpolated SFs stay between their neighbours' mean degrees.
		mean := 2 * float64(got) / float64(row.persons)
		if f := ldbcMeanDegree(row.persons); mean < 0.85*f || mean > 1.1*f {
			t.Errorf("SF %v: mean degree %.1f far from LDBC's formula %.1f", row.sf, mean, f)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
	}{
		{"unknown SF", Config{SF: 2, Out: "x"}},
		{"no out", Config{SF: 1}},
		{"negative workers", Config{SF: 1, Out: "x", Workers: -1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := tc.cfg.validate(); !usage.Is(err) {
				t.Errorf("err = %v, want a usage error", err)
			}
		})
	}
}

func TestPersonIDs(t *testing.T) {
	tests := []struct {
		name    string
		seq     int64
		created int64
		want    int64
	}{
		{"first bucket", 933, startMs, 933},
		{"bucket 2", 0, startMs + 2*endMs/idBuckets + 1, 4398046511104},
		{"last day", 5, endMs - 1, 17<<idSeqBits | 5},
	}
	for _, tc := range tests {
		if got := personID(tc.seq, tc.created); got != tc.want {
			t.Errorf("%s: personID = %d, want %d", tc.name, got, tc.want)
		}
	}
}

func formatFloat(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}
