package monitor

import (
	"fmt"
	"strconv"
	"strings"
)

// FmtBytes formats a byte count with binary units (512 B, 1.5 KiB, 3.2 GiB).
func FmtBytes(b float64) string {
	const unit = 1024
	if b < unit {
		return fmt.Sprintf("%.0f B", b)
	}
	exp, v := 0, b
	for v >= unit && exp < 5 {
		v /= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", v, "KMGTP"[exp-1])
}

// FmtBytesRate formats bytes per second with decimal units (12.3 MB/s),
// as network speeds are quoted.
func FmtBytesRate(b float64) string {
	switch {
	case b >= 1e9:
		return fmt.Sprintf("%.2f GB/s", b/1e9)
	case b >= 1e6:
		return fmt.Sprintf("%.1f MB/s", b/1e6)
	case b >= 1e3:
		return fmt.Sprintf("%.1f kB/s", b/1e3)
	}
	return fmt.Sprintf("%.0f B/s", b)
}

// FmtBits formats a link speed given in bytes per second as bits (1 Gbit/s).
func FmtBits(bytesPerSec float64) string {
	b := bytesPerSec * 8
	switch {
	case b >= 1e9:
		return strconv.FormatFloat(b/1e9, 'g', 4, 64) + " Gbit/s"
	case b >= 1e6:
		return strconv.FormatFloat(b/1e6, 'g', 4, 64) + " Mbit/s"
	}
	return strconv.FormatFloat(b, 'g', 4, 64) + " bit/s"
}

func fmtNum(x float64) string { return strconv.FormatFloat(x, 'g', 4, 64) }

// ParseNICSpeed parses a link speed in bits per second — 1G, 10Gbit,
// 25gbps, 100M, 1000Mbit/s — and returns bytes per second.
func ParseNICSpeed(s string) (float64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for _, suf := range []string{"bit/s", "bits/s", "bps", "bit", "b/s"} {
		if x, ok := strings.CutSuffix(t, suf); ok {
			t = x
			break
		}
	}
	mult := 1.0
	if n := len(t); n > 0 {
		switch t[n-1] {
		case 'k':
			mult, t = 1e3, t[:n-1]
		case 'm':
			mult, t = 1e6, t[:n-1]
		case 'g':
			mult, t = 1e9, t[:n-1]
		case 't':
			mult, t = 1e12, t[:n-1]
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || !(v > 0) || v*mult < 1e6 {
		return 0, fmt.Errorf("--nic-speed %q: want a link speed in bits per second like 1G, 10Gbit or 100M", s)
	}
	return v * mult / 8, nil
}
