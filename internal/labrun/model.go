package labrun

import (
	"math"
	"strconv"

	"gonum.org/v1/gonum/stat"
)

// Framing of a message on the wire, client to server. nats.go's
// asynchronous JetStream publish sends
//
//	PUB <subject> <reply> <size>\r\n<payload>\r\n
//
// with a reply subject of "_INBOX." + 6 + "." + 6 characters, no headers.
// TCP carries it in segments of MSS bytes, each with Ethernet (14), IPv4
// (20) and TCP with timestamps (32) headers.
const (
	replyLen   = 20
	mtu        = 1500
	mss        = mtu - 20 - 20 - 12
	segHeaders = 14 + 20 + 32
)

// AppBytes is the NATS protocol bytes of one published message.
func AppBytes(subject string, size int) float64 {
	return float64(len("PUB ") + len(subject) + 1 + replyLen + 1 + len(strconv.Itoa(size)) + 2 + size + 2)
}

// WireBytes is AppBytes plus the TCP/IP/Ethernet headers of the
// segments that carry it, when messages fill segments back to back (a
// publish window keeps the socket busy).
func WireBytes(subject string, size int) float64 {
	a := AppBytes(subject, size)
	return a * float64(mss+segHeaders) / mss
}

// LinkTPS is the messages per second a link of rate bits/s carries when
// each message costs wire bytes, times copies (a node with R replicas
// receives each message it leads once from the client and, as a follower,
// R-1 other messages per message led, when leaders are spread evenly).
func LinkTPS(rate, wire float64, copies int) float64 {
	if rate <= 0 || wire <= 0 {
		return math.Inf(1)
	}
	return rate / 8 / (wire * float64(max(copies, 1)))
}

// Fit is a least-squares line y = Intercept + Slope·x with its R².
type Fit struct {
	Intercept float64 `json:"intercept"`
	Slope     float64 `json:"slope"`
	R2        float64 `json:"r2"`
	N         int     `json:"n"`
}

// LinearFit fits ys against xs (at least two points).
func LinearFit(xs, ys []float64) (Fit, bool) {
	if len(xs) < 2 || len(xs) != len(ys) {
		return Fit{}, false
	}
	a, b := stat.LinearRegression(xs, ys, nil, false)
	r2 := stat.RSquared(xs, ys, nil, a, b)
	if math.IsNaN(r2) {
		return Fit{}, false
	}
	return Fit{Intercept: a, Slope: b, R2: r2, N: len(xs)}, true
}

// At is the fitted value at x.
func (f Fit) At(x float64) float64 { return f.Intercept + f.Slope*x }
