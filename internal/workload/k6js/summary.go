package k6js

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/dop251/goja"

	"github.com/stampede-bench/stampede/internal/metrics"
	"github.com/stampede-bench/stampede/internal/usage"
)

// HasHandleSummary reports whether the script exports handleSummary.
func (f *Family) HasHandleSummary() bool {
	sh := f.newShared(metrics.NewRegistry())
	sh.probeOnly = true
	v, err := newVM(sh, 0, nil)
	if err != nil {
		return false
	}
	defer v.close()
	_, ok := goja.AssertFunction(v.exports.Get("handleSummary"))
	return ok
}

// HandleSummary calls the script's handleSummary(data) with the run's
// summary (summaryJSON, stampede's k6 --summary-export shape, turned into
// the shape k6 hands to handleSummary: metrics with type, contains and
// values) and writes what it returns: "stdout" and "stderr" to those
// streams, any other key to that file (relative to the working
// directory). It returns the files written.
func (f *Family) HandleSummary(summaryJSON []byte, stdout, stderr io.Writer) ([]string, error) {
	data, err := handleSummaryData(summaryJSON, f.opts)
	if err != nil {
		return nil, err
	}
	sh := f.newShared(metrics.NewRegistry())
	sh.probeOnly = true
	v, err := newVM(sh, 0, nil)
	if err != nil {
		return nil, err
	}
	defer v.close()
	fn, ok := goja.AssertFunction(v.exports.Get("handleSummary"))
	if !ok {
		return nil, nil
	}
	var x any
	if err := json.Unmarshal(data, &x); err != nil {
		return nil, err
	}
	res, err := fn(goja.Undefined(), v.rt.ToValue(x))
	if err != nil {
		var ex *goja.Exception
		if errors.As(err, &ex) {
			return nil, fmt.Errorf("handleSummary(): %s", oneLine(ex))
		}
		return nil, fmt.Errorf("handleSummary(): %v", err)
	}
	o, ok := res.(*goja.Object)
	if !ok {
		return nil, nil
	}
	keys := o.Keys()
	sort.Strings(keys)
	var files []string
	for _, k := range keys {
		val := o.Get(k)
		var b []byte
		if ab, ok := val.Export().(goja.ArrayBuffer); ok {
			b = ab.Bytes()
		} else {
			b = []byte(val.String())
		}
		switch k {
		case "stdout":
			_, err = stdout.Write(b)
		case "stderr":
			_, err = stderr.Write(b)
		default:
			if dir := filepath.Dir(k); dir != "." {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					return files, usage.Errorf("handleSummary: %v", err)
				}
			}
			if err = os.WriteFile(k, b, 0o644); err == nil {
				files = append(files, k)
			}
		}
		if err != nil {
			return files, fmt.Errorf("handleSummary: %s: %v", k, err)
		}
	}
	return files, nil
}

// handleSummaryData converts a --summary-export document into k6's
// handleSummary data: {root_group, options, state, metrics: {NAME: {type,
// contains, values, thresholds}}}.
func handleSummaryData(export []byte, o *Options) ([]byte, error) {
	var doc struct {
		RootGroup json.RawMessage                       `json:"root_group"`
		State     json.RawMessage                       `json:"state"`
		Metrics   map[string]map[string]json.RawMessage `json:"metrics"`
	}
	if err := json.Unmarshal(export, &doc); err != nil {
		return nil, fmt.Errorf("handleSummary: read the summary: %v", err)
	}
	out := map[string]any{"root_group": doc.RootGroup, "metrics": map[string]any{}}
	if len(doc.State) > 0 {
		out["state"] = doc.State
	}
	stats := []string{"avg", "min", "med", "max", "p(90)", "p(95)"}
	if o != nil && len(o.SummaryTrendStats) > 0 {
		stats = o.SummaryTrendStats
	}
	out["options"] = map[string]any{"summaryTrendStats": stats, "summaryTimeUnit": ""}
	ms := out["metrics"].(map[string]any)
	for name, fields := range doc.Metrics {
		typ, contains := "trend", "default"
		switch {
		case has(fields, "passes"):
			typ = "rate"
		case has(fields, "count"):
			typ = "counter"
		case has(fields, "value") && has(fields, "min"):
			typ = "gauge"
		}
		values := map[string]json.RawMessage{}
		var th json.RawMessage
		for k, v := range fields {
			switch k {
			case "thresholds":
				th = v
			case "passes":
				values["passes"] = v
			case "fails":
				values["fails"] = v
			case "value":
				if typ == "rate" {
					values["rate"] = v
				} else {
					values["value"] = v
				}
			default:
				values[k] = v
			}
		}
		m := map[string]any{"type": typ, "contains": contains, "values": values}
		if th != nil {
			m["thresholds"] = th
		}
		ms[name] = m
	}
	return json.Marshal(out)
}

func has(m map[string]json.RawMessage, k string) bool { _, ok := m[k]; return ok }
