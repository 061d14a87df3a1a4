package monitor

import (
	"math"
	"strings"

	dto "github.com/prometheus/client_model/go"
)

// Raw keys of a reading (counters are cumulative, gauges as read):
//
//	counters  cpu_seconds:MODE  net_rx:DEV net_tx:DEV  disk_read:DEV disk_write:DEV disk_io:DEV
//	          proc_cpu[:GROUP]  NAME (extra counters)  NAME_count NAME_sum (extra summaries, histograms)
//	gauges    cpu_cores mem_total_bytes mem_available_bytes load1 net_speed:DEV
//	          proc_rss_bytes[:GROUP] proc_threads[:GROUP]  NAME (extra gauges)
const (
	rawCPU      = "cpu_seconds:"
	rawNetRx    = "net_rx:"
	rawNetTx    = "net_tx:"
	rawDiskR    = "disk_read:"
	rawDiskW    = "disk_write:"
	rawDiskIO   = "disk_io:"
	rawMemAvail = "mem_available_bytes"
	rawSpeed    = "net_speed:"
)

// deriveFamilies fills r from parsed families: node_exporter's host
// metrics, process-exporter's groups, a server's own process_* metrics
// (only when the page has neither: node_exporter's own process would
// mislead), and the extra metrics named by the user.
func deriveFamilies(r *reading, fams map[string]*dto.MetricFamily, extra []string) {
	cpus := map[string]bool{}
	for _, m := range metricsOf(fams, "node_cpu_seconds_total") {
		cpus[label(m, "cpu")] = true
		r.counters[rawCPU+label(m, "mode")] += value(m)
	}
	if len(cpus) > 0 {
		r.gauges[CPUCores] = float64(len(cpus))
	}
	for _, m := range metricsOf(fams, "node_memory_MemTotal_bytes") {
		r.gauges[MemTotal] = value(m)
	}
	for _, m := range metricsOf(fams, "node_memory_MemAvailable_bytes") {
		r.gauges[rawMemAvail] = value(m)
	}
	for _, m := range metricsOf(fams, "node_load1") {
		r.gauges[Load1] = value(m)
	}
	perDevice := []struct{ fam, key, lbl string }{
		{"node_network_receive_bytes_total", rawNetRx, "device"},
		{"node_network_transmit_bytes_total", rawNetTx, "device"},
		{"node_disk_read_bytes_total", rawDiskR, "device"},
		{"node_disk_written_bytes_total", rawDiskW, "device"},
		{"node_disk_io_time_seconds_total", rawDiskIO, "device"},
		{"namedprocess_namegroup_cpu_seconds_total", "proc_cpu:", "groupname"},
	}
	for _, d := range perDevice {
		for _, m := range metricsOf(fams, d.fam) {
			r.counters[d.key+label(m, d.lbl)] += value(m)
		}
	}
	for _, m := range metricsOf(fams, "node_network_speed_bytes") {
		if v := value(m); v > 0 {
			r.gauges[rawSpeed+label(m, "device")] = v
		}
	}
	for _, m := range metricsOf(fams, "namedprocess_namegroup_memory_bytes") {
		if label(m, "memtype") == "resident" {
			r.gauges[ProcRSS+":"+label(m, "groupname")] += value(m)
		}
	}
	for _, m := range metricsOf(fams, "namedprocess_namegroup_num_threads") {
		r.gauges[ProcThreads+":"+label(m, "groupname")] += value(m)
	}
	if len(cpus) == 0 && fams["namedprocess_namegroup_cpu_seconds_total"] == nil {
		for _, m := range metricsOf(fams, "process_cpu_seconds_total") {
			r.counters["proc_cpu"] += value(m)
		}
		for _, m := range metricsOf(fams, "process_resident_memory_bytes") {
			r.gauges[ProcRSS] += value(m)
		}
	}
	for _, name := range extra {
		f := fams[name]
		if f == nil {
			continue
		}
		for _, m := range f.GetMetric() {
			switch f.GetType() {
			case dto.MetricType_COUNTER:
				r.counters[name] += m.GetCounter().GetValue()
			case dto.MetricType_GAUGE:
				r.gauges[name] += m.GetGauge().GetValue()
			case dto.MetricType_SUMMARY:
				r.counters[name+"_count"] += float64(m.GetSummary().GetSampleCount())
				r.counters[name+"_sum"] += m.GetSummary().GetSampleSum()
			case dto.MetricType_HISTOGRAM:
				r.counters[name+"_count"] += float64(m.GetHistogram().GetSampleCount())
				r.counters[name+"_sum"] += m.GetHistogram().GetSampleSum()
			default: // untyped: a counter when named like one
				if strings.HasSuffix(name, "_total") {
					r.counters[name] += m.GetUntyped().GetValue()
				} else {
					r.gauges[name] += m.GetUntyped().GetValue()
				}
			}
		}
	}
}

