package labrun

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/stampede-bench/stampede/internal/lab"
	"github.com/stampede-bench/stampede/internal/result/report"
)

// WriteText writes the console report of r.
func WriteText(w io.Writer, r *Result) {
	fmt.Fprintf(w, "stampede lab %s — %s, %d cores, kernel %s\n", r.Preset, r.Env.CPUModel, r.Env.Threads, r.Env.Kernel)
	for _, s := range r.Series {
		fmt.Fprintf(w, "\n%s\n", s.Name)
		fmt.Fprintf(w, "  %-8s %10s %10s %12s %9s %9s %8s  %s\n", s.XLabel, "acked/s", "per node", "link allows", "of link", "B in/msg", "machine", "bound")
		for _, p := range s.Points {
			if p.Err != "" || p.Step == nil {
				fmt.Fprintf(w, "  %-8g failed: %s\n", p.X, p.Err)
				continue
			}
			st := p.Step
			per := st.TPS / float64(st.Nodes)
			of := "-"
			if st.LinkTPS > 0 {
				of = fmt.Sprintf("%.0f%%", per/st.LinkTPS*100)
			}
			fmt.Fprintf(w, "  %-8g %10.0f %10.0f %12s %9s %9s %7.0f%%  %s\n", p.X, st.TPS, per, orDash(st.LinkTPS), of, orDash(wireIn(st)), st.HostBusy*100, st.Bound)
		}
		for _, p := range s.Points {
			if st := p.Step; st != nil && p.Err == "" {
				fmt.Fprintf(w, "  %s=%g: %s\n", s.XLabel, p.X, st.Why)
				fmt.Fprintf(w, "    leaders per node: %s; start-up %.1fs; generators' own count %.0f msgs/s\n", leadersLine(st), st.StartUp, st.ClientTPS)
				for _, n := range st.Notes {
					fmt.Fprintf(w, "    note: %s\n", n)
				}
			}
		}
		for _, sk := range s.Skipped {
			fmt.Fprintf(w, "  skipped %s\n", sk)
		}
		if s.Fit != nil {
			fmt.Fprintf(w, "  fit: acked/s ≈ %.0f + %.0f × %s, R² = %.4f (%d points)\n", s.Fit.Intercept, s.Fit.Slope, s.XLabel, s.Fit.R2, s.Fit.N)
		}
	}
	m := r.Model
	fmt.Fprintf(w, "\nper-node capacity model: TPS ≈ min(link rate / (8 × wire bytes per message), CPU budget / CPU per message)\n")
	fmt.Fprintf(w, "  measured on %s (R%d) steps\n", m.Profile, m.Replicas)
	fmt.Fprintf(w, "  wire bytes per message led, into a link-bound node: %.0f measured (node counters); a client publish is %.0f by the framing model (NATS PUB line + TCP/IP/Ethernet per %d-byte segment)\n", m.WireBytes, m.WireModel, mss)
	if m.CPUPerMsg > 0 {
		src := "link-bound steps: an upper bound, a node with CPU to spare spends more per message"
		if m.CPUSaturated {
			src = "CPU-bound steps: the cost at saturation"
		}
		fmt.Fprintf(w, "  CPU per message: %.1f µs of node CPU (cgroup cpuacct, %s; this machine)\n", m.CPUPerMsg, src)
	}
	fmt.Fprintf(w, "  lab node: link %s → %s msgs/s; CPU %s → %s msgs/s; model %s msgs/s per node", lab.FormatRate(m.NodeLinkRate), orDash(m.LinkTPS), coresText(m.NodeCPU), orDash(m.CPUTPS), orDash(m.PerNode))
	if m.MeasuredPerNode > 0 {
		fmt.Fprintf(w, ", measured slope %.0f", m.MeasuredPerNode)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "  the seed's fleet (2 KB messages): a 1 GbE node's link allows %.0f msgs/s (the seed's text says gigabit NICs), a 10 GbE node's %.0f; the seed measured %d per node\n", m.Link1G, m.Link10G, SeedTPSPerNode)
	fmt.Fprintf(w, "  to match %d per node: a link of %s (%.0f%% of 1 GbE) bounds it there", SeedTPSPerNode, lab.FormatRate(m.MatchLink), m.MatchLink/1e9*100)
	if m.MatchCPU > 0 {
		fmt.Fprintf(w, "; or, on 10 GbE, a CPU budget of %.2f cores at this machine's %.1f µs per message", m.MatchCPU, m.CPUPerMsg)
	}
	fmt.Fprintln(w)
	if r.Interrupted {
		fmt.Fprintln(w, "interrupted: the figures above are the steps that finished")
	}
}

// wireIn is the nodes' mean received bytes per message they led.
func wireIn(st *Step) float64 {
	var sum float64
	n := 0
	for _, h := range st.Hosts {
		if h.Role == RoleNode && h.WireInPerMsg > 0 {
			sum += h.WireInPerMsg
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

func coresText(c float64) string {
	if c <= 0 {
		return "unlimited"
	}
	return strconv.FormatFloat(c, 'g', 3, 64) + " cores"
}

func orDash(v float64) string {
	if v <= 0 {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}

func leadersLine(st *Step) string {
	var parts []string
	for _, h := range st.Hosts {
		if h.Role == RoleNode {
			parts = append(parts, fmt.Sprintf("%s %d (%.0f/s)", h.Name, h.Leaders, h.TPS))
		}
	}
	return strings.Join(parts, ", ")
}

// WriteDir writes r into dir: lab.json (everything), steps.csv (one row
// per host per step), report.txt (the console report) and report.html
// (TPS against x beside the fitted line and the model).
func WriteDir(dir string, r *Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "lab.json"), b, 0o644); err != nil {
		return err
	}
	var txt strings.Builder
	WriteText(&txt, r)
	if err := os.WriteFile(filepath.Join(dir, "report.txt"), []byte(txt.String()), 0o644); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "steps.csv"))
	if err != nil {
		return err
	}
	if err := writeCSV(f, r); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	h, err := os.Create(filepath.Join(dir, "report.html"))
	if err != nil {
		return err
	}
	if err := WriteHTML(h, r); err != nil {
		h.Close()
		return err
	}
	return h.Close()
}

