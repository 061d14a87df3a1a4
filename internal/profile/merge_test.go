package profile

import (
	"errors"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	pprofile "github.com/google/pprof/profile"

	"github.com/stampede-bench/stampede/internal/testenv"
)

// burnCPU keeps one core busy for about d and returns a value so the work
// cannot be optimized away.
func burnCPU(d time.Duration) uint64 {
	var x uint64 = 1
	for end := time.Now().Add(d); time.Now().Before(end); {
		for i := 0; i < 100000; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	return x
}

// writeCPUProfile records a real CPU profile of burnCPU into path.
func writeCPUProfile(t *testing.T, path string) *pprofile.Profile {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		t.Fatal(err)
	}
	burnCPU(300 * time.Millisecond)
	pprof.StopCPUProfile()
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	p, err := readProfile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Sample) == 0 {
		testenv.Missing(t, "no CPU samples recorded (profiling unavailable on this machine?)")
	}
	return p
}

// totals sums each sample value column of p.
func totals(p *pprofile.Profile) []int64 {
	sum := make([]int64, len(p.SampleType))
	for _, s := range p.Sample {
		for i, v := range s.Value {
			sum[i] += v
		}
	}
	return sum
}

func TestMerge(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "run2")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	a := writeCPUProfile(t, filepath.Join(dir, "go.Go1Step.cpu.pprof"))
	b := writeCPUProfile(t, filepath.Join(sub, "go.Go2Step.pb.gz"))
	// Files a directory walk must skip.
	for _, name := range []string{"notes.txt", "perf.data", "default.pgo"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("not a profile"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ta, tb := totals(a), totals(b)
	want := make([]int64, len(ta))
	for i := range want {
		want[i] = ta[i] + tb[i]
	}

	tests := []struct {
		name   string
		inputs []string
	}{
		{"two files", []string{filepath.Join(dir, "go.Go1Step.cpu.pprof"), filepath.Join(sub, "go.Go2Step.pb.gz")}},
		{"directory walked recursively", []string{dir}},
		{"file and directory", []string{filepath.Join(dir, "go.Go1Step.cpu.pprof"), sub}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			merged, err := Merge(tt.inputs)
			if err != nil {
				t.Fatal(err)
			}
			got := totals(merged)
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("%s total = %d, want %d + %d = %d", merged.SampleType[i].Type, got[i], ta[i], tb[i], want[i])
				}
			}
		})
	}

	t.Run("MergeFiles writes a loadable profile", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "default.pgo")
		if _, err := MergeFiles(out, dir); err != nil {
			t.Fatal(err)
		}
		p, err := readProfile(out)
		if err != nil {
			t.Fatal(err)
		}
		if got := totals(p); got[0] != want[0] {
			t.Errorf("samples in %s = %d, want %d", out, got[0], want[0])
		}
	})

	t.Run("incompatible profiles", func(t *testing.T) {
		heap := filepath.Join(t.TempDir(), "heap.pprof")
		f, err := os.Create(heap)
		if err != nil {
			t.Fatal(err)
		}
		if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
			t.Fatal(err)
		}
		f.Close()
		_, err = Merge([]string{dir, heap})
		if !errors.Is(err, ErrBadInput) {
			t.Errorf("err = %v, want ErrBadInput", err)
		}
	})
}

func TestMergeBadInput(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "bogus.pprof")
	if err := os.WriteFile(text, []byte("hello, I am not a profile\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		inputs   []string
		wantText string
	}{
		{"no inputs", nil, "no profiles given"},
		{"text file", []string{text}, text + ": not a pprof profile"},
		{"text file in a directory", []string{dir}, text + ": not a pprof profile"},
		{"missing", []string{filepath.Join(dir, "nope.pprof")}, "nope.pprof: no such file"},
		{"empty directory", []string{empty}, empty + ": no *.pprof or *.pb.gz files"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Merge(tt.inputs)
			if !errors.Is(err, ErrBadInput) {
				t.Fatalf("err = %v, want ErrBadInput", err)
			}
			if !strings.Contains(err.Error(), tt.wantText) {
				t.Errorf("err = %q, want it to contain %q", err, tt.wantText)
			}
			if strings.Contains(err.Error(), ErrBadInput.Error()) {
				t.Errorf("err = %q repeats %q", err, ErrBadInput)
			}
		})
	}
	out := filepath.Join(dir, "out.pgo")
	if _, err := MergeFiles(out, text); err == nil {
		t.Error("MergeFiles accepted a text file")
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("MergeFiles left %s behind after failing: %v", out, err)
	}
}
