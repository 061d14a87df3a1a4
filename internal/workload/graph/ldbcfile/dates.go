package ldbcfile

import (
	"errors"
	"fmt"
	"strconv"
	"time"
)

// DateFormat says how a data set writes its dates and datetimes. The Hadoop
// LDBC datagen has two formatters: StringDateFormatter (DateLayout and
// DateTimeLayout, what `stampede gen ldbc` writes) and LongDateFormatter
// (milliseconds since the Unix epoch, UTC, for dates as well).
type DateFormat uint8

const (
	// DatesAuto accepts either format, value by value: an ISO date always
	// has '-' after its year, an epoch-millisecond value is digits only, so
	// the two cannot be confused. It is the zero value.
	DatesAuto DateFormat = iota
	// DatesISO accepts only DateLayout / DateTimeLayout.
	DatesISO
	// DatesMillis accepts only epoch milliseconds (LongDateFormatter).
	DatesMillis
)

// DateFormatNames are the accepted values of --date-format, in order.
var DateFormatNames = []string{"auto", "iso", "millis"}

// ParseDateFormat parses a --date-format value.
func ParseDateFormat(s string) (DateFormat, error) {
	for i, n := range DateFormatNames {
		if s == n {
			return DateFormat(i), nil
		}
	}
	return 0, fmt.Errorf("date format %q: want auto, iso or millis", s)
}

func (f DateFormat) String() string {
	if int(f) < len(DateFormatNames) {
		return DateFormatNames[f]
	}
	return "DateFormat(" + strconv.Itoa(int(f)) + ")"
}

// isMillis reports whether b looks like an epoch-millisecond value: an
// optional '-' and digits only.
func isMillis(b []byte) bool {
	if len(b) > 0 && b[0] == '-' {
		b = b[1:]
	}
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// ParseMillis parses an epoch-millisecond value (LongDateFormatter) as a
// UTC instant.
func ParseMillis(b []byte) (time.Time, error) {
	neg := len(b) > 0 && b[0] == '-'
	digits := b
	if neg {
		digits = b[1:]
	}
	if !isMillis(b) || len(digits) > 15 { // 15 digits: beyond year 33,000
		return time.Time{}, errors.New("bad epoch milliseconds " + strconv.Quote(cut(b)))
	}
	var n int64
	for _, c := range digits {
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	// Years 0..9999 only, as in the ISO layouts: the formatters (and the
	// loaders that use them) write four-digit years.
	if n < minMillis || n > maxMillis {
		return time.Time{}, errors.New("epoch milliseconds " + strconv.Quote(cut(b)) + " outside years 0000..9999")
	}
	return time.UnixMilli(n).UTC(), nil
}

// The instants of 0000-01-01T00:00:00.000 and 9999-12-31T23:59:59.999 UTC
// in epoch milliseconds.
const (
	minMillis = -62167219200000
	maxMillis = 253402300799999
)

// ParseDateIn parses a date column in format f. Epoch milliseconds are
// truncated to their UTC calendar date, which is what a date column holds.
func ParseDateIn(b []byte, f DateFormat) (time.Time, error) {
	if f == DatesMillis || (f == DatesAuto && isMillis(b)) {
		t, err := ParseMillis(b)
		if err != nil {
			return t, err
		}
		return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC), nil
	}
	return ParseDate(b)
}

// ParseDateTimeIn parses a datetime column in format f.
func ParseDateTimeIn(b []byte, f DateFormat) (time.Time, error) {
	if f == DatesMillis || (f == DatesAuto && isMillis(b)) {
		return ParseMillis(b)
	}
	return ParseDateTime(b)
}

// MaxValueBytes is how much of a bad value or line error messages and
// failed-rows files quote; the rest is replaced by a note of its length.
const MaxValueBytes = 200

// Cut returns s cut to MaxValueBytes, with the original length noted when
// it was longer. It never splits a UTF-8 sequence.
func Cut(s string) string {
	if len(s) <= MaxValueBytes {
		return s
	}
	n := MaxValueBytes
	for n > 0 && s[n]&0xC0 == 0x80 { // continuation byte: back off
		n--
	}
	return s[:n] + "…(" + strconv.Itoa(len(s)) + " bytes)"
}

func cut(b []byte) string {
	if len(b) <= MaxValueBytes {
		return string(b)
	}
	n := MaxValueBytes
	for n > 0 && b[n]&0xC0 == 0x80 {
		n--
	}
	return string(b[:n]) + "…(" + strconv.Itoa(len(b)) + " bytes)"
}
