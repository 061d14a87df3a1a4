package csvlog

import "math/bits"

// digits8 returns the decimal digits of u < 10⁸ as ASCII in the bytes of
// v, most significant first in little-endian order, and their count n:
// binary.LittleEndian.PutUint64 of v writes u in decimal followed by
// 8−n zero bytes. It is branch-free arithmetic on 8 lanes of one word
// (SWAR): u is split into two halves of 4 digits in 32-bit lanes, each
// into two of 2 digits in 16-bit lanes, each into two digits in bytes,
// the quotients by 10⁴, 10² and 10 taken by multiplying with rounded
// reciprocals that are exact for these ranges.
func digits8(u uint64) (v uint64, n int) {
	x := u/10000 | u%10000<<32
	hi := x * 10486 >> 20 & 0x0000007f_0000007f // x/100 in each 32-bit lane (x < 10⁴)
	x = hi | (x-100*hi)<<16
	hi = x * 103 >> 10 & 0x000f_000f_000f_000f // x/10 in each 16-bit lane (x < 10²)
	x = hi | (x-10*hi)<<8
	// The leading zero digits are the low zero bytes; u = 0 keeps one.
	lead := bits.TrailingZeros64(x|1<<56) / 8
	return (x + 0x30303030_30303030) >> (8 * lead), 8 - lead
}
