package labrun

import (
	"fmt"
	"sort"
	"strings"
)

// Saturated is the utilisation (of a link rate or a CPU quota) from which
// a budget counts as the bound.
const Saturated = 0.85

// HostSaturated is the machine's busy share above which the report says
// the shared host itself was saturated.
const HostSaturated = 0.90

// Bounds a verdict names.
const (
	BoundNodeLink   = "node link"
	BoundNodeCPU    = "node CPU"
	BoundClientLink = "client link"
	BoundClientCPU  = "client CPU"
	BoundHost       = "host CPU (the shared machine)"
	BoundNone       = "none of the lab's budgets"
)

// candidate is one budget kind and its most used hosts.
type candidate struct {
	bound string
	max   float64
	hosts []string
}

// verdict names what bounded st from its own figures: the budget kind
// whose most used host is at or above Saturated, the highest if several;
// when none is, and the machine was busy, the machine; else none.
func verdict(st *Step) {
	var cs []candidate
	add := func(bound string, util func(HostFigures) (float64, string), role string) {
		c := candidate{bound: bound}
		for _, h := range st.Hosts {
			if h.Role != role {
				continue
			}
			u, what := util(h)
			c.max = max(c.max, u)
			if u >= Saturated {
				c.hosts = append(c.hosts, fmt.Sprintf("%s %s %.0f%%", h.Name, what, u*100))
			}
		}
		cs = append(cs, c)
	}
	link := func(h HostFigures) (float64, string) {
		if h.LinkIn >= h.LinkOut {
			return h.LinkIn, "in"
		}
		return h.LinkOut, "out"
	}
	cpu := func(h HostFigures) (float64, string) { return h.CPUUtil, "CPU" }
	add(BoundNodeLink, link, RoleNode)
	add(BoundNodeCPU, cpu, RoleNode)
	add(BoundClientLink, link, RoleClient)
	add(BoundClientCPU, cpu, RoleClient)
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].max > cs[j].max })
	var parts []string
	for _, c := range cs {
		parts = append(parts, fmt.Sprintf("%s %.0f%%", c.bound, c.max*100))
	}
	usage := "highest use: " + strings.Join(parts, ", ")
	busy := fmt.Sprintf("the machine was %.0f%% busy (%d cores, load %.1f→%.1f)", st.HostBusy*100, cores(), st.Load1[0], st.Load1[1])
	switch {
	case cs[0].max >= Saturated:
		st.Bound = cs[0].bound
		st.Why = fmt.Sprintf("%s saturated (%s)", cs[0].bound, strings.Join(clip(cs[0].hosts, 4), ", "))
		for _, c := range cs[1:] {
			if c.max >= Saturated {
				st.Why += fmt.Sprintf("; %s saturated too (%s)", c.bound, strings.Join(clip(c.hosts, 4), ", "))
			}
		}
		st.Why += "; " + usage
	case st.HostBusy >= HostSaturated:
		st.Bound = BoundHost
		st.Why = fmt.Sprintf("no lab budget reached %.0f%% but %s: the shared machine bounded this step; %s", Saturated*100, busy, usage)
	default:
		st.Bound = BoundNone
		st.Why = fmt.Sprintf("no lab budget reached %.0f%%: the bound is elsewhere (latency, the publish window, disk); %s", Saturated*100, usage)
	}
	if st.HostBusy >= HostSaturated {
		st.Notes = append(st.Notes, "the host itself was saturated: "+busy)
	}
	if st.ClientErrors > 0 {
		st.Notes = append(st.Notes, fmt.Sprintf("%d publishes failed at the generators", st.ClientErrors))
	}
}

func clip(s []string, n int) []string {
	if len(s) <= n {
		return s
	}
	return append(s[:n:n], fmt.Sprintf("+%d more", len(s)-n))
}
