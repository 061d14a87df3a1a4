package sweep

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteTable writes the sweep as a text table, one block per scenario:
//
//	step  VUs  it/s  p50  p99  errors  L=X·W  gen CPU
//
// (node sweeps add it/s per node and scaling efficiency), followed by the
// knee or scaling line and the saturation verdict.
func WriteTable(w io.Writer, a *Analysis) error {
	var b strings.Builder
	for ci, c := range a.Curves {
		if ci > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%s — %s sweep\n", c.Scenario, dimName(a.Dimension))
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
		head := []string{"step", loadHeader(a.Dimension), "it/s", "p50", "p99", "errors", "L=X·W", "VUs", "gen CPU"}
		msgs := c.Scaling != nil && rateUnit(c.Points) == "msgs/s"
		srv := c.Scaling != nil && serversMeasured(c.Points)
		if c.Scaling != nil {
			if msgs {
				head = append(head, "msgs/s")
			}
			head = append(head, rateUnit(c.Points)+"/node", "efficiency", "client:broker")
			if srv {
				head = append(head, "server CPU")
			}
		}
		monitored := targetMonitored(c.Points)
		if monitored {
			head = append(head, "target CPU")
		}
		fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
		for i, p := range c.Points {
			mark := ""
			if c.Knee.Found && i == c.Knee.At {
				mark = " ◀ knee"
			}
			if c.Scaling != nil && !c.Scaling.Linear && i == c.Scaling.SubLinearAt {
				mark = " ◀ sub-linear"
			}
			gen := "-"
			if p.GeneratorCPU >= 0 {
				gen = fmt.Sprintf("%.0f%%", 100*p.GeneratorCPU)
			}
			row := []string{
				fmt.Sprint(p.Step), shorten(p.Value, 28), fmt.Sprintf("%.1f", p.Throughput),
				fmtMs(p.P50), fmtMs(p.P99), fmt.Sprintf("%.2f%%", 100*p.ErrorRate),
				fmt.Sprintf("%.1f", p.Concurrency), fmt.Sprintf("%.0f", p.VUs), gen,
			}
			if c.Scaling != nil {
				if msgs {
					row = append(row, fmt.Sprintf("%.0f", p.MsgRate))
				}
				row = append(row, fmt.Sprintf("%.1f", c.Scaling.PerNode[i]), fmt.Sprintf("%.0f%%", 100*c.Scaling.Efficiency[i]), clientBroker(p))
				if srv {
					row = append(row, fmt.Sprintf("%.0f%%", 100*p.ServerCPU))
				}
			}
			if monitored {
				row = append(row, targetCell(p.Target))
			}
			fmt.Fprintln(tw, strings.Join(row, "\t")+"\t"+mark)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if c.Scaling != nil {
			fmt.Fprintf(&b, "scaling: %s\n", c.Scaling.Describe(c.Points))
		} else {
			fmt.Fprintf(&b, "%s\n", c.Knee.Describe(c.Points))
		}
		fmt.Fprintf(&b, "saturation: %s\n", c.Verdict.Reason)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func dimName(dim string) string {
	switch dim {
	case DimVUs:
		return "VU"
	case DimRate:
		return "arrival-rate"
	case DimNodes:
		return "cluster-size"
	case DimTarget:
		return "target"
	}
	return dim
}

func loadHeader(dim string) string {
	switch dim {
	case DimVUs:
		return "VUs set"
	case DimRate:
		return "rate"
	case DimNodes:
		return "nodes"
	case DimTarget:
		return "target"
	}
	return "load"
}

func shorten(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
