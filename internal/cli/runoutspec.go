package cli

import (
	"strings"

	"github.com/stampede-bench/stampede/internal/run"
)

// outputSpec is one --out value: a result directory (Kind "dir") or
// NAME=ARG.
type outputSpec = run.OutputSpec

func parseOutputSpec(s string) (outputSpec, error) {
	name, arg, ok := strings.Cut(s, "=")
	if !ok || strings.ContainsAny(name, `/\.`) {
		return outputSpec{Kind: "dir", Arg: s}, nil
	}
	switch name {
	case "influxdb":
		if arg == "" {
			return outputSpec{}, usagef("--out influxdb= needs a URL, e.g. influxdb=http://127.0.0.1:8086/k6")
		}
		o := outputSpec{Kind: name, Arg: arg}
		return o, fromRun(run.CheckOutputSpec(o)) // before any result directory exists
	case "dir":
		return outputSpec{Kind: "dir", Arg: arg}, nil
	case "json", "csv":
		return outputSpec{Kind: name, Arg: arg}, nil // checked by makePlan (checkStreamSpec)
	case "prometheus-rw", "experimental-prometheus-rw":
		o := outputSpec{Kind: "prometheus-rw", Arg: arg}
		return o, fromRun(run.CheckOutputSpec(o))
	}
	return outputSpec{}, usagef("unknown output %q in --out %s (known: influxdb=URL, prometheus-rw=URL, json=FILE, csv=FILE, or a directory)", name, s)
}
