package msgopt

import "testing"

// TestMaxRateValidate: the defaults pass, each knob out of range is
// named with the family's flag prefix.
func TestMaxRateValidate(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*MaxRate)
		want   string
	}{
		{"defaults", func(*MaxRate) {}, ""},
		{"start", func(o *MaxRate) { o.MaxRateStart = 0 }, "--nats-max-rate-start must be ≥ 1"},
		{"step", func(o *MaxRate) { o.MaxRateStep = 0 }, "--nats-max-rate-step must be > 0"},
		{"errors", func(o *MaxRate) { o.MaxRateErrors = -0.1 }, "--nats-max-rate-errors must be ≥ 0"},
		{"precision 0", func(o *MaxRate) { o.MaxRatePrecision = 0 }, "--nats-max-rate-precision must be in (0,1)"},
		{"precision 1", func(o *MaxRate) { o.MaxRatePrecision = 1 }, "--nats-max-rate-precision must be in (0,1)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := DefaultMaxRate()
			tc.change(&o)
			err := o.Validate("--nats-")
			if (err == nil) != (tc.want == "") || err != nil && err.Error() != tc.want {
				t.Errorf("Validate = %v, want %q", err, tc.want)
			}
		})
	}
}
