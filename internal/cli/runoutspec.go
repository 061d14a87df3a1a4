package cli

import (
	"strings"

	"github.com/stampede-bench/stampede/internal/output"
)

// outputSpec is one --out value: a result directory or NAME=ARG.
type outputSpec struct {
	kind, arg string
}

// parseOutputSpec reads one --out value. NAME is looked up in the output
// registry (kind is its canonical name); live outputs are checked at once,
// before any result directory exists.
func parseOutputSpec(s string) (outputSpec, error) {
	name, arg, ok := strings.Cut(s, "=")
	if !ok || strings.ContainsAny(name, `/\.`) {
		return outputSpec{kind: "dir", arg: s}, nil
	}
	if name == "dir" {
		return outputSpec{kind: "dir", arg: arg}, nil
	}
	reg := newOutputs()
	f, known := reg.Lookup(name)
	if !known {
		return outputSpec{}, usagef("unknown output %q in --out %s (known: %s, or a directory)", name, s, joinUsages(reg))
	}
	o := outputSpec{kind: f.Name, arg: arg}
	switch {
	case f.Name == "influxdb" && arg == "":
		return outputSpec{}, usagef("--out influxdb= needs a URL, e.g. influxdb=http://127.0.0.1:8086/k6")
	case k6StreamKinds[f.Name] != "":
		return o, nil // checked by makePlan (checkStreamSpec)
	}
	return o, checkOutputSpec(o)
}

// joinUsages lists the forms of the outputs reg knows.
func joinUsages(reg *output.Registry) string { return strings.Join(reg.Usages(), ", ") }
