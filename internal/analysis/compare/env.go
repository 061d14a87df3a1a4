package compare

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stampede-bench/stampede/internal/envinfo"
)

// checkEnv warns when the sides, or the runs of one side, ran on different
// hardware, and notes sides without a fingerprint.
func (r *Report) checkEnv(base, cand Side) {
	for _, s := range []Side{base, cand} {
		first := -1
		for i, run := range s.Runs {
			if !envKnown(run.Env) {
				continue
			}
			if first < 0 {
				first = i
				continue
			}
			if same, why := envinfo.SameHardware(s.Runs[first].Env, run.Env); !same {
				r.Warnings = append(r.Warnings, fmt.Sprintf("%s runs %d and %d ran on different hardware: %s", s.Name, first+1, i+1, why))
				break
			}
		}
		if first < 0 {
			r.Notes = append(r.Notes, fmt.Sprintf("%s has no environment fingerprint (%s): hardware not checked", s.Name, "env.json"))
		}
	}
	if r.Base.EnvKnown && r.Cand.EnvKnown {
		if same, why := envinfo.SameHardware(r.Base.Env, r.Cand.Env); !same {
			r.Warnings = append(r.Warnings, "different hardware: "+why)
		}
	}
}

func envKnown(f envinfo.Fingerprint) bool { return f.CPUModel != "" || f.Threads != 0 }

func sideInfo(s Side) SideInfo {
	si := SideInfo{Name: s.Name, Path: s.Path}
	for _, run := range s.Runs {
		si.Runs = append(si.Runs, run.Dir)
		if !si.EnvKnown && envKnown(run.Env) {
			si.Env, si.EnvKnown = run.Env, true
		}
	}
	return si
}

// envRow is one line of the side-by-side environment table.
type envRow struct {
	label, base, cand string
}

// differs reports whether both sides are known and disagree.
func (e envRow) differs() bool { return e.base != "" && e.cand != "" && e.base != e.cand }

// envRows are the fingerprints side by side; rows empty on both sides are
// left out.
func (r *Report) envRows() []envRow {
	get := func(si SideInfo, f func(SideInfo) string) string {
		if !si.EnvKnown {
			return ""
		}
		return f(si)
	}
	fields := []struct {
		label string
		f     func(SideInfo) string
	}{
		{"host", func(s SideInfo) string { return s.Env.Hostname }},
		{"CPU", func(s SideInfo) string { return s.Env.CPUModel }},
		{"sockets/cores/threads", func(s SideInfo) string {
			return fmt.Sprintf("%d/%d/%d", s.Env.Sockets, s.Env.Cores, s.Env.Threads)
		}},
		{"caches", func(s SideInfo) string { return caches(s.Env.Caches) }},
		{"memory", func(s SideInfo) string { return memory(s.Env.MemoryBytes) }},
		{"OS", func(s SideInfo) string { return strings.TrimSpace(s.Env.OS + " " + s.Env.Arch) }},
		{"kernel", func(s SideInfo) string { return s.Env.Kernel }},
		{"Go", func(s SideInfo) string { return s.Env.GoVersion }},
		{"GOMAXPROCS", func(s SideInfo) string {
			if s.Env.GOMAXPROCS == 0 {
				return ""
			}
			return fmt.Sprint(s.Env.GOMAXPROCS)
		}},
		{"stampede", func(s SideInfo) string { return s.Env.Stampede }},
		{"target", func(s SideInfo) string { return s.Env.Target }},
		{"target version", func(s SideInfo) string { return s.Env.TargetVersion }},
	}
	var rows []envRow
	for _, f := range fields {
		e := envRow{label: f.label, base: get(r.Base, f.f), cand: get(r.Cand, f.f)}
		if e.base != "" || e.cand != "" {
			rows = append(rows, e)
		}
	}
	return rows
}

// caches is "L1d 32K, L1i 32K, L2 1024K, L3 32768K".
func caches(c map[string]string) string {
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + " " + c[k]
	}
	return strings.Join(parts, ", ")
}

func memory(b int64) string {
	if b <= 0 {
		return ""
	}
	return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
}
