package cmdline_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stampede-bench/stampede"
	"github.com/stampede-bench/stampede/cmdline"
)

// countOutput counts the seconds it observes.
type countOutput struct {
	arg     string
	started atomic.Bool
	seconds atomic.Int64
	stopped atomic.Bool
}

func (*countOutput) Description() string         { return "" }
func (o *countOutput) Start() error              { o.started.Store(true); return nil }
func (o *countOutput) Observe(p *stampede.Point) { o.seconds.Add(1) }
func (o *countOutput) Stop() error               { o.stopped.Store(true); return nil }

// countCatalog is a catalog with the demo family and a "count" output
// whose ARG must be "ok"; made hands out each output made.
func countCatalog(t *testing.T, made chan<- *countOutput) *stampede.Catalog {
	t.Helper()
	cat := stampede.NewCatalog(stampede.NewFamily("demo", stampede.ScenarioDef{Name: "demo.Sum", Scenario: sumScenario{}}))
	err := cat.AddOutput(stampede.OutputFactory{
		Name: "count", Usage: "count=ok",
		Check: func(arg string) error {
			if arg != "ok" {
				return errors.New("ARG must be ok")
			}
			return nil
		},
		New: func(p stampede.OutputParams) (stampede.Output, error) {
			o := &countOutput{arg: p.Arg}
			made <- o
			return o, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// TestMainOwnOutput: --out NAME=ARG names an output the program added to
// its catalog; an unknown name or a bad ARG is one line and exit 2 before
// anything runs, listing the outputs known.
func TestMainOwnOutput(t *testing.T) {
	made := make(chan *countOutput, 4)
	cat := countCatalog(t, made)
	root := t.TempDir()
	main := func(args ...string) (int, string) {
		var out, errb bytes.Buffer
		code := cmdline.Main(context.Background(), cat, args, &out, &errb)
		return code, errb.String()
	}

	code, errs := main("run", "demo.Sum", "-u", "2", "-i", "200", "--out", "count=ok", "--out", filepath.Join(root, "r"), "-q", "--no-csv")
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, errs)
	}
	select {
	case o := <-made:
		if o.arg != "ok" || !o.started.Load() || !o.stopped.Load() || o.seconds.Load() < 1 {
			t.Errorf("output: arg %q started %v stopped %v seconds %d", o.arg, o.started.Load(), o.stopped.Load(), o.seconds.Load())
		}
	default:
		t.Fatal("--out count=ok made no output")
	}

	for _, tc := range []struct{ out, want string }{
		{"nope=x", `stampede: unknown output "nope" in --out nope=x (known: influxdb=URL, prometheus-rw=URL, json=FILE, csv=FILE, count=ok, or a directory)`},
		{"count=bad", "stampede: --out count: ARG must be ok"},
	} {
		dir := filepath.Join(root, "bad")
		code, errs := main("run", "demo.Sum", "-i", "1", "--out", tc.out, "--out", dir)
		if code != 2 || strings.TrimSpace(errs) != tc.want {
			t.Errorf("--out %s: exit %d, stderr %q; want 2, %q", tc.out, code, errs, tc.want)
		}
		if len(made) > 0 {
			t.Errorf("--out %s: an output was made", tc.out)
		}
	}
}

// TestCatalogAddOutputRefuses: a name stampede has, a name added twice,
// "dir" or a bad name is an error and leaves the catalog as it was.
func TestCatalogAddOutputRefuses(t *testing.T) {
	cat := countCatalog(t, make(chan *countOutput, 1))
	newOut := func(stampede.OutputParams) (stampede.Output, error) { return &countOutput{}, nil }
	for _, name := range []string{"influxdb", "count", "dir", "Bad.Name", ""} {
		if err := cat.AddOutput(stampede.OutputFactory{Name: name, New: newOut}); err == nil {
			t.Errorf("AddOutput(%q) accepted", name)
		}
	}
	if err := cat.AddOutput(stampede.OutputFactory{Name: "other", Aliases: []string{"json"}, New: newOut}); err == nil {
		t.Error("an alias naming a built-in output was accepted")
	}
	got := strings.Join(cat.Outputs().Usages(), ", ")
	if want := "influxdb=URL, prometheus-rw=URL, json=FILE, csv=FILE, count=ok"; got != want {
		t.Errorf("outputs %s, want %s", got, want)
	}
}
