package families_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/stampede-bench/stampede"
	"github.com/stampede-bench/stampede/cmdline"
	"github.com/stampede-bench/stampede/families/builtin"
	"github.com/stampede-bench/stampede/families/kafka"
)

// Example_builtinFamily runs a built-in family configured in Go: builtin.Sleep
// with a 1 ms pause instead of the --sleep default of 1 s.
func Example_builtinFamily() {
	dir, err := os.MkdirTemp("", "stampede-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)

	opts := builtin.DefaultOptions()
	opts.Sleep = time.Millisecond
	if err := opts.Validate(); err != nil {
		panic(err)
	}
	plan := stampede.Plan{
		Scenarios: []stampede.PlanScenario{{
			Name: "builtin.Sleep", Family: builtin.New(opts),
			Config: stampede.Config{Executor: stampede.SharedIterations, VUs: 2, Iterations: 20},
		}},
		Out:     filepath.Join(dir, "result"),
		Outputs: []stampede.OutputSpec{{Kind: "series"}},
	}
	start := time.Now()
	res, err := stampede.Execute(context.Background(), plan, stampede.DefaultDeps(nil, os.Getenv))
	if err != nil {
		panic(err)
	}
	fmt.Println("iterations:", res.Snapshot.Scenarios[0].Counters["iterations"])
	fmt.Println("well under 20 × 1 s:", time.Since(start) < 10*time.Second)
	// Output:
	// iterations: 20
	// well under 20 × 1 s: true
}

// TestOptionsAreTheFlagDefaults: a family built from options shows them
// as its run flags' defaults, and a flag the user gives still wins.
func TestOptionsAreTheFlagDefaults(t *testing.T) {
	opts := kafka.DefaultOptions()
	if err := opts.ApplyProfile("high-reliability"); err != nil {
		t.Fatal(err)
	}
	catalog := stampede.NewCatalog(kafka.New(opts))
	var stdout, stderr bytes.Buffer
	cmdline.Main(context.Background(), catalog, []string{"run", "--help"}, &stdout, &stderr)
	help := stdout.String() + stderr.String()
	for flag, def := range map[string]string{"--acks string": `(default "all")`, "--replication-factor int16": "(default 3)", "--min-insync-replicas int": "(default 2)"} {
		// The usage text may wrap: the default follows before the next flag.
		if !regexp.MustCompile(regexp.QuoteMeta(flag) + `[^-]*` + regexp.QuoteMeta(def)).MatchString(help) {
			t.Errorf("run --help: %s without %s:\n%s", flag, def, help)
		}
	}
	bad := kafka.DefaultOptions()
	bad.Acks = "2"
	if err := bad.Validate(); err == nil || err.Error() != `--acks "2": want 0, 1 or all` {
		t.Errorf("Validate() = %v", err)
	}
}
