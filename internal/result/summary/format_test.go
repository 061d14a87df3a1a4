package summary

import (
	"reflect"
	"testing"
	"time"
)

func TestFmtMs(t *testing.T) {
	tests := []struct {
		name string
		ms   float64
		want string
	}{
		{"zero", 0, "0s"},
		{"nanoseconds", 0.0005, "500ns"},
		{"microseconds", 0.215, "215µs"},
		{"fractional microseconds truncated", 0.68747, "687.47µs"},
		{"milliseconds", 1.234, "1.23ms"},
		{"milliseconds truncated not rounded", 1.239, "1.23ms"},
		{"whole milliseconds", 8, "8ms"},
		{"seconds", 2500, "2.5s"},
		{"just under a minute", 59999, "59.99s"},
		{"minutes drop decimals", 90500, "1m30s"},
		{"hours", 3723000, "1h2m3s"},
		{"negative", -1.5, "-1.5ms"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := fmtMs(tc.ms); got != tc.want {
				t.Errorf("fmtMs(%v) = %q, want %q", tc.ms, got, tc.want)
			}
		})
	}
	if got := fmtDur(42500 * time.Millisecond); got != "42.5s" {
		t.Errorf("fmtDur(42.5s) = %q", got)
	}
}

func TestFmtNumAndPct(t *testing.T) {
	tests := []struct {
		name      string
		got, want string
	}{
		{"integer", fmtNum(4200), "4200"},
		{"two decimals", fmtNum(79.7512), "79.75"},
		{"rounded", fmtNum(0.126), "0.13"},
		{"trailing zero dropped", fmtNum(3.2), "3.2"},
		{"small", fmtNum(0.001), "0"},
		{"percent truncated", fmtPct(0.96592), "96.59%"},
		{"percent whole", fmtPct(1), "100.00%"},
		{"percent zero", fmtPct(0), "0.00%"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Errorf("got %q, want %q", tc.got, tc.want)
			}
		})
	}
}

func TestClipWrapWidth(t *testing.T) {
	tests := []struct {
		name      string
		got, want any
	}{
		{"clip short", clip("abc", 5), "abc"},
		{"clip long", clip("abcdefgh", 5), "abcd…"},
		{"clip trims the space before the ellipsis", clip("ab defgh", 4), "ab…"},
		{"clip newlines", clip("a\nb", 5), "a b"},
		{"clip multibyte", clip("µµµµµµ", 3), "µµ…"},
		{"width ignores ANSI", width("\x1b[1;31m✓ ok\x1b[0m"), 4},
		{"width counts runes", width("215µs"), 5},
		{"wrap", wrap("aa bb cc dd", 5), []string{"aa bb", "cc dd"}},
		{"wrap long word", wrap("abcdefgh x", 4), []string{"abc…", "x"}},
		{"pad", pad("µs", 4), "µs  "},
		{"padLeft", padLeft("7", 3), "  7"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !reflect.DeepEqual(tc.got, tc.want) {
				t.Errorf("got %q, want %q", tc.got, tc.want)
			}
		})
	}
}

func TestFmtBytes(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{{0, "0 B"}, {17, "17 B"}, {1234, "1.2 kB"}, {532416512, "532.4 MB"}, {177380795.26, "177.3 MB"}, {2e12, "2 TB"}} {
		if got := fmtBytes(tc.v); got != tc.want {
			t.Errorf("fmtBytes(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}
