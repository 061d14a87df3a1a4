package metrics

import "testing"

// TestClassFor: a batch is sized to its VU's last one, with a quarter to
// spare, doubling after one that filled up, from 8 to 512 samples.
func TestClassFor(t *testing.T) {
	for _, tc := range []struct {
		last, prev int
		full       bool
		want       int // capacity in samples
	}{
		{3, 8, false, 8},       // an idle VU stays small
		{5, 8, true, 16},       // one that filled up doubles
		{100, 128, false, 128}, // 125 fits 128
		{110, 128, false, 256}, // 137 does not
		{121, 128, true, 256},  // the last one filled up
		{510, 512, true, 512},  // never above batchCap
		{10, 512, false, 16},   // a VU that slowed down shrinks
	} {
		if got := smallBatchCap << classFor(tc.last, tc.prev, tc.full); got != tc.want {
			t.Errorf("classFor(%d, %d, %v) = %d samples, want %d", tc.last, tc.prev, tc.full, got, tc.want)
		}
	}
	for _, c := range []int{8, 16, 512, 1024} {
		if got, want := smallBatchCap<<classOf(c), min(c, batchCap); got != want {
			t.Errorf("classOf(%d) = %d samples, want %d", c, got, want)
		}
	}
}
