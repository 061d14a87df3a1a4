package run

import (
	"strings"
	"testing"
	"time"

	"github.com/stampede-bench/stampede/internal/usage"
)

func TestCommonStart(t *testing.T) {
	now := time.Date(2026, 1, 2, 15, 4, 5, 600e6, time.UTC)
	for _, tc := range []struct {
		startAt    string
		delay      time.Duration
		delayGiven bool
		want       time.Time
		wantErr    string
	}{
		{"", 2 * time.Minute, false, time.Date(2026, 1, 2, 15, 6, 5, 0, time.UTC), ""},
		{"now+30s", 0, false, now.Add(30 * time.Second), ""},
		{"2026-01-02T16:00:00Z", 0, false, time.Date(2026, 1, 2, 16, 0, 0, 0, time.UTC), ""},
		{"now+30s", time.Minute, true, time.Time{}, "not both"},
		{"2026-01-02T15:00:00Z", 0, false, time.Time{}, "in the past"},
		{"soon", 0, false, time.Time{}, "--start-at"},
		{"", -time.Second, true, time.Time{}, "must not be negative"},
	} {
		got, err := CommonStart(tc.startAt, tc.delay, tc.delayGiven, now)
		switch {
		case tc.wantErr != "":
			if !usage.Is(err) || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("CommonStart(%q, %v) err = %v, want %q", tc.startAt, tc.delay, err, tc.wantErr)
			}
		case err != nil || !got.Equal(tc.want):
			t.Errorf("CommonStart(%q, %v) = %v, %v; want %v", tc.startAt, tc.delay, got, err, tc.want)
		}
	}
}
