// Package envinfo fingerprints the machine a run happened on, so results
// from different hardware are never compared silently.
package envinfo

import (
	"bufio"
	"bytes"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/stampede-bench/stampede/internal/version"
)

// Fingerprint describes the generator machine and the target.
type Fingerprint struct {
	Hostname string `json:"hostname"`
	OS       string `json:"os"`
	Kernel   string `json:"kernel"`
	Arch     string `json:"arch"`
	CPUModel string `json:"cpuModel"`
	// Sockets, Cores (physical) and Threads (logical CPUs) of the machine,
	// whatever CPU affinity stampede runs with (GOMAXPROCS shows that).
	Sockets int `json:"sockets"`
	Cores   int `json:"cores"`
	Threads int `json:"threads"`
	// Caches lists cache sizes by level, e.g. {"L1d": "48K", "L2": "2048K"}.
	Caches map[string]string `json:"caches,omitempty"`
	// MemoryBytes is the total physical memory.
	MemoryBytes int64  `json:"memoryBytes"`
	GoVersion   string `json:"goVersion"`
	GOMAXPROCS  int    `json:"gomaxprocs"`
	Stampede    string `json:"stampedeVersion"`
	// Target is the target URL without credentials; TargetVersion what the
	// target reported.
	Target        string `json:"target,omitempty"`
	TargetVersion string `json:"targetVersion,omitempty"`
}

// Collect reads the fingerprint of this machine. It never fails: unknown
// fields stay empty.
func Collect() Fingerprint {
	f := Fingerprint{
		OS: runtime.GOOS, Arch: runtime.GOARCH, GoVersion: runtime.Version(),
		GOMAXPROCS: runtime.GOMAXPROCS(0), Threads: runtime.NumCPU(), Stampede: version.String(),
	}
	f.Hostname, _ = os.Hostname()
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		f.Kernel = strings.TrimSpace(string(b))
	}
	if b, err := os.ReadFile("/etc/os-release"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "PRETTY_NAME="); ok {
				f.OS = strings.Trim(v, `"`)
			}
		}
	}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		var threads int
		f.CPUModel, f.Sockets, f.Cores, threads = parseCPUInfo(b)
		if threads > 0 {
			f.Threads = threads // the machine's, not this process's affinity
		}
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		f.MemoryBytes = parseMemTotal(b)
	}
	f.Caches = readCaches("/sys/devices/system/cpu/cpu0/cache")
	return f
}

func parseCPUInfo(b []byte) (model string, sockets, cores, threads int) {
	phys := map[string]bool{}
	coreIDs := map[string]bool{}
	cur := ""
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch k {
		case "processor":
			threads++
		case "model name":
			if model == "" {
				model = v
			}
		case "physical id":
			cur = v
			phys[v] = true
		case "core id":
			coreIDs[cur+"/"+v] = true
		}
	}
	sockets, cores = len(phys), len(coreIDs)
	if sockets == 0 {
		sockets = 1
	}
	if cores == 0 {
		cores = runtime.NumCPU()
	}
	return model, sockets, cores, threads
}

func parseMemTotal(b []byte) int64 {
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			fields := strings.Fields(v)
			if len(fields) > 0 {
				kb, _ := strconv.ParseInt(fields[0], 10, 64)
				return kb * 1024
			}
		}
	}
	return 0
}

func readCaches(dir string) map[string]string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "index") {
			continue
		}
		read := func(name string) string {
			b, _ := os.ReadFile(dir + "/" + e.Name() + "/" + name)
			return strings.TrimSpace(string(b))
		}
		level, typ, size := read("level"), read("type"), read("size")
		name := "L" + level
		switch typ {
		case "Data":
			name += "d"
		case "Instruction":
			name += "i"
		}
		if level != "" && size != "" {
			out[name] = size
		}
	}
	return out
}

// SameHardware reports whether two fingerprints describe the same kind of
// machine (CPU model, core counts, memory within 5%), and if not, why.
func SameHardware(a, b Fingerprint) (bool, string) {
	switch {
	case a.CPUModel != b.CPUModel:
		return false, "CPU " + a.CPUModel + " vs " + b.CPUModel
	case a.Threads != b.Threads || a.Cores != b.Cores || a.Sockets != b.Sockets:
		return false, "CPU counts differ"
	case a.MemoryBytes > 0 && b.MemoryBytes > 0 &&
		(float64(a.MemoryBytes) > 1.05*float64(b.MemoryBytes) || float64(b.MemoryBytes) > 1.05*float64(a.MemoryBytes)):
		return false, "memory differs"
	}
	return true, ""
}
