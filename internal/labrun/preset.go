package labrun

import (
	"fmt"
	"strconv"

	"github.com/stampede-bench/stampede/internal/usage"
)

// Presets are the seed's experiments.
const (
	// PresetNodes is TPS against node count (clients = ratio × nodes).
	PresetNodes = "nodes"
	// PresetClients is TPS against client count at a fixed node count:
	// where the curve bends is the client:broker ratio that saturates.
	PresetClients = "clients"
	// PresetTopics is TPS against streams (topics) per node.
	PresetTopics = "topics"
	// PresetBudgets is TPS against node count twice: link-bound nodes,
	// then the same nodes with a CPU budget below what the link allows.
	PresetBudgets = "budgets"
)

// PresetNames lists the presets.
var PresetNames = []string{PresetNodes, PresetClients, PresetTopics, PresetBudgets}

// Plan is what `stampede lab` runs: a preset's series of steps.
type Plan struct {
	Preset string
	// Base is every step's settings; Nodes is the node counts of the
	// nodes and budgets presets, Nodes[0] the fixed count of the others.
	Base  Config
	Nodes []int
	// ClientsPerNode sets Clients = ratio × nodes in the node presets
	// (default 2); Clients lists the client counts of the clients preset.
	ClientsPerNode float64
	Clients        []int
	// Topics lists streams per generator for the topics preset.
	Topics []int
	// Profiles are the profiles to run (each its own series).
	Profiles []string
	// CPUBoundCPU is the node CPU quota of the budgets preset's second
	// series (cores).
	CPUBoundCPU float64
}

// SeriesPlan is one curve: its steps and their x values.
type SeriesPlan struct {
	Name, XLabel string
	X            []float64
	Steps        []Config
	// Skipped says which x values were left out and why.
	Skipped []string
}

// Series expands the plan into its curves.
func (p *Plan) Series() ([]SeriesPlan, error) {
	if len(p.Nodes) == 0 {
		return nil, usage.Errorf("lab: no node counts")
	}
	if p.ClientsPerNode <= 0 {
		p.ClientsPerNode = 2
	}
	if len(p.Profiles) == 0 {
		p.Profiles = []string{HighThroughput}
	}
	clientsFor := func(n int) int { return max(1, int(p.ClientsPerNode*float64(n)+0.5)) }
	var out []SeriesPlan
	for _, prof := range p.Profiles {
		base := p.Base
		base.Profile = prof
		switch p.Preset {
		case PresetNodes, PresetBudgets:
			s := SeriesPlan{Name: prof + fmt.Sprintf(", %.3g clients per node", p.ClientsPerNode), XLabel: "nodes"}
			cpuBound := s
			if p.Preset == PresetBudgets {
				s.Name = prof + ", link-bound nodes"
				cpuBound.Name = prof + fmt.Sprintf(", CPU-bound nodes (%.3g cores)", p.CPUBoundCPU)
				if p.CPUBoundCPU <= 0 {
					return nil, usage.Errorf("lab budgets: --cpu-bound-cpu must be > 0")
				}
			}
			for _, n := range p.Nodes {
				c := base
				c.Nodes, c.Clients = n, clientsFor(n)
				if c.Replicas() > n {
					s.Skipped = append(s.Skipped, fmt.Sprintf("%d node(s): %s needs %d", n, prof, c.Replicas()))
					continue
				}
				s.X, s.Steps = append(s.X, float64(n)), append(s.Steps, c)
				if p.Preset == PresetBudgets {
					c.NodeCPU = p.CPUBoundCPU
					cpuBound.X, cpuBound.Steps = append(cpuBound.X, float64(n)), append(cpuBound.Steps, c)
				}
			}
			out = append(out, s)
			if p.Preset == PresetBudgets {
				out = append(out, cpuBound)
			}
		case PresetClients:
			n := p.Nodes[0]
			cs := p.Clients
			if len(cs) == 0 {
				for k := 1; k <= 2*n; k++ {
					cs = append(cs, k)
				}
			}
			s := SeriesPlan{Name: prof + ", " + strconv.Itoa(n) + " nodes", XLabel: "clients"}
			for _, k := range cs {
				c := base
				c.Nodes, c.Clients = n, k
				s.X, s.Steps = append(s.X, float64(k)), append(s.Steps, c)
			}
			out = append(out, s)
		case PresetTopics:
			n := p.Nodes[0]
			ts := p.Topics
			if len(ts) == 0 {
				ts = []int{1, 4, 16, 64}
			}
			s := SeriesPlan{Name: prof + ", " + strconv.Itoa(n) + " nodes", XLabel: "topics per node"}
			for _, t := range ts {
				c := base
				c.Nodes, c.Clients, c.StreamsPerPair = n, clientsFor(n), t
				c.Defaults()
				s.X = append(s.X, float64(t*len(c.Pairs())/n))
				s.Steps = append(s.Steps, c)
			}
			out = append(out, s)
		default:
			return nil, usage.Errorf("lab preset %q: want one of %v", p.Preset, PresetNames)
		}
	}
	for _, s := range out {
		for i := range s.Steps {
			c := s.Steps[i]
			c.Defaults()
			if err := c.Validate(); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}
