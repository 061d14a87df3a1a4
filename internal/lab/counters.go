package lab

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// LinkSample is a host's interface counters at one moment, as the
// kernel of its namespace keeps them (ip -s link). Rx is what reached
// the host (its download), Tx what it sent (its upload).
type LinkSample struct {
	At                 time.Time
	RxBytes, RxPackets int64
	TxBytes, TxPackets int64
	RxDropped, TxDrop  int64
}

// ipLinkStats is the part of `ip -j -s link show` that LinkSample reads.
type ipLinkStats []struct {
	Stats64 struct {
		Rx struct {
			Bytes, Packets, Dropped int64
		} `json:"rx"`
		Tx struct {
			Bytes, Packets, Dropped int64
		} `json:"tx"`
	} `json:"stats64"`
}

// SampleLink reads host h's interface counters inside its namespace:
// /proc/net/dev as a thread in the namespace sees it, or, where that
// cannot be done, `ip -j -s link` in the namespace.
func (f *Fabric) SampleLink(ctx context.Context, h *Host) (LinkSample, error) {
	var s LinkSample
	var rerr error
	if err := inNS(h.NS, func() {
		var b []byte
		b, rerr = os.ReadFile("/proc/thread-self/net/dev")
		s.At = time.Now()
		if rerr == nil {
			s, rerr = parseNetDev(string(b), h.Dev, s.At)
		}
	}); err == nil && rerr == nil {
		return s, nil
	}
	at := time.Now()
	out, err := exec.CommandContext(ctx, "ip", "-n", h.NS, "-j", "-s", "link", "show", "dev", h.Dev).Output()
	if err != nil {
		return LinkSample{}, fmt.Errorf("counters of %s: %w", h.Name, err)
	}
	s, err = parseLinkStatsBytes(out)
	s.At = at.Add(time.Since(at) / 2)
	return s, err
}

// parseNetDev reads dev's counters from the text of /proc/net/dev.
func parseNetDev(text, dev string, at time.Time) (LinkSample, error) {
	for _, line := range strings.Split(text, "\n") {
		name, rest, ok := strings.Cut(line, ":")
		if !ok || strings.TrimSpace(name) != dev {
			continue
		}
		f := strings.Fields(rest)
		if len(f) < 12 {
			break
		}
		n := make([]int64, 12)
		for i := range n {
			v, err := strconv.ParseInt(f[i], 10, 64)
			if err != nil {
				return LinkSample{}, fmt.Errorf("/proc/net/dev %s: %w", dev, err)
			}
			n[i] = v
		}
		// rx: bytes packets errs drop fifo frame compressed multicast;
		// tx: bytes packets errs drop ...
		return LinkSample{At: at, RxBytes: n[0], RxPackets: n[1], RxDropped: n[3], TxBytes: n[8], TxPackets: n[9], TxDrop: n[11]}, nil
	}
	return LinkSample{}, fmt.Errorf("/proc/net/dev: no interface %s", dev)
}

func parseLinkStatsBytes(b []byte) (LinkSample, error) {
	var st ipLinkStats
	if err := json.Unmarshal(b, &st); err != nil || len(st) == 0 {
		return LinkSample{}, fmt.Errorf("ip -j -s link: unreadable output")
	}
	s := st[0].Stats64
	return LinkSample{RxBytes: s.Rx.Bytes, RxPackets: s.Rx.Packets, TxBytes: s.Tx.Bytes, TxPackets: s.Tx.Packets,
		RxDropped: s.Rx.Dropped, TxDrop: s.Tx.Dropped}, nil
}
