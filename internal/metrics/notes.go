package metrics

import "slices"

// RunNotes returns the notes that concern the whole run: those every
// scenario of a run of several scenarios carries (the target, the data
// set, the generator's CPU), in the first scenario's order. Summaries print
// them once, and under each scenario only its own (OwnNotes). A run of one
// scenario has no run-wide notes: its notes stay under it.
func RunNotes(snap *Snapshot) []string {
	if snap == nil || len(snap.Scenarios) < 2 {
		return nil
	}
	var out []string
	for _, n := range snap.Scenarios[0].Notes {
		all := true
		for _, sc := range snap.Scenarios[1:] {
			if !slices.Contains(sc.Notes, n) {
				all = false
				break
			}
		}
		if all {
			out = append(out, n)
		}
	}
	return out
}

// OwnNotes returns the notes of s that are not in run (RunNotes).
func OwnNotes(s *ScenarioSnapshot, run []string) []string {
	if len(run) == 0 {
		return s.Notes
	}
	var out []string
	for _, n := range s.Notes {
		if !slices.Contains(run, n) {
			out = append(out, n)
		}
	}
	return out
}
