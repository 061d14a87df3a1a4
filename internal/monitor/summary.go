package monitor

import (
	"slices"
	"sort"
	"strings"
	"time"
)

// Threshold is the CPU utilisation above which a second counts as busy
// (0.85, as the generator self-check); NICThreshold the fraction of an
// interface's link speed above which a second counts as NIC-bound (0.9).
const (
	Threshold    = 0.85
	NICThreshold = 0.9
)

// Window is a time span to summarize; zero times leave that side open.
type Window struct{ From, To time.Time }

// Stats summarize one source over a window. CPU figures are fractions of
// the host's cores (of this machine's for pid sources), rates bytes per
// second, memory bytes; a figure the source does not offer is 0.
type Stats struct {
	Source string `json:"source"`
	// Samples is the number of intervals seen, Failed the failed readings.
	Samples int    `json:"samples"`
	Failed  int    `json:"failed,omitempty"`
	LastErr string `json:"lastError,omitempty"`
	// Host is set when the source reported host CPU (node_exporter).
	Host  bool    `json:"host,omitempty"`
	Cores float64 `json:"cores,omitempty"`
	// CPUAvg and CPUMax are the host's utilisation (a process's share of
	// the cores for pid sources), BusyAvg and BusyMax in cores.
	CPUAvg  float64 `json:"cpuAvg"`
	CPUMax  float64 `json:"cpuMax"`
	BusyAvg float64 `json:"busyCoresAvg,omitempty"`
	BusyMax float64 `json:"busyCoresMax,omitempty"`
	// CPUBusy counts the seconds above Threshold.
	CPUBusy int `json:"cpuBusySeconds,omitempty"`
	// CPUSeconds is the CPU time used in the window: the host's busy
	// time, or the processes' CPU time when the source reports processes.
	CPUSeconds float64 `json:"cpuSeconds"`
	MemUsedMax float64 `json:"memUsedMax,omitempty"`
	MemTotal   float64 `json:"memTotal,omitempty"`
	// NetRx, NetTx: interfaces other than lo together.
	NetRxAvg float64 `json:"netRxAvg,omitempty"`
	NetRxMax float64 `json:"netRxMax,omitempty"`
	NetTxAvg float64 `json:"netTxAvg,omitempty"`
	NetTxMax float64 `json:"netTxMax,omitempty"`
	// NetPeak is the busiest second of one interface (rx or tx, whichever
	// is higher) other than lo — lo when it is the only one —, NetPeakDev
	// that interface and NetSpeed its link speed (0: unknown).
	NetPeak    float64 `json:"netPeak,omitempty"`
	NetPeakDev string  `json:"netPeakDevice,omitempty"`
	NetSpeed   float64 `json:"netSpeed,omitempty"`
	// NICBusy counts the seconds an interface ran above NICThreshold of
	// its speed.
	NICBusy      int     `json:"nicBusySeconds,omitempty"`
	DiskReadMax  float64 `json:"diskReadMax,omitempty"`
	DiskWriteMax float64 `json:"diskWriteMax,omitempty"`
	DiskIOMax    float64 `json:"diskIOMax,omitempty"`
	// Proc* describe processes (pid, process-exporter, a server's own
	// process metrics): CPU in cores, resident memory, threads.
	Proc        bool    `json:"proc,omitempty"`
	ProcCPUAvg  float64 `json:"procCPUAvg,omitempty"`
	ProcCPUMax  float64 `json:"procCPUMax,omitempty"`
	ProcRSSMax  float64 `json:"procRSSMax,omitempty"`
	ProcThreads float64 `json:"procThreadsMax,omitempty"`
	// Groups are the process-exporter groups summed into the process
	// figures (all the page had, or the #group=NAME ones), sorted.
	Groups []string `json:"groups,omitempty"`

	hostSec, procSec, sum, busySum, rxSum, txSum, procSum float64
}

// SummarizeOptions tune Summarize.
type SummarizeOptions struct {
	// NICSpeed is the link speed, bytes per second, assumed for interfaces
	// that report none (--nic-speed); 0: only reported speeds count.
	NICSpeed float64
}

// Summarize reads dir/File once and summarizes every source in each
// window. A missing file returns nil (no monitoring in that run).
func Summarize(dir string, windows []Window, opts SummarizeOptions) ([][]Stats, error) {
	acc := make([]map[string]*Stats, len(windows))
	for i := range acc {
		acc[i] = map[string]*Stats{}
	}
	var order []string
	seen := map[string]bool{}
	err := Scan(dir, func(s *Sample) error {
		if !seen[s.Source] {
			seen[s.Source] = true
			order = append(order, s.Source)
		}
		for i, w := range windows {
			f := overlap(s, w)
			if f <= 0 {
				continue
			}
			st := acc[i][s.Source]
			if st == nil {
				st = &Stats{Source: s.Source}
				acc[i][s.Source] = st
			}
			st.add(s, f, opts)
		}
		return nil
	})
	if err != nil || len(order) == 0 {
		return nil, err
	}
	sort.Strings(order)
	out := make([][]Stats, len(windows))
	for i := range windows {
		for _, id := range order {
			if st := acc[i][id]; st != nil {
				st.finish()
				out[i] = append(out[i], *st)
			}
		}
	}
	return out, nil
}

