package lab

import (
	"fmt"
	"strconv"
	"time"
)

// Link is how one host's link to the bridge is shaped, the same in each
// direction (a full-duplex NIC): tbf holds the rate, netem the delay,
// jitter and loss. The zero Link is unshaped.
type Link struct {
	// Rate is the link rate in bits per second, counted as tc counts it:
	// Ethernet frames without preamble, FCS or gap (0: unshaped).
	Rate int64
	// Delay is the one-way delay added in each direction, Jitter its
	// random variation (netem).
	Delay, Jitter time.Duration
	// Loss is the fraction (0–1) of packets dropped in each direction
	// (netem).
	Loss float64
}

// needsNetem tells whether l needs the netem qdisc.
func (l Link) needsNetem() bool { return l.Delay > 0 || l.Jitter > 0 || l.Loss > 0 }

// String renders l for notes: "20 Mbit/s, 1ms ±0.2ms, 0.1% loss".
func (l Link) String() string {
	s := "unshaped"
	if l.Rate > 0 {
		s = FormatRate(float64(l.Rate))
	}
	if l.Delay > 0 || l.Jitter > 0 {
		s += ", delay " + l.Delay.String()
		if l.Jitter > 0 {
			s += " ±" + l.Jitter.String()
		}
	}
	if l.Loss > 0 {
		s += ", " + strconv.FormatFloat(l.Loss*100, 'g', 3, 64) + "% loss"
	}
	return s
}

// FormatRate renders bits per second: "20 Mbit/s", "1.5 Gbit/s".
func FormatRate(bps float64) string {
	switch {
	case bps >= 1e9:
		return strconv.FormatFloat(bps/1e9, 'g', 4, 64) + " Gbit/s"
	case bps >= 1e6:
		return strconv.FormatFloat(bps/1e6, 'g', 4, 64) + " Mbit/s"
	case bps >= 1e3:
		return strconv.FormatFloat(bps/1e3, 'g', 4, 64) + " kbit/s"
	}
	return strconv.FormatFloat(bps, 'g', 4, 64) + " bit/s"
}

// tbfBurst is the bucket size for rate r (bits/s), in bytes: 4 ms of the
// rate, and at least two full frames.
func tbfBurst(r int64) int64 { return max(r/8/250, 2*1514) }

// shapeArgs are the tc commands (without "tc -n NS") that shape egress of
// dev for l; nil when l is unshaped. With netem, netem is the root and tbf
// its child, so packets are delayed and then rate-limited.
func shapeArgs(dev string, l Link) [][]string {
	var out [][]string
	parent := []string{"root"}
	if l.needsNetem() {
		a := []string{"qdisc", "add", "dev", dev, "root", "handle", "1:", "netem", "limit", "10000"}
		if l.Delay > 0 || l.Jitter > 0 {
			a = append(a, "delay", usec(l.Delay))
			if l.Jitter > 0 {
				a = append(a, usec(l.Jitter))
			}
		}
		if l.Loss > 0 {
			a = append(a, "loss", strconv.FormatFloat(l.Loss*100, 'f', -1, 64)+"%")
		}
		out = append(out, a)
		parent = []string{"parent", "1:1"}
	}
	if l.Rate > 0 {
		a := append([]string{"qdisc", "add", "dev", dev}, parent...)
		a = append(a, "handle", "10:", "tbf", "rate", strconv.FormatInt(l.Rate, 10)+"bit",
			"burst", strconv.FormatInt(tbfBurst(l.Rate), 10), "latency", "50ms")
		out = append(out, a)
	}
	return out
}

func usec(d time.Duration) string { return fmt.Sprintf("%dus", d.Microseconds()) }
