package csvlog

import (
	"encoding/binary"
	"strconv"
	"testing"
)

// TestDigits8 checks digits8 against strconv at the ends of every digit
// count and a spread of values in between.
func TestDigits8(t *testing.T) {
	check := func(u uint64) {
		t.Helper()
		v, n := digits8(u)
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], v)
		want := strconv.FormatUint(u, 10)
		if got := string(b[:n]); got != want {
			t.Fatalf("digits8(%d) = %q, want %q", u, got, want)
		}
		for _, c := range b[n:] {
			if c != 0 {
				t.Fatalf("digits8(%d) = % x: bytes past the digits are not zero", u, b)
			}
		}
	}
	for p := uint64(1); p <= maxNumber; p *= 10 {
		for _, u := range []uint64{p - 1, p, p + 1, p * 5 / 3} {
			if u < maxNumber {
				check(u)
			}
		}
	}
	for u := uint64(0); u < maxNumber; u += 9973 { // a prime step: every digit in every place
		check(u)
	}
}

// FuzzDigits8: digits8 writes what strconv.FormatUint does.
func FuzzDigits8(f *testing.F) {
	f.Add(uint64(0))
	f.Add(uint64(99999999))
	f.Fuzz(func(t *testing.T, u uint64) {
		u %= maxNumber
		v, n := digits8(u)
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], v)
		if got, want := string(b[:n]), strconv.FormatUint(u, 10); got != want {
			t.Errorf("digits8(%d) = %q, want %q", u, got, want)
		}
	})
}