func metricsOf(fams map[string]*dto.MetricFamily, name string) []*dto.Metric {
	if f := fams[name]; f != nil {
		return f.GetMetric()
	}
	return nil
}

func label(m *dto.Metric, name string) string {
	for _, l := range m.GetLabel() {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return ""
}

// value is the sample value of a counter, gauge or untyped metric.
func value(m *dto.Metric) float64 {
	switch {
	case m.Counter != nil:
		return m.GetCounter().GetValue()
	case m.Gauge != nil:
		return m.GetGauge().GetValue()
	case m.Untyped != nil:
		return m.GetUntyped().GetValue()
	}
	return math.NaN()
}

// derive turns two readings of a source into the figures of the interval
// between them (see the Key constants). Counters that went backwards (a
// restarted exporter or process) give no rate for this interval.
func derive(prev, cur *reading) (map[string]float64, float64) {
	dt := cur.at.Sub(prev.at).Seconds()
	v := map[string]float64{}
	if dt <= 0 {
		return v, 0
	}
	rates := map[string]float64{}
	for k, c := range cur.counters {
		p, ok := prev.counters[k]
		if !ok || c < p || math.IsNaN(c) || math.IsNaN(p) {
			continue
		}
		rates[k] = (c - p) / dt
	}
	for k, g := range cur.gauges {
		if !strings.HasPrefix(k, rawSpeed) && k != rawMemAvail {
			v[k] = g
		}
	}
	hostCPU(v, rates, cur.gauges[CPUCores])
	if tot, ok := cur.gauges[MemTotal]; ok && tot > 0 {
		if avail, ok := cur.gauges[rawMemAvail]; ok {
			v[MemUsed] = tot - avail
			v[MemUsedFrac] = (tot - avail) / tot
		}
	}
	var procSum float64
	procGroups := false
	for k, r := range rates {
		switch {
		case strings.HasPrefix(k, rawCPU):
		case strings.HasPrefix(k, rawNetRx):
			d := k[len(rawNetRx):]
			v[NetRx+":"+d] = r
			if d != "lo" {
				v[NetRx] += r
			}
		case strings.HasPrefix(k, rawNetTx):
			d := k[len(rawNetTx):]
			v[NetTx+":"+d] = r
			if d != "lo" {
				v[NetTx] += r
			}
		case strings.HasPrefix(k, rawDiskR):
			v[DiskRead+":"+k[len(rawDiskR):]] = r
			v[DiskRead] += r
		case strings.HasPrefix(k, rawDiskW):
			v[DiskWrite+":"+k[len(rawDiskW):]] = r
			v[DiskWrite] += r
		case strings.HasPrefix(k, rawDiskIO):
			u := min(r, 1)
			v[DiskIO+":"+k[len(rawDiskIO):]] = u
			v[DiskIO] = max(v[DiskIO], u)
		case strings.HasPrefix(k, "proc_cpu:"):
			v[ProcCPU+":"+k[len("proc_cpu:"):]] = r
			procSum += r
			procGroups = true
		case k == "proc_cpu":
			v[ProcCPU] = r
		case strings.HasSuffix(k, "_sum"):
			if n, ok := rates[strings.TrimSuffix(k, "_sum")+"_count"]; ok {
				if n > 0 {
					v[strings.TrimSuffix(k, "_sum")+"_mean"] = r / n
				}
				continue
			}
			v[k] = r
		default:
			v[k] = r
		}
	}
	if procGroups {
		v[ProcCPU] = procSum
		var rss, threads float64
		for k, g := range cur.gauges {
			if strings.HasPrefix(k, ProcRSS+":") {
				rss += g
			}
			if strings.HasPrefix(k, ProcThreads+":") {
				threads += g
			}
		}
		v[ProcRSS], v[ProcThreads] = rss, threads
	}
	for k, sp := range cur.gauges {
		if d, ok := strings.CutPrefix(k, rawSpeed); ok {
			if _, seen := v[NetRx+":"+d]; seen {
				v[NetSpeed+":"+d] = sp
			}
		}
	}
	if c, ok := v[ProcCPU]; ok && cur.gauges[CPUCores] > 0 && !procGroups {
		if _, host := v[CPUUtil]; !host {
			v[ProcUtil] = c / cur.gauges[CPUCores]
		}
	}
	return v, dt
}

// hostCPU derives busy cores, utilisation and the per-mode fractions from
// the rates of node_cpu_seconds_total by mode.
func hostCPU(v, rates map[string]float64, cores float64) {
	var all, idle float64
	modes := map[string]float64{}
	for k, r := range rates {
		if m, ok := strings.CutPrefix(k, rawCPU); ok {
			modes[m] = r
			all += r
			if m == "idle" || m == "iowait" {
				idle += r
			}
		}
	}
	if all <= 0 {
		return
	}
	for m, r := range modes {
		v[CPUModePrefix+m] = r / all
	}
	util := (all - idle) / all
	v[CPUUtil] = util
	if cores <= 0 {
		cores = all
	}
	v[CPUBusyCores] = util * cores
}
