package lab

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
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

// SampleLink reads host h's interface counters inside its namespace.
func (f *Fabric) SampleLink(ctx context.Context, h *Host) (LinkSample, error) {
	at := time.Now()
	out, err := exec.CommandContext(ctx, "ip", "-n", h.NS, "-j", "-s", "link", "show", "dev", h.Dev).Output()
	if err != nil {
		return LinkSample{}, fmt.Errorf("counters of %s: %w", h.Name, err)
	}
	s, err := parseLinkStatsBytes(out)
	s.At = at.Add(time.Since(at) / 2)
	return s, err
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
