package kafka

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stampede-bench/stampede/internal/engine"
)

// BenchmarkProduce measures the whole produce path per message (engine
// iteration, franz-go produce, acknowledgement, recording) against an
// embedded cluster that discards records. ns/op is wall time per message
// with the given VUs in flight on this machine's cores, shared with the
// in-process broker. With STAMPEDE_KAFKA_BENCH_TARGET=kafka://... (e.g.
// from stampede kafka serve --blackhole) it profiles the client alone;
// STAMPEDE_KAFKA_BENCH_ARGS adds run flags (e.g. "--linger 5ms").
func BenchmarkProduce(b *testing.B) {
	for _, vus := range []int{1, 64, 256, 1024} {
		b.Run("vus="+strconv.Itoa(vus), func(b *testing.B) {
			target := os.Getenv("STAMPEDE_KAFKA_BENCH_TARGET")
			if target == "" {
				e, err := StartEmbedded(EmbeddedOptions{Brokers: 1, Blackhole: true})
				if err != nil {
					b.Fatal(err)
				}
				defer e.Close()
				target = e.URL()
			}
			f := family(b, strings.Fields(os.Getenv("STAMPEDE_KAFKA_BENCH_ARGS"))...)
			opened, env, _, err := openB(b, f, target, vus)
			if err != nil {
				b.Fatal(err)
			}
			defer opened.Close()
			b.ReportAllocs()
			b.SetBytes(2048)
			b.ResetTimer()
			snap := runOpenedB(b, opened, env, step{ScenarioProduce, engine.Config{Executor: engine.SharedIterations, VUs: int64(vus), Iterations: int64(max(b.N, vus))}})
			b.StopTimer()
			if n := snap.Scenario(ScenarioProduce).Counters[MetricMessages]; n < int64(b.N) {
				b.Fatalf("acknowledged %d of %d", n, b.N)
			}
		})
	}
}
