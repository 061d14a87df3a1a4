package cli

import (
	"strings"

	"github.com/stampede-bench/stampede/internal/output"
	"github.com/stampede-bench/stampede/internal/output/outputs"
	"github.com/stampede-bench/stampede/internal/output/webdash"
	"github.com/stampede-bench/stampede/internal/run"
)

// outputSpec is one --out value: a result directory (Kind "dir") or
// NAME=ARG.
type outputSpec = run.OutputSpec

// newOutputs is the registry of the outputs --out names.
func newOutputs() *output.Registry { return outputs.New() }

// parseOutputSpec reads one --out value. NAME is looked up in the output
// registry reg (nil: stampede's own; Kind is its canonical name); live
// outputs are checked at once, before any result directory exists.
func parseOutputSpec(reg *output.Registry, s string) (outputSpec, error) {
	name, arg, ok := strings.Cut(s, "=")
	if name == webdash.Name { // k6's --out web-dashboard[=PARAMS]: the dashboard's flags (webDashboardSpec)
		return outputSpec{Kind: webdash.Name, Arg: arg}, nil
	}
	if !ok && s != "" && !strings.ContainsAny(s, `/\.`) {
		if reg == nil {
			reg = newOutputs()
		}
		if f, known := reg.Lookup(s); known && f.CLI() {
			// k6 would stream to stdout here; stampede's stdout carries the
			// summary, so a bare output name is refused rather than taken
			// as a result directory called ./json.
			return outputSpec{}, usagef("--out %s names the %s output without its argument: give --out %s=%s, or --out ./%s for a result directory of that name", s, f.Name, s, outArgHint(f.Name), s)
		}
	}
	if !ok || strings.ContainsAny(name, `/\.`) {
		return outputSpec{Kind: "dir", Arg: s}, nil
	}
	if name == "dir" {
		return outputSpec{Kind: "dir", Arg: arg}, nil
	}
	if reg == nil {
		reg = newOutputs()
	}
	f, known := reg.Lookup(name)
	if !known || !f.CLI() {
		return outputSpec{}, usagef("unknown output %q in --out %s (known: %s, or a directory)", name, s, joinUsages(reg))
	}
	o := outputSpec{Kind: f.Name, Arg: arg}
	switch {
	case f.Name == "influxdb" && arg == "":
		return outputSpec{}, usagef("--out influxdb= needs a URL, e.g. influxdb=http://127.0.0.1:8086/k6")
	}
	return o, fromRun(run.CheckOutputSpec(reg, o)) // before any result directory exists
}

// joinUsages lists the forms of the outputs reg knows.
func joinUsages(reg *output.Registry) string { return strings.Join(reg.Usages(), ", ") }

// outArgHint is what follows NAME= for an output, for messages.
func outArgHint(name string) string {
	switch name {
	case "influxdb", "prometheus-rw", "experimental-prometheus-rw":
		return "URL"
	}
	return "FILE"
}