func writeCSV(w io.Writer, r *Result) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"series", "x", "nodes", "clients", "profile", "cluster_tps", "bound", "host", "role", "link_bps", "cpu_quota",
		"rx_bps", "tx_bps", "rx_pps", "tx_pps", "link_in", "link_out", "cpu_cores", "cpu_util", "throttled", "leaders", "tps", "wire_in_per_msg", "host_busy"})
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	for _, s := range r.Series {
		for _, p := range s.Points {
			st := p.Step
			if st == nil || p.Err != "" {
				continue
			}
			for _, h := range st.Hosts {
				_ = cw.Write([]string{s.Name, g(p.X), strconv.Itoa(st.Nodes), strconv.Itoa(st.Clients), st.Profile, g(st.TPS), st.Bound,
					h.Name, h.Role, strconv.FormatInt(h.LinkRate, 10), g(h.CPUQuota), g(h.RxBps), g(h.TxBps), g(h.RxPps), g(h.TxPps),
					g(h.LinkIn), g(h.LinkOut), g(h.CPU), g(h.CPUUtil), g(h.Throttled), strconv.Itoa(h.Leaders), g(h.TPS), g(h.WireInPerMsg), g(st.HostBusy)})
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// chartSeries is a StampedeChart series.
type chartSeries struct {
	Label string    `json:"label"`
	Color string    `json:"color,omitempty"`
	Dash  string    `json:"dash,omitempty"`
	Xs    []float64 `json:"xs"`
	Ys    []float64 `json:"ys"`
}

type chartSpec struct {
	Title  string         `json:"title"`
	X      map[string]any `json:"x"`
	Y      map[string]any `json:"y"`
	Series []chartSeries  `json:"series"`
}

var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"}

// charts are one chart per x dimension: measured TPS, its fit, and, for
// node counts, the model's nodes × per-node capacity.
func charts(r *Result) []chartSpec {
	byX := map[string]*chartSpec{}
	var order []string
	for i, s := range r.Series {
		cs, ok := byX[s.XLabel]
		if !ok {
			cs = &chartSpec{Title: "Acknowledged messages/s vs " + s.XLabel, X: map[string]any{"label": s.XLabel}, Y: map[string]any{"label": "acked msgs/s"}}
			byX[s.XLabel] = cs
			order = append(order, s.XLabel)
		}
		color := palette[i%len(palette)]
		var xs, ys []float64
		for _, p := range s.Points {
			if p.Step != nil && p.Err == "" {
				xs, ys = append(xs, p.X), append(ys, p.Step.TPS)
			}
		}
		cs.Series = append(cs.Series, chartSeries{Label: s.Name + " (measured)", Color: color, Xs: xs, Ys: ys})
		if s.Fit != nil && len(xs) > 1 {
			fx := []float64{xs[0], xs[len(xs)-1]}
			cs.Series = append(cs.Series, chartSeries{Label: fmt.Sprintf("fit %.0f + %.0f·x, R²=%.3f", s.Fit.Intercept, s.Fit.Slope, s.Fit.R2), Color: color, Dash: "4 3", Xs: fx, Ys: []float64{s.Fit.At(fx[0]), s.Fit.At(fx[1])}})
		}
	}
	if cs, ok := byX["nodes"]; ok && r.Model.PerNode > 0 {
		var xs []float64
		for _, s := range cs.Series {
			xs = append(xs, s.Xs...)
		}
		lo, hi := 1.0, 1.0
		for _, x := range xs {
			hi = max(hi, x)
		}
		cs.Series = append(cs.Series, chartSeries{Label: fmt.Sprintf("model: nodes × %.0f (min of link and CPU terms)", r.Model.PerNode), Color: "#7f7f7f", Dash: "1 3",
			Xs: []float64{lo, hi}, Ys: []float64{lo * r.Model.PerNode, hi * r.Model.PerNode}})
	}
	out := make([]chartSpec, 0, len(order))
	for _, k := range order {
		out = append(out, *byX[k])
	}
	return out
}

var pageTmpl = template.Must(template.New("lab").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>stampede lab {{.Preset}}</title>
<style>body{font:14px system-ui,sans-serif;margin:24px;max-width:1100px}pre{background:#f6f6f6;padding:12px;overflow:auto}
figure.chart{margin:0 0 20px}figure.chart svg{width:100%;max-width:760px;height:auto}.chart text{font-size:11px}
.legend span{margin-right:14px}</style></head><body>
<h1>stampede lab: {{.Preset}}</h1>
<div id="charts"></div>
<h2>Report</h2><pre>{{.Text}}</pre>
<script>{{.ChartJS}}</script>
<script>var specs = {{.Specs}}; var root = document.getElementById("charts");
specs.forEach(function (s) { StampedeChart.chart(root, s); });</script>
</body></html>
`))

// WriteHTML writes the lab's page: its charts and the console report.
func WriteHTML(w io.Writer, r *Result) error {
	var txt strings.Builder
	WriteText(&txt, r)
	return pageTmpl.Execute(w, map[string]any{
		"Preset": r.Preset, "Text": txt.String(),
		"ChartJS": template.JS(report.ChartJS()),
		"Specs":   charts(r),
	})
}
