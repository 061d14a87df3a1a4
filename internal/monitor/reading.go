package monitor

import "time"

// reading is one raw observation of a source: cumulative counters (turned
// into per-second rates between two readings) and gauges, keyed as
// described in derive.go.
type reading struct {
	at       time.Time
	counters map[string]float64
	gauges   map[string]float64
}

func newReading(at time.Time) *reading {
	return &reading{at: at, counters: map[string]float64{}, gauges: map[string]float64{}}
}

// Sample is one source over one interval, as written to File: Values are
// the derived figures (see the Key constants), or Err says why the source
// could not be read. Time is the end of the interval (wall clock), DT its
// length in seconds.
type Sample struct {
	Time   time.Time          `json:"t"`
	Source string             `json:"src"`
	DT     float64            `json:"dt,omitempty"`
	Values map[string]float64 `json:"v,omitempty"`
	Err    string             `json:"err,omitempty"`
	// ScrapeMs is how long reading the source took, ms.
	ScrapeMs float64 `json:"ms,omitempty"`
}

// Keys of Sample.Values. Per-device and per-group figures append
// ":DEVICE" or ":GROUP" to the key (net_rx_bytes_per_second:eth0).
const (
	// CPUCores is the number of CPUs of the host (or, for pid sources,
	// of this machine).
	CPUCores = "cpu_cores"
	// CPUBusyCores is the host's CPU time outside idle and iowait per
	// second: how many cores were busy.
	CPUBusyCores = "cpu_busy_cores"
	// CPUUtil is CPUBusyCores / CPUCores, 0–1.
	CPUUtil = "cpu_util"
	// CPUModePrefix + mode ("cpu_user", "cpu_system", "cpu_iowait", ...) is
	// the fraction of all the host's CPU time spent in that mode, 0–1.
	CPUModePrefix = "cpu_"
	// MemTotal, MemUsed are bytes (used = total − available); MemUsedFrac
	// is used / total.
	MemTotal    = "mem_total_bytes"
	MemUsed     = "mem_used_bytes"
	MemUsedFrac = "mem_used"
	// Load1 is the one-minute load average.
	Load1 = "load1"
	// NetRx, NetTx are bytes per second received and sent, summed over
	// the interfaces other than lo (per interface with ":DEV").
	NetRx = "net_rx_bytes_per_second"
	NetTx = "net_tx_bytes_per_second"
	// NetSpeed is an interface's link speed, bytes per second, as the host
	// reports it (node_network_speed_bytes); always with ":DEV".
	NetSpeed = "net_speed_bytes_per_second"
	// DiskRead, DiskWrite are bytes per second summed over devices (per
	// device with ":DEV"); DiskIO is the fraction of the second a device
	// was busy with IO, the busiest device's without ":DEV".
	DiskRead  = "disk_read_bytes_per_second"
	DiskWrite = "disk_write_bytes_per_second"
	DiskIO    = "disk_io_util"
	// ProcCPU is the CPU time of a process (a group with ":GROUP") per
	// second, in cores; ProcRSS its resident memory, bytes; ProcThreads
	// its threads; ProcUtil is ProcCPU / CPUCores for local processes.
	ProcCPU     = "proc_cpu_cores"
	ProcRSS     = "proc_rss_bytes"
	ProcThreads = "proc_threads"
	ProcUtil    = "proc_cpu_util"
)
