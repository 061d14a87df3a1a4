package cli

import "strings"

// outputSpec is one --out value: a result directory or NAME=ARG.
type outputSpec struct {
	kind, arg string
}

func parseOutputSpec(s string) (outputSpec, error) {
	name, arg, ok := strings.Cut(s, "=")
	if !ok || strings.ContainsAny(name, `/\.`) {
		return outputSpec{kind: "dir", arg: s}, nil
	}
	switch name {
	case "influxdb":
		if arg == "" {
			return outputSpec{}, usagef("--out influxdb= needs a URL, e.g. influxdb=http://127.0.0.1:8086/k6")
		}
		o := outputSpec{kind: name, arg: arg}
		return o, checkOutputSpec(o) // before any result directory exists
	case "dir":
		return outputSpec{kind: "dir", arg: arg}, nil
	case "json", "csv":
		return outputSpec{kind: name, arg: arg}, nil // checked by makePlan (checkStreamSpec)
	case "prometheus-rw", "experimental-prometheus-rw":
		o := outputSpec{kind: "prometheus-rw", arg: arg}
		return o, checkOutputSpec(o)
	}
	return outputSpec{}, usagef("unknown output %q in --out %s (known: influxdb=URL, prometheus-rw=URL, json=FILE, csv=FILE, or a directory)", name, s)
}
