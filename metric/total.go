package metric

// Total combines the scenarios of a snapshot into the run-wide metrics that
// k6 reports without a scenario tag (responseTime, as opposed to
// responseTime{scenario:go.Go1Step}) and that unscoped thresholds test.
//
// It returns every scenario of snap merged into one scenario snapshot with
// an empty name, spanning the run (snap.Start to snap.End). Trend
// histograms of several scenarios are merged exactly into fresh histograms
// (snap is not modified); a trend of one scenario only is that scenario's
// histogram, shared, so the result is to be read, not changed. Counters,
// rates and errors are summed. Gauges (vus, vus_max)
// are summed over scenarios whose time spans overlap, as their VUs coexist;
// for scenarios that ran one after the other the gauge is that of the last
// scenario with min and max taken over all of them. Notes are not carried
// over: they belong to their scenario.
func Total(snap *Snapshot) *ScenarioSnapshot {
	out := &ScenarioSnapshot{
		Start: snap.Start, End: snap.End, Interrupted: snap.Interrupted,
		Trends: map[string]*Trend{}, Counters: map[string]int64{},
		Rates: map[string]*Rate{}, Gauges: map[string]*Gauge{},
		Errors: map[string]int64{}, Units: map[string]Unit{},
	}
	shared := map[string]bool{} // out's trend is a scenario's own histogram
	for _, sc := range snap.Scenarios {
		for name, t := range sc.Trends {
			dst, ok := out.Trends[name]
			if !ok {
				// The trend of one scenario is its histogram (188 KB
				// not copied), until a second scenario has it too.
				out.Trends[name] = &Trend{Unit: t.Unit, Hist: t.Hist}
				shared[name] = true
				continue
			}
			if shared[name] {
				h := NewHistogram()
				h.Merge(dst.Hist)
				dst = &Trend{Unit: dst.Unit, Hist: h}
				out.Trends[name] = dst
				shared[name] = false
			}
			// Every trend shares the histogram geometry, so nothing is dropped.
			dst.Hist.Merge(t.Hist)
		}
		out.addCounts(sc)
	}
	mergeGauges(out, snap.Scenarios)
	return out
}

func mergeGauges(out *ScenarioSnapshot, scs []*ScenarioSnapshot) {
	concurrent := overlap(scs)
	last := map[string]*ScenarioSnapshot{} // scenario that ended last, by gauge
	for _, sc := range scs {
		for name, g := range sc.Gauges {
			dst, ok := out.Gauges[name]
			switch {
			case !ok:
				c := *g
				out.Gauges[name] = &c
				last[name] = sc
			case concurrent:
				dst.Value += g.Value
				dst.Min += g.Min
				dst.Max += g.Max
			default:
				dst.Min = min(dst.Min, g.Min)
				dst.Max = max(dst.Max, g.Max)
				if !sc.End.Before(last[name].End) {
					dst.Value = g.Value
					last[name] = sc
				}
			}
		}
	}
}

// overlap reports whether any two scenarios ran at the same time.
func overlap(scs []*ScenarioSnapshot) bool {
	for i, a := range scs {
		for _, b := range scs[i+1:] {
			if a.Start.Before(b.End) && b.Start.Before(a.End) {
				return true
			}
		}
	}
	return false
}
