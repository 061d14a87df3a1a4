package k6js

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"testing"

	"github.com/stampede-bench/stampede/internal/metrics"
)

// BenchmarkNewVU measures a VU's runtime: the time to make one (init
// context included) and the heap it keeps (bytes/VU).
func BenchmarkNewVU(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "s.js")
	os.WriteFile(path, []byte("import http from 'k6/http';\nimport { check, sleep } from 'k6';\nexport const options = { vus: 1 };\nexport default function () { check(http.get('http://127.0.0.1:1/'), { ok: (r) => r.status === 200 }); sleep(1); }\n"), 0o644)
	f, err := Prepare(path, Config{})
	if err != nil {
		b.Fatal(err)
	}
	sh := f.newShared(metrics.NewRegistry())
	sc := &f.scenarios[0]
	vms := make([]*vm, 0, b.N)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v, err := newVM(sh, int64(i+1), sc)
		if err != nil {
			b.Fatal(err)
		}
		vms = append(vms, v)
	}
	b.StopTimer()
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapInuse-before.HeapInuse)/float64(b.N), "heap-bytes/VU")
	if p := os.Getenv("K6JS_HEAP_PROFILE"); p != "" {
		if f, err := os.Create(p); err == nil {
			pprof.WriteHeapProfile(f)
			f.Close()
		}
	}
	runtime.KeepAlive(vms)
}
