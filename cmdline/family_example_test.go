package cmdline_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/stampede-bench/stampede"
	"github.com/stampede-bench/stampede/cmdline"
	"github.com/stampede-bench/stampede/flags"
)

// kvOptions are the kv family's options, independent of any flag library.
type kvOptions struct {
	// Keys is how many keys the store holds (default 1000; --kv-keys).
	Keys int
}

func defaultKVOptions() kvOptions { return kvOptions{Keys: 1000} }

// Validate reports bad options as usage errors: one line, exit code 2.
func (o kvOptions) Validate() error {
	if o.Keys < 1 {
		return stampede.Usagef("--kv-keys %d must be at least 1", o.Keys)
	}
	return nil
}

// kvFamily is a whole family: its Open prepares the target, an in-process
// key-value store, for its scenarios.
type kvFamily struct{ opts kvOptions }

func (f *kvFamily) Name() string { return "kv" }

func (f *kvFamily) Scenarios() []stampede.ScenarioInfo {
	return []stampede.ScenarioInfo{
		{Name: "kv.Get", Description: "read a random key of the in-process store", Default: true},
	}
}

// BindFlags offers the options as run flags (stampede.FlagBinder).
func (f *kvFamily) BindFlags(fs flags.Set) {
	fs.IntVar(&f.opts.Keys, "kv-keys", f.opts.Keys, "keys in the kv store")
}

func (f *kvFamily) Open(_ context.Context, env *stampede.Env, names []string) (*stampede.Opened, error) {
	if err := f.opts.Validate(); err != nil {
		return nil, err
	}
	if env.Target != "" {
		return nil, stampede.Usagef("kv: the store runs in process; leave out --target")
	}
	store := make(map[string]int, f.opts.Keys) // read-only once filled: the VUs share it
	for i := range f.opts.Keys {
		store[fmt.Sprintf("key-%d", i)] = i
	}
	env.Logf("kv: %d keys", len(store))
	o := &stampede.Opened{
		Scenarios: map[string]stampede.Runnable{},
		Target:    "kv store in process",
		InProcess: true,
		Notes:     []string{"the kv store is a Go map in stampede's process: no network, no persistence"},
		Close:     func() error { clear(store); return nil },
	}
	for _, n := range names { // only kv.Get exists
		o.Scenarios[n] = stampede.AsRunnable(&kvGet{store: store, keys: f.opts.Keys, seed: uint64(env.Seed)})
	}
	return o, nil
}

// kvGet is the scenario kv.Get.
type kvGet struct {
	store map[string]int
	keys  int
	seed  uint64
}

func (s *kvGet) NewVU(_ context.Context, id int) (stampede.VU, error) {
	return &kvGetVU{s: s, rnd: rand.New(rand.NewPCG(s.seed, uint64(id)))}, nil
}

type kvGetVU struct {
	s   *kvGet
	rnd *rand.Rand
}

func (v *kvGetVU) Iterate(_ context.Context, it stampede.Iteration) error {
	start := it.Now()
	_, found := v.s.store[fmt.Sprintf("key-%d", v.rnd.IntN(v.s.keys))]
	var err error
	if !found {
		err = errors.New("key not found")
	}
	it.RecordRequest("get", start, stampede.Outcome{Err: err, Rows: 1})
	it.RecordCheck(found)
	return nil
}

func (v *kvGetVU) Close() error { return nil }

// Example_family writes a whole family — options with defaults and
// Validate, run flags, an Open that prepares the target — and runs it
// through the complete command line: listed, run with a family flag and a
// threshold, refused with a bad option.
func Example_family() {
	dir, err := os.MkdirTemp("", "stampede-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	cat := stampede.NewCatalog(&kvFamily{opts: defaultKVOptions()})
	main := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := cmdline.Main(context.Background(), cat, args, &out, &errb)
		return code, out.String(), errb.String()
	}

	code, out, _ := main("scenarios")
	fmt.Println("scenarios:", code, strings.Contains(out, "kv.Get"))

	result := filepath.Join(dir, "result")
	code, _, _ = main("run", "kv.Get", "--kv-keys", "50", "-u", "2", "-i", "200",
		"--threshold", "checks: rate==1", "--out", result, "-q", "--no-csv")
	fmt.Println("run:", code, iterationsIn(result))

	code, _, errs := main("run", "kv.Get", "--kv-keys", "0", "--out", filepath.Join(dir, "bad"))
	fmt.Printf("bad option: %d %s", code, errs)
	// Output:
	// scenarios: 0 true
	// run: 0 200
	// bad option: 2 stampede: --kv-keys 0 must be at least 1
}

// iterationsIn reads the iterations of the first scenario from the
// result directory's snapshot.json.
func iterationsIn(dir string) int64 {
	b, err := os.ReadFile(filepath.Join(dir, "snapshot.json"))
	if err != nil {
		return -1
	}
	var snap struct {
		Scenarios []struct {
			Counters map[string]int64 `json:"counters"`
		} `json:"scenarios"`
	}
	if json.Unmarshal(b, &snap) != nil || len(snap.Scenarios) == 0 {
		return -1
	}
	return snap.Scenarios[0].Counters["iterations"]
}