// overlap is the fraction of s's interval inside w (1 for a failed
// reading at a time inside w, 0 outside).
func overlap(s *Sample, w Window) float64 {
	end := s.Time
	start := end.Add(-time.Duration(s.DT * float64(time.Second)))
	if s.Err != "" || s.DT <= 0 {
		if (!w.From.IsZero() && end.Before(w.From)) || (!w.To.IsZero() && end.After(w.To)) {
			return 0
		}
		return 1
	}
	lo, hi := start, end
	if !w.From.IsZero() && w.From.After(lo) {
		lo = w.From
	}
	if !w.To.IsZero() && w.To.Before(hi) {
		hi = w.To
	}
	if !hi.After(lo) {
		return 0
	}
	return hi.Sub(lo).Seconds() / end.Sub(start).Seconds()
}

func (st *Stats) add(s *Sample, frac float64, opts SummarizeOptions) {
	if s.Err != "" {
		st.Failed++
		st.LastErr = s.Err
		return
	}
	v := s.Values
	st.Samples++
	secs := s.DT * frac
	if u, ok := v[CPUUtil]; ok {
		st.Host = true
		st.Cores = max(st.Cores, v[CPUCores])
		st.sum += u
		st.CPUMax = max(st.CPUMax, u)
		st.busySum += v[CPUBusyCores]
		st.BusyMax = max(st.BusyMax, v[CPUBusyCores])
		st.hostSec += v[CPUBusyCores] * secs
		if u > Threshold {
			st.CPUBusy++
		}
	}
	for k := range v {
		if g, ok := strings.CutPrefix(k, ProcCPU+":"); ok && !slices.Contains(st.Groups, g) {
			st.Groups = append(st.Groups, g)
		}
	}
	if c, ok := v[ProcCPU]; ok {
		st.Proc = true
		st.procSum += c
		st.ProcCPUMax = max(st.ProcCPUMax, c)
		st.procSec += c * secs
		st.ProcRSSMax = max(st.ProcRSSMax, v[ProcRSS])
		st.ProcThreads = max(st.ProcThreads, v[ProcThreads])
		if u, ok := v[ProcUtil]; ok && !st.Host {
			st.Cores = max(st.Cores, v[CPUCores])
			st.sum += u
			st.CPUMax = max(st.CPUMax, u)
			if u > Threshold {
				st.CPUBusy++
			}
		}
	}
	st.MemUsedMax = max(st.MemUsedMax, v[MemUsed])
	st.MemTotal = max(st.MemTotal, v[MemTotal])
	st.rxSum += v[NetRx]
	st.txSum += v[NetTx]
	st.NetRxMax = max(st.NetRxMax, v[NetRx])
	st.NetTxMax = max(st.NetTxMax, v[NetTx])
	st.DiskReadMax = max(st.DiskReadMax, v[DiskRead])
	st.DiskWriteMax = max(st.DiskWriteMax, v[DiskWrite])
	st.DiskIOMax = max(st.DiskIOMax, v[DiskIO])
	nicBusy := false
	for k, x := range v {
		var dev string
		if d, ok := strings.CutPrefix(k, NetRx+":"); ok {
			dev = d
		} else if d, ok := strings.CutPrefix(k, NetTx+":"); ok {
			dev = d
		} else {
			continue
		}
		speed := v[NetSpeed+":"+dev]
		if speed <= 0 && dev != "lo" {
			speed = opts.NICSpeed
		}
		if speed > 0 && dev != "lo" && x >= NICThreshold*speed {
			nicBusy = true
		}
		var better bool
		switch cur := st.NetPeakDev; {
		case cur == "":
			better = true
		case dev == "lo" && cur != "lo":
		case dev != "lo" && cur == "lo":
			better = true
		default:
			better = x > st.NetPeak || (x == st.NetPeak && dev < cur)
		}
		if better {
			st.NetPeak, st.NetPeakDev, st.NetSpeed = x, dev, speed
		}
	}
	if nicBusy {
		st.NICBusy++
	}
}

func (st *Stats) finish() {
	slices.Sort(st.Groups)
	if st.Samples == 0 {
		return
	}
	n := float64(st.Samples)
	st.CPUAvg = st.sum / n
	st.BusyAvg = st.busySum / n
	st.NetRxAvg, st.NetTxAvg = st.rxSum/n, st.txSum/n
	st.ProcCPUAvg = st.procSum / n
	st.CPUSeconds = st.hostSec
	if st.Proc {
		st.CPUSeconds = st.procSec
	}
}
