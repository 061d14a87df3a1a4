package ldbcfile

import (
	"errors"
	"math"
	"strconv"
	"time"
)

const msPerDay = 24 * 60 * 60 * 1000

// AppendDateTime appends t in DateTimeLayout (UTC, millisecond precision)
// without going through time.Format; it is the hot-path formatter of the
// generator. Years outside 0..9999 are not supported.
func AppendDateTime(dst []byte, t time.Time) []byte {
	return AppendDateTimeMillis(dst, t.UnixMilli())
}

// AppendDateTimeMillis appends the instant ms (milliseconds since the Unix
// epoch, UTC) in DateTimeLayout, e.g. 2010-03-04T05:06:07.089+0000.
func AppendDateTimeMillis(dst []byte, ms int64) []byte {
	days := ms / msPerDay
	rem := ms % msPerDay
	if rem < 0 {
		rem += msPerDay
		days--
	}
	dst = AppendDateDays(dst, days)
	h := rem / 3_600_000
	rem %= 3_600_000
	m := rem / 60_000
	rem %= 60_000
	s := rem / 1000
	milli := rem % 1000
	return append(dst, 'T',
		byte('0'+h/10), byte('0'+h%10), ':',
		byte('0'+m/10), byte('0'+m%10), ':',
		byte('0'+s/10), byte('0'+s%10), '.',
		byte('0'+milli/100), byte('0'+milli/10%10), byte('0'+milli%10),
		'+', '0', '0', '0', '0')
}

// AppendDate appends the UTC calendar date of t in DateLayout.
func AppendDate(dst []byte, t time.Time) []byte {
	return AppendDateTimeMillis(dst, t.UnixMilli())[:len(dst)+len(DateLayout)]
}

// AppendDateDays appends the date that lies days days after 1970-01-01 in
// DateLayout, e.g. 1984-07-01.
func AppendDateDays(dst []byte, days int64) []byte {
	y, mo, d := civil(days)
	return append(dst,
		byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10), '-',
		byte('0'+mo/10), byte('0'+mo%10), '-',
		byte('0'+d/10), byte('0'+d%10))
}

// civil converts days since 1970-01-01 to a proleptic Gregorian date
// (Howard Hinnant's days_from_civil inverse).
func civil(days int64) (y, m, d int64) {
	z := days + 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era = (z - 146096) / 146097
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	if mp < 10 {
		m = mp + 3
	} else {
		m = mp - 9
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

// ParseDateTime parses b in DateTimeLayout. It is allocation-free for
// well-formed input; the zone must be +0000.
func ParseDateTime(b []byte) (time.Time, error) {
	// 2006-01-02T15:04:05.000+0000
	if len(b) != len(DateTimeLayout) || b[10] != 'T' || b[13] != ':' || b[16] != ':' ||
		b[19] != '.' || string(b[23:]) != "+0000" {
		return time.Time{}, dateErr(b, DateTimeLayout)
	}
	y, mo, d, ok := parseYMD(b[:10])
	h, ok1 := digits(b[11:13])
	mi, ok2 := digits(b[14:16])
	s, ok3 := digits(b[17:19])
	ms, ok4 := digits(b[20:23])
	if !ok || !ok1 || !ok2 || !ok3 || !ok4 || h > 23 || mi > 59 || s > 59 {
		return time.Time{}, dateErr(b, DateTimeLayout)
	}
	return time.Date(y, time.Month(mo), d, h, mi, s, ms*1e6, time.UTC), nil
}

// ParseDate parses b in DateLayout as midnight UTC.
func ParseDate(b []byte) (time.Time, error) {
	y, mo, d, ok := parseYMD(b)
	if !ok {
		return time.Time{}, dateErr(b, DateLayout)
	}
	return time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC), nil
}

func parseYMD(b []byte) (y, m, d int, ok bool) {
	if len(b) != 10 || b[4] != '-' || b[7] != '-' {
		return 0, 0, 0, false
	}
	y, ok1 := digits(b[0:4])
	m, ok2 := digits(b[5:7])
	d, ok3 := digits(b[8:10])
	if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || d < 1 || d > daysIn(y, m) {
		return 0, 0, 0, false
	}
	return y, m, d, true
}

func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

func digits(b []byte) (int, bool) {
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

func dateErr(b []byte, layout string) error {
	return errors.New("bad date " + strconv.Quote(cut(b)) + ": want " + layout)
}

// ParseID parses a non-negative decimal entity id without allocating.
func ParseID(b []byte) (int64, error) {
	if len(b) == 0 || len(b) > 19 {
		return 0, errors.New("bad id " + strconv.Quote(cut(b)))
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, errors.New("bad id " + strconv.Quote(cut(b)))
		}
		d := int64(c - '0')
		if n > (math.MaxInt64-d)/10 {
			return 0, errors.New("id out of range " + strconv.Quote(cut(b)))
		}
		n = n*10 + d
	}
	return n, nil
}
