package cmdline_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/stampede-bench/stampede"
	"github.com/stampede-bench/stampede/cmdline"
)

type sumScenario struct{}

func (sumScenario) NewVU(context.Context, int) (stampede.VU, error) {
	return &sumVU{data: make([]int, 1000)}, nil
}

type sumVU struct{ data []int }

func (v *sumVU) Iterate(_ context.Context, it stampede.Iteration) error {
	start := it.Now()
	total := 0
	for _, x := range v.data {
		total += x
	}
	it.RecordRequest("sum", start, stampede.Outcome{Rows: int64(len(v.data))})
	it.RecordCheck(total == 0)
	return nil
}

func (v *sumVU) Close() error { return nil }

// ExampleMain gives a scenario written in Go the complete stampede command
// line: here `stampede run` with a threshold, then `stampede scenarios`.
func ExampleMain() {
	dir, err := os.MkdirTemp("", "stampede-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)

	catalog := stampede.NewCatalog(stampede.NewFamily("demo", stampede.ScenarioDef{
		Name: "demo.Sum", Description: "sum 1000 integers in process", Scenario: sumScenario{},
	}))
	var stdout, stderr bytes.Buffer
	code := cmdline.Main(context.Background(), catalog, []string{
		"run", "demo.Sum", "-u", "2", "-i", "100", "--threshold", "checks: rate==1",
		"--out", filepath.Join(dir, "result"), "--quiet", "--no-summary",
	}, &stdout, &stderr)
	fmt.Println("run exit code:", code)
	fmt.Print(stderr.String()) // errors, one line each (none here)

	stdout.Reset()
	cmdline.Main(context.Background(), catalog, []string{"scenarios"}, &stdout, &stderr)
	fmt.Print(stdout.String())
	// Output:
	// run exit code: 0
	// demo:
	//   demo.Sum  sum 1000 integers in process
}
