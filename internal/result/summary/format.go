package summary

import (
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// fmtMs formats a duration given in milliseconds as k6 does: two decimals
// at most, truncated, trailing zeros dropped, in the largest unit below
// the value: 215µs, 1.23ms, 2.5s, 1m30s, 1h2m3s.
func fmtMs(ms float64) string {
	switch {
	case ms == 0:
		return "0s"
	case ms < 0:
		return "-" + fmtMs(-ms)
	case ms < 0.001:
		return strconv.FormatInt(int64(ms*1e6), 10) + "ns"
	case ms < 1:
		return trunc2(ms*1000) + "µs"
	case ms < 1000:
		return trunc2(ms) + "ms"
	}
	s := trunc2(math.Mod(ms, 60000)/1000) + "s"
	if ms > 60000 {
		s = strconv.FormatInt(int64(math.Mod(ms, 60000)/1000), 10) + "s"
	}
	m := int64(ms / 60000)
	if m < 1 {
		return s
	}
	if m < 60 {
		return strconv.FormatInt(m, 10) + "m" + s
	}
	return strconv.FormatInt(m/60, 10) + "h" + strconv.FormatInt(m%60, 10) + "m" + s
}

// fmtDur formats a wall duration compactly (fmtMs).
func fmtDur(d time.Duration) string { return fmtMs(float64(d) / float64(time.Millisecond)) }

// trunc2 truncates v to two decimals and drops trailing zeros.
func trunc2(v float64) string {
	return trimZeros(strconv.FormatFloat(math.Trunc(v*100)/100, 'f', 2, 64))
}

// fmtNum formats a plain number rounded to two decimals, trailing zeros
// dropped: 300, 79.52, 0.03.
func fmtNum(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatInt(int64(v), 10)
	}
	return trimZeros(strconv.FormatFloat(v, 'f', 2, 64))
}

func trimZeros(s string) string {
	if strings.IndexByte(s, '.') < 0 {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// fmtPct formats a fraction as a percentage truncated to two decimals, as
// k6 shows rates: 96.59%.
func fmtPct(frac float64) string {
	return strconv.FormatFloat(math.Trunc(frac*100*100)/100, 'f', 2, 64) + "%"
}

// width is the number of terminal columns s takes: every rune counts one
// (the summary only uses single-width symbols), ANSI escapes none.
func width(s string) int {
	n, esc := 0, false
	for _, r := range s {
		switch {
		case r == '\x1b':
			esc = true
		case esc:
			if r >= 0x40 && r <= 0x7e && r != '[' {
				esc = false
			}
		default:
			n++
		}
	}
	return n
}

// clip shortens s to at most n columns, ending with "…" when cut. Control
// characters (newlines in error messages) become spaces.
func clip(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	var b strings.Builder
	i := 0
	for _, r := range s {
		if i == n-1 {
			break
		}
		b.WriteRune(r)
		i++
	}
	return strings.TrimRight(b.String(), " ") + "…"
}

// pad appends spaces to s up to n columns.
func pad(s string, n int) string {
	if w := width(s); w < n {
		return s + strings.Repeat(" ", n-w)
	}
	return s
}

// padLeft prepends spaces to s up to n columns.
func padLeft(s string, n int) string {
	if w := width(s); w < n {
		return strings.Repeat(" ", n-w) + s
	}
	return s
}

// wrap breaks text into lines of at most n columns at spaces; words longer
// than n are clipped.
func wrap(text string, n int) []string {
	var lines []string
	cur := ""
	for _, word := range strings.Fields(clip(text, 1<<30)) {
		word = clip(word, n)
		switch {
		case cur == "":
			cur = word
		case width(cur)+1+width(word) <= n:
			cur += " " + word
		default:
			lines = append(lines, cur)
			cur = word
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// style applies ANSI SGR codes when colors are on.
type style bool

// ANSI SGR codes used by k6's summary.
const (
	bold   = "1"
	faint  = "2"
	red    = "31"
	green  = "32"
	yellow = "33"
	cyan   = "36"
)

func (c style) paint(s string, codes ...string) string {
	if !c || s == "" {
		return s
	}
	return "\x1b[" + strings.Join(codes, ";") + "m" + s + "\x1b[0m"
}

// fmtBytes formats a size in bytes as k6 shows data: SI units, one
// decimal at most: 532 MB, 1.2 kB, 17 B.
func fmtBytes(v float64) string {
	units := []string{"B", "kB", "MB", "GB", "TB", "PB"}
	i := 0
	for math.Abs(v) >= 1000 && i < len(units)-1 {
		v /= 1000
		i++
	}
	return trimZeros(strconv.FormatFloat(math.Trunc(v*10)/10, 'f', 1, 64)) + " " + units[i]
}
