package ldbcfile

import (
	"testing"
	"time"
)

// Epoch milliseconds are accepted for the years the ISO layouts (and the
// formatters) can write, 0000..9999, and refused outside: a year-27,000
// creationDate would otherwise load as ":525-12-17...".
func TestParseMillisRange(t *testing.T) {
	tests := []struct {
		in   string
		want time.Time // zero: refused
	}{
		{"0", time.Unix(0, 0).UTC()},
		{"-62167219200000", time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC)},
		{"-62167219200001", time.Time{}},
		{"253402300799999", time.Date(9999, 12, 31, 23, 59, 59, 999e6, time.UTC)},
		{"253402300800000", time.Time{}},
		{"270000000000000", time.Time{}},
		{"999999999999999", time.Time{}},
		{"1266161530447", time.Date(2010, 2, 14, 15, 32, 10, 447e6, time.UTC)},
	}
	for _, tc := range tests {
		got, err := ParseMillis([]byte(tc.in))
		switch {
		case tc.want.IsZero() && err == nil:
			t.Errorf("%s accepted as %v", tc.in, got)
		case !tc.want.IsZero() && (err != nil || !got.Equal(tc.want)):
			t.Errorf("%s = %v, %v; want %v", tc.in, got, err, tc.want)
		case err == nil && string(AppendDateTime(nil, got)) != got.Format(DateTimeLayout):
			t.Errorf("%s writes as %q, want %q", tc.in, AppendDateTime(nil, got), got.Format(DateTimeLayout))
		}
	}
}
