package run

import (
	"fmt"
	"strings"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/monitor"
	"github.com/stampede-bench/stampede/internal/result/finish"
	"github.com/stampede-bench/stampede/internal/selfcheck"
)

// monitorDisplay lists the sources for options.json, without credentials.
func monitorDisplay(specs []monitor.Spec) []string {
	var out []string
	for _, sp := range specs {
		out = append(out, sp.ID+"="+sp.Display)
	}
	return out
}

// monitorOutput samples the --monitor sources into the result directory
// (monitor.File) while the run goes, as one entry of the run's
// output.Manager: started after every other output, so that it is the
// first stopped (it feeds the outputs that publish its samples).
type monitorOutput struct {
	dir   string
	specs []monitor.Spec
	m     *monitor.Monitor
}

// Description is empty: startOutputs announces the monitor (describe)
// before the outputs it feeds, as the run always did.
func (o *monitorOutput) Description() string { return "" }

// describe names the sources and the file.
func (o *monitorOutput) describe() string {
	return fmt.Sprintf("monitor: %s every 1s → %s", strings.Join(monitorDisplay(o.specs), ", "), monitor.File)
}

// Start starts sampling.
func (o *monitorOutput) Start() (err error) {
	o.m, err = monitor.Start(o.dir, o.specs, monitor.Options{})
	return err
}

// Observe does nothing: the monitor samples on its own clock.
func (o *monitorOutput) Observe(*metrics.Point) {}

// Stop stops sampling and closes the file.
func (o *monitorOutput) Stop() error { return o.m.Stop() }

// targetStats summarizes the monitor file of dir per scenario (nil
// without monitoring).
func targetStats(dir string, snap *metrics.Snapshot, nicSpeed float64) (map[string][]monitor.Stats, error) {
	return finish.TargetStats(dir, snap, nicSpeed)
}

// annotateTarget adds the monitor's notes to each scenario: failed
// readings, a saturated target (CPU, NIC), and when the generator was
// saturated while every monitored target had headroom, that the client
// limited the run. self is the generator self-check (nil: none); local
// names the sources on this machine, which share the generator's CPU.
func annotateTarget(snap *metrics.Snapshot, stats map[string][]monitor.Stats, self *selfcheck.Report, local map[string]bool) {
	for _, sc := range snap.Scenarios {
		sts := stats[sc.Name]
		if len(sts) == 0 {
			continue
		}
		var gen selfcheck.Stats
		if self != nil {
			gen = self.Window(sc.Start, sc.End)
		}
		genBusy := gen.Saturated() || gen.HostSaturated()
		saturated := false
		procWatched := false // a process source (pid=, process-exporter) watches the target
		for _, st := range sts {
			procWatched = procWatched || (st.Proc && !st.Host && st.Samples > 0)
		}
		for _, st := range sts {
			if n := st.FailureNote(); n != "" {
				sc.Notes = appendNote(sc.Notes, n)
			}
			if n := st.GroupsNote(); n != "" {
				sc.Notes = appendNote(sc.Notes, n)
			}
			w := st.Warning()
			if w == "" {
				continue
			}
			saturated = true
			if local[st.Source] && st.Host && procWatched {
				w += " — but this host is the generator's own machine (a loopback endpoint): its CPU counts the generator and every other process there; the process sources' figures are the target's"
			} else if local[st.Source] && st.Host {
				w += " — but this host is the generator's own machine (a loopback endpoint): its CPU counts the generator and every other process there; watch the target's process with --monitor pid=NAME"
			} else if local[st.Source] && genBusy {
				w += " — but it runs on the generator's machine, which was busy too: client and target share one CPU budget here; give the target its own machine to tell them apart"
			}
			sc.Notes = appendNote(sc.Notes, w)
		}
		if saturated || !genBusy {
			continue
		}
		var parts []string
		for _, st := range sts {
			if st.Samples > 0 && (st.Host || st.Cores > 0) {
				parts = append(parts, fmt.Sprintf("%s CPU max %.0f%%", st.Source, 100*st.CPUMax))
			}
		}
		if len(parts) > 0 {
			sc.Notes = appendNote(sc.Notes, "the monitored target had headroom ("+strings.Join(parts, ", ")+"): the client, not the target, limited this scenario")
		}
	}
}

// localSources names the sources that run on this machine.
func localSources(specs []monitor.Spec) map[string]bool {
	out := map[string]bool{}
	for _, sp := range specs {
		if sp.Local() {
			out[sp.ID] = true
		}
	}
	return out
}

// finishMonitor adds the notes of the stopped monitor to snap (nothing
// without monitoring).
func finishMonitor(m *monitorOutput, dir string, snap *metrics.Snapshot, p Plan, self *selfcheck.Report) error {
	if m == nil {
		return nil
	}
	stats, err := targetStats(dir, snap, p.NICSpeed)
	if err != nil {
		return fmt.Errorf("monitor: %w", err)
	}
	annotateTarget(snap, stats, self, localSources(p.Monitors))
	return nil
}
